import { assert, describe, it } from "@effect/vitest"
import { RawAmount } from "@feeshare/domain"
import { FastCheck, Redacted } from "effect"
import * as Output from "../src/Output.js"

describe("Output", () => {
  it("amounts: raw, then display units", () => {
    assert.strictEqual(Output.lamports(1_500_000_000n), "1500000000 (1.5 SOL)")
    assert.strictEqual(Output.amount(42n, null), "42")
    assert.strictEqual(Output.wei(10n ** 18n), "1000000000000000000 (1 ETH)")
  })

  it.prop(
    "the display amount is the raw amount scaled by the decimals",
    { raw: FastCheck.bigInt({ min: 0n, max: RawAmount.maxU64 }), decimals: FastCheck.integer({ min: 0, max: 18 }) },
    ({ decimals, raw }) => {
      const match = /^([0-9]+) \(([0-9.]+)\)$/.exec(Output.amount(raw, decimals))
      assert.isNotNull(match)
      assert.strictEqual(match?.[1], raw.toString())
      const [whole, fraction = ""] = (match?.[2] ?? "").split(".")
      assert.strictEqual(BigInt(`${whole}${fraction.padEnd(decimals, "0")}`), raw)
    }
  )

  it("tables align columns; numeric columns to the right", () => {
    assert.deepStrictEqual(Output.table(["name", "amount"], [["a", "5"], ["long name", "1000"]]), [
      "name       amount",
      "---------  ------",
      "a               5",
      "long name    1000"
    ])
    assert.deepStrictEqual(Output.table(["x"], []), ["(none)"])
  })

  it("JSON: one line, bigints as strings, secrets redacted", () => {
    const text = Output.json({ amount: 2n ** 70n, key: Redacted.make("fs_secret"), nested: [1n] })
    assert.notInclude(text, "\n")
    assert.notInclude(text, "fs_secret")
    assert.deepStrictEqual(JSON.parse(text), { amount: (2n ** 70n).toString(), key: "<redacted>", nested: ["1"] })
  })

  it("price impact: the service's fraction as a percentage", () => {
    assert.strictEqual(Output.percent("0.085"), "8.5%")
    assert.strictEqual(Output.percent("1"), "100%")
    assert.strictEqual(Output.percent("0"), "0%")
    assert.strictEqual(Output.percent("0.00001"), "0.001%")
    assert.strictEqual(Output.percent("-0.5"), "-50%")
    assert.strictEqual(Output.percent("n/a"), "n/a (as a fraction)")
  })

  it.prop("percent is exactly 100 times the fraction", [
    FastCheck.bigInt({ min: 0n, max: 10n ** 20n }),
    FastCheck.integer({ min: 0, max: 12 })
  ], ([n, k]) => {
    const digits = n.toString().padStart(k + 1, "0")
    const fraction = k === 0 ? digits : `${digits.slice(0, -k)}.${digits.slice(-k)}`
    const shown = Output.percent(fraction)
    assert.isTrue(shown.endsWith("%"))
    const [whole = "", decimals = ""] = shown.slice(0, -1).split(".")
    // shown = whole.decimals, and it must equal n * 100 / 10^k
    assert.strictEqual(BigInt(`${whole}${decimals}`) * 10n ** BigInt(k), n * 100n * 10n ** BigInt(decimals.length))
  })
})
