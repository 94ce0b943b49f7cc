// The explorer's one number-formatting helper: separators, fixed decimals, prices in a unit
// with digits, durations in their two largest units, times with date and zone.
import { assert, describe, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Format from "../src/ExplorerFormat.js"

describe("explorer formatting", () => {
  it("the numbers the issue saw raw, as the page now writes them", () => {
    assert.strictEqual(Format.count("447553122"), "447,553,122")
    assert.strictEqual(Format.count(999), "999")
    assert.strictEqual(Format.price(4.7931e-8, "DEMO"), "47.93 lamports per DEMO")
    assert.strictEqual(Format.price(0.25, "DEMO"), "0.2500 SOL per DEMO")
    assert.strictEqual(Format.price(Number.NaN, "DEMO"), "-")
    assert.strictEqual(Format.token("791139240506331", 6, "DEMO"), "791,139,240.51 DEMO")
    assert.strictEqual(Format.sol("5000"), "0.0000 SOL")
    assert.strictEqual(Format.sol("1234567890123"), "1,234.5679 SOL")
    assert.strictEqual(Format.rate(5000, 3_600_000), "5,000 per 1 h")
    assert.strictEqual(Format.duration(5_400_000), "1 h 30 min")
    assert.strictEqual(Format.duration(250), "250 ms")
    assert.strictEqual(Format.duration(0), "0 ms")
    assert.strictEqual(Format.errorRates({}), "none")
    assert.strictEqual(Format.errorRates({ 500: 0.1 }), "500: 10.00 %")
    assert.strictEqual(Format.dateTime(Date.UTC(2026, 10, 27, 9, 21, 56, 123)), "2026-11-27 09:21:56.123 UTC")
    assert.strictEqual(Format.timeOfDay(Date.UTC(2026, 10, 27, 9, 21, 56, 123)), "09:21:56.123 UTC")
  })

  it.prop(
    "count: the digits are the number's, grouped by three",
    [FastCheck.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })],
    ([n]) => {
      const written = Format.count(n)
      return written.replaceAll(",", "") === n.toString() &&
        written.replace(/^-/, "").split(",").every((group, i) => i === 0 ? group.length <= 3 : group.length === 3)
    }
  )

  it.prop(
    "amount: exactly `shown` decimals, within half a unit of the last shown digit",
    [
      FastCheck.bigInt({ min: 0n, max: 10n ** 24n }),
      FastCheck.integer({ min: 0, max: 12 }),
      FastCheck.integer({ min: 0, max: 6 })
    ],
    ([raw, decimals, shown]) => {
      const written = Format.amount(raw, decimals, shown).replaceAll(",", "")
      const [whole = "", fraction = ""] = written.split(".")
      if (fraction.length !== shown) return false
      // |written - raw / 10^decimals| <= 1/2 * 10^-shown, compared in integers
      const writtenScaled = BigInt(whole + fraction) * 10n ** BigInt(decimals)
      const exact = raw * 10n ** BigInt(shown)
      const difference = writtenScaled > exact ? writtenScaled - exact : exact - writtenScaled
      return difference * 2n <= 10n ** BigInt(decimals)
    }
  )

  it.prop(
    "duration: at most two units, largest first, never more than the duration",
    [FastCheck.integer({ min: 0, max: 10 * 86_400_000 })],
    ([millis]) => {
      const parts = Format.duration(millis).split(" ")
      const sizes: Record<string, number> = { d: 86_400_000, h: 3_600_000, min: 60_000, s: 1000, ms: 1 }
      let total = 0
      for (let i = 0; i < parts.length; i += 2) total += Number(parts[i]) * (sizes[parts[i + 1] ?? ""] ?? Number.NaN)
      return parts.length <= 4 && total <= millis && (millis === 0 || total > 0)
    }
  )
})
