/**
 * `feeshare sandbox` as a user runs it: a spawned process that starts seeded, prints where it
 * answers and the demo wallet's keygen file, and against which `claims claim` works at once.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { join } from "node:path"
import { bin, document, feeshare, temporaryDirectory } from "./support/spawn.js"

interface Started {
  readonly baseUrl: string
  readonly demoApiKey: string
  readonly seeded: {
    readonly demoWallet: string
    readonly demoKeypair: string
    readonly tokens: ReadonlyArray<
      { readonly symbol: string; readonly mint: string; readonly launched: boolean; readonly migrated: boolean }
    >
  } | null
}

/** Spawns `feeshare sandbox --json ...knobs`; its start document, and a handle that stops it. */
const startSandbox = (...knobs: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.async<{ readonly started: Started; readonly stop: () => Promise<void> }>((resume) => {
      const child = spawn(process.execPath, [bin, "--json", "sandbox", "--port", "0", ...knobs], {
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<void>((done) => child.once("exit", () => done()))
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString()
        const line = stdout.split("\n").find((l) => l.startsWith("{"))
        if (line !== undefined && stdout.includes("\n")) {
          resume(Effect.succeed({
            started: JSON.parse(line) as Started,
            stop: () => {
              child.kill("SIGINT")
              return exited
            }
          }))
        }
      })
      child.once("exit", (code) => resume(Effect.dieMessage(`feeshare sandbox exited ${code}: ${stderr}`)))
    }),
    ({ stop }) => Effect.promise(stop)
  )

describe("feeshare sandbox (spawned)", () => {
  it.scoped("starts seeded: the printed demo keypair claims its fees with claims claim, at once", () =>
    Effect.gen(function*() {
      const { started, stop } = yield* startSandbox()
      const seeded = started.seeded
      assert.isNotNull(seeded)
      if (seeded === null) return
      assert.deepStrictEqual(seeded.tokens.map((t) => [t.symbol, t.launched, t.migrated]), [
        ["DEMO", true, true],
        ["ALPHA", true, false],
        ["BETA", false, false]
      ])
      assert.strictEqual(statSync(seeded.demoKeypair).mode & 0o777, 0o600)
      const env = {
        FEESHARE_BASE_URL: started.baseUrl,
        FEESHARE_API_KEY: started.demoApiKey,
        FEESHARE_CONFIG_DIR: join(temporaryDirectory("feeshare-cli-sandbox-"), "config")
      }
      const positions = yield* feeshare(["--keypair", seeded.demoKeypair, "claims", "positions", "--json"], env)
      assert.strictEqual(positions.code, 0, positions.stderr)
      const listed = document(positions) as ReadonlyArray<{ baseMint: string }>
      assert.deepStrictEqual(
        listed.map((p) => p.baseMint).sort(),
        seeded.tokens.filter((t) => t.launched).map((t) => t.mint).sort()
      )
      const alpha = seeded.tokens.find((t) => t.symbol === "ALPHA")!
      const claim = yield* feeshare(["--keypair", seeded.demoKeypair, "claims", "claim", "--mint", alpha.mint], env)
      assert.strictEqual(claim.code, 0, claim.stderr)
      assert.match(claim.stdout, /plan complete/)
      // the keygen file goes with the sandbox
      yield* Effect.promise(stop)
      assert.isFalse(existsSync(seeded.demoKeypair))
    }))

  it.scoped("--empty starts blank", () =>
    Effect.gen(function*() {
      const { started } = yield* startSandbox("--empty")
      assert.isNull(started.seeded)
      const pools = yield* feeshare(["pools", "--json"], {
        FEESHARE_BASE_URL: started.baseUrl,
        FEESHARE_API_KEY: started.demoApiKey
      })
      assert.deepStrictEqual(document(pools), [])
    }))
})
