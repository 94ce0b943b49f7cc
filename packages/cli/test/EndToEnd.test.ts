/**
 * The `feeshare` executable end to end, as spawned processes, against a sandbox started in
 * this test process: login, launch, quote, swap, claim `--dry-run`, claim, `--json`, and the
 * exit code of each error class.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { assert, describe, layer } from "@effect/vitest"
import { PublicKey } from "@feeshare/domain"
import { Market } from "@feeshare/sandbox/Market"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { readFileSync, statSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { join } from "node:path"
import { bin, document, feeshare, keygenFile, temporaryDirectory } from "./support/spawn.js"

const SOL = 1_000_000_000n
const dir = temporaryDirectory("feeshare-cli-e2e-")

let made = 0
/** Fresh creator and claimer key files, the calling test's own. */
const wallets = () => {
  const n = made++
  const creator = keygenFile(dir, `creator-${n}`)
  const claimer = keygenFile(dir, `claimer-${n}`)
  return {
    creator,
    claimer,
    creatorKey: PublicKey.fromBytes(creator.publicKey),
    claimerKey: PublicKey.fromBytes(claimer.publicKey)
  }
}

/**
 * A launched token of the calling test's own, set up in this process: its fee share gives the
 * creator (its admin) and the claimer half each, both funded; `owed` adds a 2 SOL buy, so that
 * both are owed fees.
 */
const ownToken = (owed: boolean) =>
  Effect.gen(function*() {
    const keys = wallets()
    const market = yield* Market
    for (const address of [keys.creatorKey, keys.claimerKey]) {
      yield* market.airdrop({ address, lamports: 20n * SOL })
    }
    const token = yield* Seed.feeShareToken({
      symbol: "E2E",
      admin: keys.creatorKey,
      claimers: [{ wallet: keys.creatorKey, bps: 5_000 }, { wallet: keys.claimerKey, bps: 5_000 }],
      buys: owed ? [{ lamports: 2n * SOL }] : []
    })
    return { ...keys, token }
  }).pipe(Effect.orDie)

/** Runs `feeshare` against the sandbox with its demo API key and `configDir` (a fresh one by default). */
const cli = (...args: ReadonlyArray<string>) => cliIn(temporaryDirectory("feeshare-cli-config-"), true, args)

const cliIn = (configDir: string, demoKey: boolean, args: ReadonlyArray<string>) =>
  Effect.flatMap(
    SandboxInfo,
    (info) =>
      feeshare(args, {
        FEESHARE_BASE_URL: info.baseUrl,
        FEESHARE_CONFIG_DIR: configDir,
        ...(demoKey ? { FEESHARE_API_KEY: Redacted.value(info.demoApiKey) } : {})
      })
  )

/** A port nothing listens on (bound, then released). */
const closedPort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const lines = (text: string) => text.split("\n").filter((line) => line !== "")

