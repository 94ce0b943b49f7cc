/**
 * `feeshare launch token`, spawned, against a sandbox started in this test process whose API
 * answers each take 600 ms (`latencyMillis`): a run's steps are then far apart, so the tests
 * can kill the CLI right after a step's line (SIGKILL: no clean-up) and before the next step
 * asks anything. What was made is checked through the sandbox's records (`/sandbox/state`).
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { assert, describe, layer } from "@effect/vitest"
import { FeeShare, PublicKey } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { bin, document, feeshare, keygenFile, temporaryDirectory } from "./support/spawn.js"

const SOL = 1_000_000_000n
const dir = temporaryDirectory("feeshare-cli-launch-")
const image = fileURLToPath(new URL("../assets/demo-token.png", import.meta.url))

const sandboxApi = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl }), (c) => c.sandbox)
).pipe(Effect.provide(FetchHttpClient.layer))

/** A funded wallet (its keygen file) and a registered handle, for one test. */
const fixture = (tag: string) =>
  Effect.gen(function*() {
    const sandbox = yield* sandboxApi
    const wallet = keygenFile(dir, `wallet-${tag}`)
    const publicKey = PublicKey.fromBytes(wallet.publicKey)
    yield* sandbox.airdrop({ payload: { address: publicKey, lamports: 20n * SOL } })
    const friend = PublicKey.fromBytes(keygenFile(dir, `friend-${tag}`).publicKey)
    const handle = `cli_${tag}_${publicKey.slice(0, 6).toLowerCase()}`
    yield* sandbox.registerHandle({ payload: { provider: "social", username: handle, wallet: friend } })
    const name = `Cli ${tag} ${publicKey.slice(0, 6)}`
    const args = [
      "--keypair",
      wallet.path,
      "launch",
      "token",
      "--image",
      image,
      "--name",
      name,
      "--symbol",
      "cli",
      "--share",
      `social:${handle}:3000`,
      "--share",
      `${publicKey}:7000`,
      "--initial-buy",
      "0.01SOL",
      "--record-dir",
      join(dir, `records-${tag}`)
    ]
    return { args, name, publicKey, friend, handle, records: join(dir, `records-${tag}`) }
  })

const env = Effect.map(SandboxInfo, (info) => ({
  FEESHARE_BASE_URL: info.baseUrl,
  FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
  FEESHARE_CONFIG_DIR: join(dir, "config")
}))

const cli = (args: ReadonlyArray<string>) => Effect.flatMap(env, (e) => feeshare(args, e))

/** The sandbox's tokens named `name`. */
const tokensNamed = (name: string) =>
  Effect.gen(function*() {
    const state = yield* (yield* sandboxApi).state()
    return state.tokens.filter((t) => t["name"] === name)
  })

/** Runs the CLI and SIGKILLs it as soon as a line of stdout matches `after`; answers the stdout so far. */
const killedAfter = (args: ReadonlyArray<string>, after: RegExp) =>
  Effect.flatMap(env, (e) =>
    Effect.async<{ readonly stdout: string; readonly signal: string | null }>((resume) => {
      const { FEESHARE_API_KEY: _k, FEESHARE_BASE_URL: _b, ...inherited } = process.env
      const child = spawn(process.execPath, [bin, ...args], {
        env: { ...inherited, NO_COLOR: "1", ...e },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString()
        if (after.test(stdout)) child.kill("SIGKILL")
      })
      child.once("exit", (_code, signal) => resume(Effect.succeed({ stdout, signal })))
    }))

