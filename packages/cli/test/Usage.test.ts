/**
 * Usage errors that @effect/cli reports itself still read like every other feeshare error:
 * the `feeshare:` prefix, and what was expected; explained against the command tree (the
 * option or argument at fault, a repeated option, "did you mean"), in text and in --json.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import * as Usage from "../src/Usage.js"
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
      assert.include(outcome.stderr, "feeshare: --slippage-bps: '1.5' is not an integer")
      assert.notInclude(outcome.stderr, "a integer")
    }))
})

describe("usage errors explained (spawned)", () => {
  const config = () => ({ FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-usage-") })
  const jsonError = (stdout: string): Record<string, unknown> =>
    JSON.parse(stdout.trim().split("\n").at(-1) ?? "").error

  it.effect("a mistyped command or subcommand: did you mean, and --json names the word and the suggestion", () =>
    Effect.gen(function*() {
      const top = yield* feeshare(["claimz", "positions"], config())
      assert.strictEqual(top.code, 2, top.stderr)
      assert.include(top.stderr, "feeshare: `feeshare claimz` is not a command; did you mean `feeshare claims`?")
      const sub = yield* feeshare(["--json", "claims", "positons"], config())
      assert.strictEqual(sub.code, 2, sub.stderr)
      assert.deepInclude(jsonError(sub.stdout), {
        tag: "ValidationError",
        code: 2,
        argument: "positons",
        suggestion: "positions",
        option: null
      })
      // nothing close: the commands are listed instead
      const far = yield* feeshare(["zzzzzzzz"], config())
      assert.include(far.stderr, "the commands of `feeshare` are")
    }))

  it.effect("a mistyped option: did you mean the closest option of that command", () =>
    Effect.gen(function*() {
      const outcome = yield* feeshare(["--json", "claims", "claim", "--mnt", "x"], config())
      assert.strictEqual(outcome.code, 2, outcome.stderr)
      assert.deepInclude(jsonError(outcome.stdout), { option: "--mnt", suggestion: "--mint" })
      assert.include(outcome.stderr, "did you mean --mint?")
    }))

  it.effect("a single-valued option given twice is named as such, in text and in --json", () =>
    Effect.gen(function*() {
      const mint = "So11111111111111111111111111111111111111112"
      const outcome = yield* feeshare(["claims", "claim", "--mint", mint, "--json", "--mint", mint], config())
      assert.strictEqual(outcome.code, 2, outcome.stderr)
      assert.include(outcome.stderr, "feeshare: --mint was given 2 times; it takes one value")
      assert.notInclude(outcome.stderr, "unknown argument")
      assert.deepInclude(jsonError(outcome.stdout), {
        tag: "ValidationError",
        message: "--mint was given 2 times; it takes one value",
        option: "--mint"
      })
    }))

  it.effect("--json: a missing option and a refused value name the option at fault", () =>
    Effect.gen(function*() {
      const missing = yield* feeshare(["--json", "claims", "claim"], config())
      assert.strictEqual(missing.code, 2, missing.stderr)
      assert.deepInclude(jsonError(missing.stdout), { option: "--mint" })
      assert.include(String(jsonError(missing.stdout)["message"]), "needs --mint")
      const mint = "So11111111111111111111111111111111111111112"
      const refused = yield* feeshare(
        ["--json", "trade", "quote", "--in", mint, "--out", mint, "--amount", "1", "--slippage-bps", "1.5"],
        config()
      )
      assert.strictEqual(refused.code, 2, refused.stderr)
      assert.deepInclude(jsonError(refused.stdout), { option: "--slippage-bps" })
      assert.include(String(jsonError(refused.stdout)["message"]), "'1.5' is not an integer")
    }))
})

describe("edit distance", () => {
  const word = FastCheck.string({ maxLength: 12 })

  it.prop(
    "is a distance: zero only between equal words, symmetric, within the longer length",
    [word, word],
    ([a, b]) =>
      (Usage.editDistance(a, b) === 0) === (a === b) &&
      Usage.editDistance(a, b) === Usage.editDistance(b, a) &&
      Usage.editDistance(a, b) <= Math.max(a.length, b.length)
  )

  it.prop("one edit (insert, delete, substitute, swap) is distance at most 1", [
    word,
    FastCheck.nat(),
    FastCheck.char()
  ], ([w, n, c]) => {
    const i = w.length === 0 ? 0 : n % w.length
    const edits = [w.slice(0, i) + c + w.slice(i), w.slice(0, i) + w.slice(i + 1), w.slice(0, i) + c + w.slice(i + 1)]
    if (i + 1 < w.length) edits.push(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2))
    return edits.every((edited) => Usage.editDistance(w, edited) <= 1)
  })

  it("closest: a near name, nothing for a far one or a one-letter word", () => {
    assert.strictEqual(Usage.closest("claimz", ["auth", "claims", "trade"]), "claims")
    assert.strictEqual(Usage.closest("--walet", ["--wallet", "--mint"]), "--wallet")
    assert.isUndefined(Usage.closest("zzzzzz", ["claims", "trade"]))
    assert.isUndefined(Usage.closest("x", ["a", "b"]))
  })
})