describe("feeshare (spawned)", () => {
  // the sandbox runs on the live clock: its block clock must tick while the CLI waits
  layer(Sandbox.layer({ port: 0, slotMillis: 20, seed: "cli-e2e" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })(
    (it) => {
      it.effect("auth login stores the key (mode 0600) without printing it; auth me uses it", () =>
        Effect.gen(function*() {
          const { creator, creatorKey } = wallets()
          const configDir = temporaryDirectory("feeshare-cli-login-")
          const withStoredKey = (...args: ReadonlyArray<string>) => cliIn(configDir, false, args)
          const login = yield* withStoredKey("auth", "login", "--keypair", creator.path, "--key-name", "e2e")
          assert.strictEqual(login.code, 0, login.stderr)
          const file = join(configDir, "credentials.json")
          assert.strictEqual(statSync(file).mode & 0o777, 0o600)
          const stored = JSON.parse(readFileSync(file, "utf8")) as {
            keys: Record<string, { apiKey: string; wallet: string; keyName: string }>
          }
          const [entry] = Object.values(stored.keys)
          assert.strictEqual(entry?.wallet, creatorKey)
          assert.strictEqual(entry?.keyName, "e2e")
          assert.isFalse(login.stdout.includes(entry?.apiKey ?? "<none>"), "the key is never printed")

          const me = yield* withStoredKey("--json", "auth", "me")
          assert.strictEqual(me.code, 0, me.stderr)
          const user = (document(me) as { user: { uuid: string; username: string } }).user
          assert.isString(user.uuid)
        }))

      it.effect("launch co-signs the mint-signed transaction and lands it; quote --json is one document; swap lands", () =>
        Effect.gen(function*() {
          const info = yield* SandboxInfo
          const { claimerKey, creator, creatorKey } = wallets()
          const sandbox = yield* HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl })
          for (const address of [creatorKey, claimerKey]) {
            yield* sandbox.sandbox.airdrop({ payload: { address, lamports: 20n * SOL } })
          }
          const created = yield* sandbox.sandbox.createToken({ payload: { creator: creatorKey } })
          yield* sandbox.sandbox.createFeeShareConfig({
            payload: {
              mint: created.mint,
              admin: creatorKey,
              claimers: [{ wallet: creatorKey, bps: 5_000 }, { wallet: claimerKey, bps: 5_000 }]
            }
          })

          const launch = yield* cli(
            "launch",
            "--ipfs",
            "ipfs://e2e",
            "--mint",
            created.mint,
            "--config-key",
            created.configKey,
            "--keypair",
            creator.path
          )
          assert.strictEqual(launch.code, 0, launch.stderr)
          assert.match(launch.stdout, /launch\s+launch\s+landed\s+[1-9A-HJ-NP-Za-km-z]{80,90} slot \d+/)

          const quote = yield* cli(
            "trade",
            "quote",
            "--in",
            created.quoteMint,
            "--out",
            created.mint,
            "--amount",
            "1000000000",
            "--json"
          )
          assert.strictEqual(quote.code, 0, quote.stderr)
          assert.strictEqual(quote.stderr, "")
          const parsed = document(quote) as { inAmount: string; outAmount: string; inputMint: string }
          assert.strictEqual(parsed.inAmount, "1000000000")
          assert.strictEqual(parsed.inputMint, created.quoteMint)
          assert.isTrue(BigInt(parsed.outAmount) > 0n)

          const human = yield* cli(
            "trade",
            "quote",
            "--in",
            created.quoteMint,
            "--out",
            created.mint,
            "--amount",
            "1000000000"
          )
          assert.match(human.stdout, /in\s+1000000000 \(1\) of So1/)

          const swap = yield* cli(
            "trade",
            "swap",
            "--in",
            created.quoteMint,
            "--out",
            created.mint,
            "--amount",
            "2000000000",
            "--keypair",
            creator.path
          )
          assert.strictEqual(swap.code, 0, swap.stderr)
          assert.match(swap.stdout, /swap\s+swap\s+landed/)
        }).pipe(Effect.provide(FetchHttpClient.layer)))

      /**
       * `claims claim` against an RPC that takes every transaction and never confirms one (the
       * stages stay in flight), interrupted by a real SIGINT once the first status poll after a
       * send shows the stage was submitted.
       */
      const interruptedClaim = (...extra: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const info = yield* SandboxInfo
          const { claimer, token } = yield* ownToken(true)
          // the claim's process, once spawned (the RPC stub interrupts it)
          const claim: { child?: ReturnType<typeof spawn> } = {}
          let sent = false
          const rpc = yield* Effect.acquireRelease(
            Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
              const server = createHttpServer((request, response) => {
                let body = ""
                request.on("data", (chunk: Buffer) => (body += chunk.toString()))
                request.on("end", () => {
                  const call = JSON.parse(body) as { id: number; method: string }
                  if (call.method === "sendTransaction") sent = true
                  else if (call.method === "getSignatureStatuses" && sent && claim.child?.killed === false) {
                    claim.child.kill("SIGINT")
                  }
                  const result = call.method === "getBlockHeight"
                    ? 1
                    : call.method === "sendTransaction"
                    ? "1111111111111111111111111111111111111111111111111111111111111111"
                    : { context: { slot: 1 }, value: [null] }
                  response.writeHead(200, { "content-type": "application/json" })
                  response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result }))
                })
              })
              server.listen(0, "127.0.0.1", () =>
                resume(Effect.succeed({
                  url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
                  close: () => {
                    server.closeAllConnections()
                    server.close()
                  }
                })))
            }),
            (server) => Effect.sync(server.close)
          )
          const spawned = spawn(
            process.execPath,
            [bin, "claims", "claim", "--mint", token.mint, "--keypair", claimer.path, "--rpc-url", rpc.url, ...extra],
            {
              env: {
                ...process.env,
                NO_COLOR: "1",
                FEESHARE_BASE_URL: info.baseUrl,
                FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
                FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-cli-config-")
              },
              stdio: ["ignore", "pipe", "pipe"]
            }
          )
          claim.child = spawned
          let stdout = ""
          let stderr = ""
          spawned.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
          spawned.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
          const code = yield* Effect.async<number | null>((resume) => {
            spawned.on("close", (exitCode) => resume(Effect.succeed(exitCode)))
          })
          return { code, stdout, stderr }
        })

      it.scoped("Ctrl-C while a stage is in flight: exit 130 and one line naming what may still land", () =>
        Effect.gen(function*() {
          const { code, stderr } = yield* interruptedClaim()
          assert.strictEqual(code, 130, stderr)
          const said = lines(stderr).filter((line) => line.includes("interrupted"))
          assert.strictEqual(said.length, 1, stderr)
          // the transaction's own signature (what the chain knows it by), for the stage that was sent
          assert.match(
            said[0] ?? "",
            /submitted and may still land: lookup-table-create [1-9A-HJ-NP-Za-km-z]{80,90}\b/,
            stderr
          )
        }))

      it.scoped("Ctrl-C with --json: exit 130 and one JSON document on stdout naming what may still land", () =>
        Effect.gen(function*() {
          const { code, stderr, stdout } = yield* interruptedClaim("--json")
          assert.strictEqual(code, 130, stderr)
          const parsed = JSON.parse(stdout) as {
            interrupted: boolean
            inFlight: Array<{ stage: string; signature: string }>
          }
          assert.isTrue(parsed.interrupted)
          assert.strictEqual(parsed.inFlight.length, 1, stdout)
          assert.strictEqual(parsed.inFlight[0]?.stage, "lookup-table-create")
          assert.match(parsed.inFlight[0]?.signature ?? "", /^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
          assert.notInclude(stderr, "interrupted")
        }))

      it.effect("claims claim --dry-run verifies every stage and sends nothing", () =>
        Effect.gen(function*() {
          const { claimer, claimerKey, token } = yield* ownToken(true)
          const dry = yield* cli(
            "claims",
            "claim",
            "--mint",
            token.mint,
            "--keypair",
            claimer.path,
            "--dry-run",
            "--json"
          )
          assert.strictEqual(dry.code, 0, dry.stderr)
          const result = document(dry) as {
            dryRun: boolean
            verified: Array<string>
            expired: Array<string> | null
            plan: { readiness: { status: string }; stages: Array<{ id: string; kind: string }> }
          }
          assert.isTrue(result.dryRun)
          // the blockhash expiry was checked against the RPC: nothing has expired yet
          assert.deepStrictEqual(result.expired, [])
          // several endpoints: a dead one first, the read goes on to the next
          const info = yield* SandboxInfo
          const dead = yield* closedPort
          const twoRpcs = yield* cli(
            "claims",
            "claim",
            "--mint",
            token.mint,
            "--keypair",
            claimer.path,
            "--dry-run",
            "--json",
            "--rpc-url",
            `http://127.0.0.1:${dead},${info.rpcUrl}`
          )
          assert.strictEqual(twoRpcs.code, 0, twoRpcs.stderr)
          assert.include(twoRpcs.stderr, "feeshare: warning: RPC endpoint failed; trying the next (endpoint=127.0.0.1:")
          assert.deepStrictEqual((document(twoRpcs) as { expired: unknown }).expired, [])
          assert.strictEqual(result.plan.readiness.status, "setup_required")
          assert.deepStrictEqual(result.verified, result.plan.stages.map((s) => s.id))
          assert.isTrue(result.plan.stages.length > 0)
          // nothing was sent: the service still asks for the same setup
          const again = yield* cli("claims", "plan", "--mint", token.mint, "--wallet", claimerKey, "--json")
          const plan = document(again) as { readiness: { status: string }; stages: Array<{ kind: string }> }
          assert.strictEqual(plan.readiness.status, "setup_required")
          assert.deepStrictEqual(plan.stages.map((s) => s.kind), result.plan.stages.map((s) => s.kind))
        }))

      it.effect("claims claim runs the plan through setup to landed, with a progress line per stage", () =>
        Effect.gen(function*() {
          const { claimer, claimerKey, token } = yield* ownToken(true)
          const before = yield* cli("--json", "claims", "positions", "--wallet", claimerKey)
          const [position] = document(before) as Array<{ totalClaimableLamportsUserShare: number }>
          assert.isTrue((position?.totalClaimableLamportsUserShare ?? 0) > 0)

          const claim = yield* cli("claims", "claim", "--mint", token.mint, "--keypair", claimer.path)
          assert.strictEqual(claim.code, 0, claim.stderr)
          const progress = lines(claim.stdout).filter((line) =>
            /^ {2}\S+\s+\S+\s+(verified|signed|submitted|landed)\b/.test(line)
          )
          const landed = progress.filter((line) => /\slanded\s/.test(line))
          assert.isTrue(landed.some((line) => /lookup_table_setup/.test(line)), claim.stdout)
          assert.isTrue(landed.some((line) => /\bclaim\s+landed/.test(line)), claim.stdout)
          for (const line of landed) assert.match(line, /landed\s+[1-9A-HJ-NP-Za-km-z]{80,90} slot \d+$/)
          assert.match(claim.stdout, /plan rebuilt \(setup landed\)/)
          // what it paid: the change of the wallet's wrapped-SOL account, the position's share
          assert.include(claim.stdout, `paid ${position?.totalClaimableLamportsUserShare} (`)

          const stats = yield* cli("--json", "analytics", "claim-stats", "--mint", token.mint)
          const entry = (document(stats) as Array<{ wallet: string; totalClaimed: string }>).find((s) =>
            s.wallet === claimerKey
          )
          assert.strictEqual(entry?.totalClaimed, String(position?.totalClaimableLamportsUserShare))
        }))

      it.effect("fee-share admins and update, pools, evm: reads as JSON, the update verified, signed and landed", () =>
        Effect.gen(function*() {
          const { claimerKey, creator, creatorKey, token } = yield* ownToken(false)
          const [admins, pools, fee, badSum] = yield* Effect.all([
            cli("--json", "fee-share", "admins", "--keypair", creator.path),
            cli("--json", "pools"),
            cli("--json", "evm", "creation-fee"),
            cli(
              "fee-share",
              "update",
              "--mint",
              token.mint,
              "--claimer",
              `${creatorKey}:6000`,
              "--claimer",
              `${claimerKey}:3000`,
              "--keypair",
              creator.path
            )
          ], { concurrency: 2 })
          assert.deepStrictEqual((document(admins) as { tokenMints: Array<string> }).tokenMints, [token.mint])
          assert.isTrue((document(pools) as Array<{ tokenMint: string }>).some((p) => p.tokenMint === token.mint))
          assert.match((document(fee) as { creationFeeWei: string }).creationFeeWei, /^[0-9]+$/)
          assert.strictEqual(badSum.code, 2, badSum.stderr)
          assert.include(badSum.stderr, "basisPointsArray must sum to exactly 10000 (InvalidRequest)")

          const update = yield* cli(
            "fee-share",
            "update",
            "--mint",
            token.mint,
            "--claimer",
            `${creatorKey}:6000`,
            "--claimer",
            `${claimerKey}:4000`,
            "--keypair",
            creator.path
          )
          assert.strictEqual(update.code, 0, update.stderr)
          assert.match(update.stdout, /entry 0\s+fee_share_update\s+landed/)
        }))

      it.effect("exit codes per error class, one line on stderr, one JSON document with --json", () =>
        Effect.gen(function*() {
          const info = yield* SandboxInfo
          // a token the claimer is part of, owed nothing yet
          const { claimer, token } = yield* ownToken(false)
          const demoKey = Redacted.value(info.demoApiKey)
          const deadPort = yield* closedPort
          const cases = [
            { name: "bad key", code: 3, tag: "Unauthorized", args: ["--api-key", "fs_wrong", "pools"] },
            {
              name: "bad mint",
              code: 2,
              tag: "InvalidRequest",
              args: ["--api-key", demoKey, "analytics", "lifetime-fees", "--mint", "not-a-mint"]
            },
            {
              name: "dead base URL",
              code: 7,
              tag: "TransportError",
              args: ["--base-url", `http://127.0.0.1:${deadPort}/api/v1`, "--api-key", demoKey, "pools"]
            },
            {
              name: "nothing to claim",
              code: 4,
              tag: "BadRequest",
              args: ["claims", "claim", "--mint", token.mint, "--keypair", claimer.path]
            },
            {
              name: "missing key file",
              code: 10,
              tag: "InvalidKey",
              args: ["claims", "claim", "--mint", token.mint, "--keypair", join(dir, "none.json")]
            },
            { name: "no keypair", code: 2, tag: "MissingKeypair", args: ["partner", "claim"] }
          ] as const
          const outcomes = yield* Effect.forEach(cases, (c) => cli(...c.args), { concurrency: 3 })
          for (const [i, c] of cases.entries()) {
            const outcome = outcomes[i]!
            assert.strictEqual(outcome.code, c.code, `${c.name}: ${outcome.stderr}`)
            assert.strictEqual(outcome.stdout, "", c.name)
            assert.strictEqual(lines(outcome.stderr).length, 1, `${c.name}: ${outcome.stderr}`)
            assert.include(outcome.stderr, `(${c.tag})`, c.name)
            assert.notInclude(outcome.stderr, demoKey, c.name)
          }
          const asJson = yield* Effect.forEach(cases.slice(0, 3), (c) => cli("--json", ...c.args), { concurrency: 3 })
          for (const [i, outcome] of asJson.entries()) {
            const error = (document(outcome) as { error: { tag: string; code: number } }).error
            assert.deepStrictEqual([error.tag, error.code, outcome.code], [
              cases[i]!.tag,
              cases[i]!.code,
              cases[i]!.code
            ])
          }
          const usage = yield* cli("trade", "quote", "--bogus")
          assert.strictEqual(usage.code, 2)
          assert.strictEqual(usage.stdout, "")
        }))
    }
  )
})
