/**
 * `networkFee`: what the runtime charges for a transaction, the one rule the keeper's fee cap
 * and the MCP server's previews both use.
 */
import { assert, describe, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as WireTransaction from "../src/WireTransaction.js"

const decoded = (version: "legacy" | 0 | 1, signatures: number, priorityFee?: bigint, computeUnitLimit?: number) => ({
  version,
  budget: {
    ...(priorityFee === undefined ? {} : { priorityFee }),
    ...(computeUnitLimit === undefined ? {} : { computeUnitLimit })
  },
  size: { bytes: 0, accounts: 0, signatures }
})

describe("networkFee", () => {
  it.prop(
    "v1: 5000 per signature plus the priority fee in lamports",
    [FastCheck.integer({ min: 1, max: 12 }), FastCheck.bigInt({ min: 0n, max: 10n ** 12n })],
    ([signatures, fee]) => WireTransaction.networkFee(decoded(1, signatures, fee)) === 5_000n * BigInt(signatures) + fee
  )

  it.prop(
    "legacy and v0: the price in micro-lamports times the limit, rounded up",
    [
      FastCheck.constantFrom("legacy" as const, 0 as const),
      FastCheck.integer({ min: 1, max: 12 }),
      FastCheck.bigInt({ min: 0n, max: 10n ** 9n }),
      FastCheck.integer({ min: 1, max: 1_400_000 })
    ],
    ([version, signatures, price, limit]) => {
      const fee = WireTransaction.networkFee(decoded(version, signatures, price, limit)) - 5_000n * BigInt(signatures)
      const exact = BigInt(limit) * price
      return fee * 1_000_000n >= exact && (fee - 1n) * 1_000_000n < exact
    }
  )

  it("no limit set: 200,000 units; no price: the signatures alone", () => {
    assert.strictEqual(WireTransaction.networkFee(decoded(0, 2, 1_000_000n)), 10_000n + 200_000n)
    assert.strictEqual(WireTransaction.networkFee(decoded("legacy", 3)), 15_000n)
  })
})
