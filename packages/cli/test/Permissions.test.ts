/**
 * A key file other users can read: the command warns once on stderr (naming the file and the
 * fix) and goes on; the key itself is never printed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { chmodSync, readFileSync } from "node:fs"
import { feeshare, keygenFile, temporaryDirectory } from "./support/spawn.js"

describe("key file permissions (spawned)", () => {
  it.effect("a group/world-readable key file: one warning line, then the command runs", () =>
    Effect.gen(function*() {
      const dir = temporaryDirectory("feeshare-permissions-")
      const key = keygenFile(dir, "wallet")
      chmodSync(key.path, 0o644)
      const outcome = yield* feeshare(
        [
          "claims",
          "claim",
          "--mint",
          "So11111111111111111111111111111111111111112",
          "--keypair",
          key.path,
          "--dry-run"
        ],
        {
          FEESHARE_BASE_URL: "http://127.0.0.1:9/api/v1",
          FEESHARE_API_KEY: "fs-permissions-key",
          FEESHARE_CONFIG_DIR: dir
        }
      )
      const lines = outcome.stderr.trim().split("\n")
      const warnings = lines.filter((line) => line.includes("can be read by other users"))
      assert.strictEqual(warnings.length, 1, outcome.stderr)
      assert.include(warnings[0], key.path)
      assert.include(warnings[0], "chmod 600")
      // it went on: the request was attempted (and failed: nothing listens there)
      assert.strictEqual(outcome.code, 7, outcome.stderr)
      const secret = JSON.parse(readFileSync(key.path, "utf8")).join(",")
      assert.notInclude(outcome.stderr, secret)
    }))
})
