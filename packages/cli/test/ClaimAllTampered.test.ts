/**
 * `feeshare claims all` (spawned) against a sandbox serving its next sponsored claim hostile
 * (`--tamper sponsor-extra-transfer=1`): the deployer item is refused with `WalletOutflow` and
 * nothing of it is signed, the positions are still claimed, the command exits 8
 * (refused-to-sign); the next run claims the deployer position untampered.
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { join } from "node:path"
import { document, feeshare, temporaryDirectory } from "./support/spawn.js"

const dir = temporaryDirectory("feeshare-cli-claim-all-tampered-")

interface AllDocument {
  readonly items: ReadonlyArray<{ readonly kind: string; readonly state: string; readonly error: string | null }>
}

describe("feeshare claims all against a hostile sandbox (spawned)", () => {
  layer(
    Sandbox.layer({
      port: 0,
      slotMillis: 20,
      seed: "cli-claim-all-tampered",
      tamper: [{ kind: "sponsor-extra-transfer", plans: 1 }]
    }),
    { excludeTestServices: true, timeout: "120 seconds" }
  )((it) => {
    it.scoped("the tampered deployer claim is refused (exit 8), the rest claimed; the next run claims it", () =>
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

        const first = yield* cli("--json", "claims", "all")
        assert.strictEqual(first.code, 8, first.stderr)
        const error = (document(first) as { error: { tag: string; code: number; message: string } }).error
        assert.strictEqual(error.tag, "ClaimsRefused")
        assert.strictEqual(error.code, 8)
        assert.match(error.message, /deployer .*WalletOutflow/)
        // the positions were claimed all the same: only the deployer item is left
        const second = yield* cli("--json", "claims", "all")
        assert.strictEqual(second.code, 0, second.stderr)
        const rest = document(second) as AllDocument
        assert.deepStrictEqual(rest.items.map((item) => [item.kind, item.state]), [["deployer", "claimed"]])
      }))
  })
})
