/**
 * The parts of the server that need no service: the policy file, the preview store (ids work
 * once and expire, on the `TestClock`), the daily caps, and the bound a rebuilt claim plan
 * must stay within.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import * as Handlers from "../src/Handlers.js"
import * as Previews from "../src/Previews.js"
import * as WritePolicy from "../src/WritePolicy.js"

const wallet = "6wS5Mzon3QViGSVnZrdoq5q5CKHpnB6Mmy3yzYB6o1WE"
const other = "2fsD7zg9FVXPEL3hSmz8p6ogLVxfs9fk7TrXYFiHSjhb"
const mint = "GpwjDJzb3wLzypREVKarAx4ykERZ2jcxyGgUMfVjrzkP"

const stage = (overrides: Partial<Handlers.StagePreview> = {}): Handlers.StagePreview => ({
  id: "claim",
  kind: "claim",
  requiredSigners: [wallet],
  presigned: [],
  accounts: [wallet, mint],
  networkFeeLamports: "10000",
  messageSha256: "0".repeat(64),
  ...overrides
})

const plan = {
  operation: { kind: "position_claim" as const, baseMint: mint, wallet },
  asset: { mint: WritePolicy.nativeMint, tokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", decimals: 9 }
}

describe("Policy", () => {
  it.effect("decodes the defaults and refuses unknown fields and bad caps, naming them", () =>
    Effect.gen(function*() {
      const defaults = yield* WritePolicy.decode({})
      assert.deepStrictEqual(
        [defaults.readOnly, defaults.wallets, defaults.previewTtlSeconds, defaults.transactionFormat],
        [false, [], 120, "v0"]
      )
      const misspelt = yield* Effect.either(WritePolicy.decode({ maxSwapLamport: 5 }))
      assert.isTrue(Either.isLeft(misspelt) && misspelt.left.message.includes("maxSwapLamport"))
      const negative = yield* Effect.either(WritePolicy.decode({ maxSwapLamports: -1 }))
      assert.isTrue(
        Either.isLeft(negative) &&
          negative.left.message.includes("maxSwapLamports must be a non-negative whole number of lamports")
      )
      const badMint = yield* Effect.either(WritePolicy.decode({ allowedMints: ["nope"] }))
      assert.isTrue(Either.isLeft(badMint) && badMint.left.message.includes("allowedMints.0"))
    }))

  it.effect("allows SOL and the listed mints only; refuses every write when read-only", () =>
    Effect.gen(function*() {
      const policy = yield* WritePolicy.decode({ allowedMints: [mint] })
      yield* WritePolicy.checkMint(policy, mint)
      yield* WritePolicy.checkMint(policy, WritePolicy.nativeMint)
      const refused = yield* Effect.flip(WritePolicy.checkMint(policy, other))
      assert.strictEqual(refused.rule, "allowedMints")
      const readOnly = yield* Effect.flip(WritePolicy.checkWritable(yield* WritePolicy.decode({ readOnly: true })))
      assert.strictEqual(readOnly.rule, "readOnly")
    }))

  it.effect("counts spending over a sliding 24 hours", () =>
    Effect.gen(function*() {
      const spending = yield* WritePolicy.makeSpending(
        yield* WritePolicy.decode({ maxSwapLamportsPerDay: 100, maxNetworkFeesPerDayLamports: 10 })
      )
      yield* spending.spend("swap", 60n)
      const over = yield* Effect.flip(spending.spend("swap", 41n))
      assert.strictEqual(over.rule, "maxSwapLamportsPerDay")
      yield* spending.spend("swap", 40n)
      const fees = yield* Effect.flip(spending.spend("fees", 11n))
      assert.strictEqual(fees.rule, "maxNetworkFeesPerDayLamports")
      yield* TestClock.adjust("24 hours")
      assert.deepStrictEqual(yield* spending.remaining, { swapLamports: 100n, networkFeesLamports: 10n })
    }))
})

describe("Previews", () => {
  it.effect("an id works once, and not after it expired", () =>
    Effect.gen(function*() {
      const store = yield* Previews.make<string>(120_000)
      const first = yield* store.put("claim")
      assert.match(first.id, /^pv_[0-9a-f]{32}$/)
      assert.strictEqual(yield* store.take(first.id), "claim")
      const reused = yield* Effect.flip(store.take(first.id))
      assert.strictEqual(reused.reason, "unknown")
      const second = yield* store.put("swap")
      yield* TestClock.adjust("120 seconds")
      const expired = yield* Effect.flip(store.take(second.id))
      assert.strictEqual(expired.reason, "expired")
      // and an expired id is gone for good
      assert.strictEqual((yield* Effect.flip(store.take(second.id))).reason, "unknown")
    }))

  it.effect("keeps at most `capacity` previews, forgetting the oldest", () =>
    Effect.gen(function*() {
      const store = yield* Previews.make<number>(120_000)
      const ids = yield* Effect.forEach(Array.from({ length: Previews.capacity + 1 }, (_, i) => i), (i) => store.put(i))
      assert.strictEqual((yield* Effect.flip(store.take(ids[0]!.id))).reason, "unknown")
      assert.strictEqual(yield* store.take(ids[Previews.capacity]!.id), Previews.capacity)
    }))
})

describe("A rebuilt claim plan against its preview", () => {
  const setup = stage({
    id: "lookup-table-create",
    kind: "lookup_table_setup",
    accounts: [wallet, "AddressLookupTab1e1111111111111111111111111"]
  })
  const bound = Handlers.boundOf(wallet, plan, [setup])

  it("matches with the same operation, asset and signers (a pre-signed signer is not asked to sign)", () => {
    assert.isUndefined(
      Handlers.matchesBound(bound, plan, [stage(), stage({ requiredSigners: [wallet, other], presigned: [other] })])
    )
    assert.isUndefined(Handlers.matchesBound(bound, plan, [setup]))
  })

  it("does not match a changed operation, asset, new signer, new account of a shown kind, or a costlier stage", () => {
    const otherMint = { ...plan, operation: { ...plan.operation, baseMint: other } }
    assert.include(Handlers.matchesBound(bound, otherMint, [stage()]), "operation")
    assert.include(Handlers.matchesBound(bound, { ...plan, asset: { ...plan.asset, mint } }, [stage()]), "asset")
    assert.include(Handlers.matchesBound(bound, plan, [stage({ requiredSigners: [wallet, other] })]), `signer ${other}`)
    assert.include(
      Handlers.matchesBound(bound, plan, [{ ...setup, accounts: [...setup.accounts, other] }]),
      `account ${other}`
    )
    const costly = String(10_000n * Handlers.rebuiltFeeFactor + 1n)
    assert.include(Handlers.matchesBound(bound, plan, [stage({ networkFeeLamports: costly })]), "network fee")
  })
})
