/**
 * `feeshare claims all` (spawned) on the seeded sandbox: a dry run verifies every item and
 * signs nothing, the run claims the demo wallet's positions and its deployer position (one row
 * per item, a total per asset), a second run says there is nothing to claim, and a bad `--min`
 * is a usage error before anything is sent.
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { join } from "node:path"
import { document, feeshare, temporaryDirectory } from "./support/spawn.js"

const dir = temporaryDirectory("feeshare-cli-claim-all-")

interface Row {
  readonly kind: string
  readonly subject: string
  readonly amount: string
  readonly stages: number
  readonly state: string
}

interface AllDocument {
  readonly nothingToClaim: boolean
  readonly complete: boolean
  readonly items: ReadonlyArray<Row>
  readonly totals: ReadonlyArray<{ readonly asset: string; readonly owed: string; readonly claimed: string }>
}

describe("feeshare claims all (spawned)", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 20, seed: "cli-claim-all" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.scoped("dry run, then every item claimed, then nothing to claim; --min is checked first", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const seeded = yield* Seed.makeWithKeygenFile(info.options.seed)
        const env = {
          FEESHARE_BASE_URL: info.baseUrl,
          FEESHARE_RPC_URL: info.rpcUrl,
          FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
          FEESHARE_CONFIG_DIR: join(dir, "config")
        }
        const cli = (...args: ReadonlyArray<string>) => feeshare(["--keypair", seeded.keygenPath, ...args], env)

        const dry = yield* cli("--json", "claims", "all", "--dry-run")
        assert.strictEqual(dry.code, 0, dry.stderr)
        const verified = document(dry) as AllDocument
        assert.deepStrictEqual([...new Set(verified.items.map((row) => row.kind))].sort(), ["deployer", "position"])
        assert.isTrue(verified.items.every((row) => row.state === "verified"))

        const run = yield* cli("claims", "all")
        assert.strictEqual(run.code, 0, run.stderr)
        assert.match(run.stdout, /kind\s+token or vault\s+amount\s+stages\s+state/)
        assert.match(run.stdout, /Total SOL: claimed/)
        for (const row of verified.items) assert.include(run.stdout, row.kind === "position" ? row.subject : "deployer")

        const again = yield* cli("--json", "claims", "all")
        assert.strictEqual(again.code, 0, again.stderr)
        const nothing = document(again) as AllDocument
        assert.isTrue(nothing.nothingToClaim)
        assert.deepStrictEqual(nothing.items, [])
        const human = yield* cli("claims", "all")
        assert.include(human.stdout, "Nothing to claim.")

        const bad = yield* cli("claims", "all", "--min", "lots")
        assert.strictEqual(bad.code, 2)
        assert.include(bad.stderr, "--min must be MINT=RAW_AMOUNT")
      }))
  })
})
