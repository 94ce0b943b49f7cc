/**
 * Usage errors that @effect/cli reports itself still read like every other feeshare error:
 * the `feeshare:` prefix, and what was expected.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { feeshare, temporaryDirectory } from "./support/spawn.js"

describe("usage errors (spawned)", () => {
  it.effect("a number option given 1.5: exit 2, with the feeshare: prefix and what is expected", () =>
    Effect.gen(function*() {
      const mint = "So11111111111111111111111111111111111111112"
      const outcome = yield* feeshare([
        "trade",
        "quote",
        "--in",
        mint,
        "--out",
        mint,
        "--amount",
        "1",
        "--slippage-bps",
        "1.5"
      ], {
        FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-usage-")
      })
      assert.strictEqual(outcome.code, 2, outcome.stderr)
      assert.include(outcome.stderr, "feeshare: '1.5' is not an integer")
      assert.notInclude(outcome.stderr, "a integer")
    }))
})