describe("feeshare launch token (spawned)", () => {
  layer(
    Sandbox.layer({ port: 0, slotMillis: 20, seed: "cli-launch", latencyMillis: 600, blockhashValidity: 100_000 }),
    {
      excludeTestServices: true,
      timeout: "120 seconds"
    }
  )((it) => {
    it.effect("piped: a line per step, the split with the handle, landed; --json is one document", () =>
      Effect.gen(function*() {
        const { args, friend, handle, name, publicKey } = yield* fixture("piped")
        const run = yield* cli(args)
        assert.strictEqual(run.code, 0, run.stderr)
        assert.notInclude(run.stdout, "\u001b[")
        assert.match(run.stdout, /^ {2}handles\s+started$/m)
        assert.match(run.stdout, new RegExp(`social:${handle} -> ${friend}\\s+3000 bps \\(30%\\)`))
        assert.match(run.stdout, new RegExp(`${publicKey}\\s+7000 bps \\(70%\\)`))
        assert.match(run.stdout, /deployer \S+: 2500 bps \(25%\)/)
        assert.match(run.stdout, /^ {2}lookup-table\s+skipped/m)
        assert.match(run.stdout, /^ {2}config\s+landed\s+transaction 1 \S+$/m)
        assert.match(run.stdout, /^ {2}launch\s+done\s+launched \S+ at slot \d+$/m)
        assert.match(run.stdout, /^Launched \S+: \S+$/m)
        const [token] = yield* tokensNamed(name)
        assert.isTrue(token?.launched)
        assert.strictEqual(token?.symbol, "CLI")

        // --json: one document on stdout, no progress lines
        const other = yield* fixture("json")
        const json = yield* cli(["--json", ...other.args])
        assert.strictEqual(json.code, 0, json.stderr)
        const result = document(json) as {
          mint: string
          signature: string
          shares: ReadonlyArray<{ wallet: string; bps: number; handle: boolean }>
          deployerBps: number
          configType: string
          initialBuyLamports: number
          reused: ReadonlyArray<string>
        }
        assert.strictEqual(result.initialBuyLamports, 10_000_000)
        assert.strictEqual(result.deployerBps, FeeShare.deployerBps)
        assert.strictEqual(result.configType, FeeShare.defaultConfigType)
        assert.deepStrictEqual(result.shares.map((s) => [s.wallet, s.bps, s.handle]), [
          [other.friend, 3_000, true],
          [other.publicKey, 7_000, false]
        ])
        assert.deepStrictEqual(result.reused, [])
        assert.isTrue((yield* tokensNamed(other.name))[0]?.launched)
      }))

    it.effect("resume: killed after token info, then after the config; no second token info, no second config", () =>
      Effect.gen(function*() {
        const { args, name, publicKey, records } = yield* fixture("resume")
        const first = yield* killedAfter(args, /^ {2}token-info\s+done/m)
        assert.strictEqual(first.signal, "SIGKILL")
        const made = yield* tokensNamed(name)
        assert.strictEqual(made.length, 1)
        assert.isNull((made[0]!["feeShare"] as { configType: string | null }).configType)
        // the record: public values only
        const [file] = readdirSync(records)
        assert.match(file ?? "", /^launch-[0-9a-f]{64}\.json$/)

        const second = yield* killedAfter(args, /^ {2}config\s+done/m)
        assert.strictEqual(second.signal, "SIGKILL")
        assert.match(second.stdout, /^ {2}token-info\s+reused\s+mint \S+ \(from the record\)$/m)
        const configured = yield* tokensNamed(name)
        assert.strictEqual(configured.length, 1)
        const share = configured[0]!["feeShare"] as { configType: string | null; deployer: string | null }
        assert.strictEqual(share.deployer, publicKey)
        assert.isFalse(configured[0]!.launched)

        const third = yield* cli(["--json", ...args])
        assert.strictEqual(third.code, 0, third.stderr)
        const result = document(third) as { mint: string; reused: ReadonlyArray<string> }
        assert.deepStrictEqual(result.reused, ["token-info", "config"])
        const after = yield* tokensNamed(name)
        assert.strictEqual(after.length, 1)
        assert.strictEqual(after[0]!.mint, result.mint)
        assert.isTrue(after[0]!.launched)
      }))

    it.effect("--dry-run: the token info is uploaded, the config verified and costed; nothing lands", () =>
      Effect.gen(function*() {
        const { args, name } = yield* fixture("dry")
        const dry = yield* cli([...args, "--dry-run"])
        assert.strictEqual(dry.code, 0, dry.stderr)
        assert.match(dry.stdout, /^Dry run: nothing was signed or sent to the chain/m)
        assert.match(dry.stdout, /config's 2 transaction\(s\) were verified: they would cost \d+ \([\d.]+ SOL\)/)
        assert.match(dry.stdout, /^ {2}launch\s+skipped\s+dry run/m)
        const [token] = yield* tokensNamed(name)
        assert.isFalse(token?.launched)
        assert.isNull((token!["feeShare"] as { configType: string | null }).configType)
      }))

    it.effect("bad inputs: a typed error naming the field (exit code of InvalidRequest), nothing made", () =>
      Effect.gen(function*() {
        const { args, name } = yield* fixture("bad")
        const big = join(dir, "big.png")
        writeFileSync(big, new Uint8Array(15_000_001))
        const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
          [args.map((a) => a === "--share" ? a : a.replace(/:3000$/, ":2000")), /shares must sum to exactly 10000/],
          [args.map((a) => (a === "cli" ? "ELEVENCHARS" : a)), /symbol must be 1 to 10 characters/],
          [args.map((a) => (a === image ? big : a)), /--image must be at most 15000000 bytes/],
          [[...args, "--share", "twitter:bob:0"], /--share\[2\] must be WALLET:BPS or PROVIDER:USERNAME:BPS/],
          [
            args.map((a) => a.replace(/^social:cli_bad_\w+:/, "social:nobody_at_all:")),
            /shares\[0\] names social:nobody_at_all/
          ],
          [args.map((a) => (a === "0.01SOL" ? "0.01" : a)), /--initial-buy must be lamports/]
        ]
        for (const [bad, message] of cases) {
          const run = yield* cli(bad)
          assert.notStrictEqual(run.code, 0)
          assert.match(run.stderr, message)
          assert.include(run.stderr, "nothing was sent")
        }
        assert.strictEqual((yield* tokensNamed(name)).length, 0)
      }))

    it.effect("the old spelling `launch --ipfs …` runs `launch transaction`", () =>
      Effect.gen(function*() {
        const help = yield* cli(["launch", "--help"])
        assert.strictEqual(help.code, 0, help.stderr)
        assert.match(help.stdout, /token/)
        assert.match(help.stdout, /transaction/)
        // both spellings refuse the same missing mint alike: the alias reached `launch transaction`
        const old = yield* cli(["launch", "--ipfs", "ipfs://x", "--config-key", "K"])
        const named = yield* cli(["launch", "transaction", "--ipfs", "ipfs://x", "--config-key", "K"])
        assert.strictEqual(old.code, named.code)
        assert.match(old.stderr, /--mint/)
      }))
  })
})
