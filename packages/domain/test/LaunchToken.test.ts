import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { LaunchToken } from "../src/index.js"
import { bpsSumming, distinctPublicKeys, publicKey } from "./arbitraries.js"

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

const base = (shares: ReadonlyArray<LaunchToken.Share>): LaunchToken.LaunchTokenRequest => ({
  name: "Token",
  symbol: "TKN",
  description: "a token",
  image: { bytes: png },
  shares,
  initialBuyLamports: 0
})

const username = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/)

const fieldOf = (request: LaunchToken.LaunchTokenRequest) =>
  Either.match(LaunchToken.check(request), { onLeft: (e) => [e.field, e.rule] as const, onRight: () => undefined })

describe("LaunchToken.parseShare", () => {
  it.prop("WALLET:BPS and PROVIDER:USERNAME:BPS round-trip", [
    publicKey,
    username,
    fc.constantFrom("social", "email") as fc.Arbitrary<"social" | "email">,
    fc.integer({ min: 0, max: 10_000 })
  ], ([wallet, name, provider, bps]) => {
    assert.deepStrictEqual(LaunchToken.parseShare(`${wallet}:${bps}`), Either.right({ wallet, bps }))
    assert.deepStrictEqual(
      LaunchToken.parseShare(`${provider}:${name}:${bps}`),
      Either.right({ provider, username: name, bps })
    )
  })

  it.prop("a missing provider, an unknown provider, or bps out of range is refused with the rule", [
    username,
    fc.integer({ min: 10_001, max: 99_999 })
  ], ([name, tooMany]) => {
    for (const text of [`${name}:3000`, `twitter:${name}:3000`, `social:${name}:${tooMany}`, `social:${name}:`, ""]) {
      const parsed = LaunchToken.parseShare(text)
      assert.isTrue(Either.isLeft(parsed), text)
      assert.include(Either.getLeft(parsed).pipe((o) => o._tag === "Some" ? o.value : ""), "WALLET:BPS", text)
    }
  })

  it("a username may hold a colon (the provider comes first, the bps last)", () => {
    assert.deepStrictEqual(
      LaunchToken.parseShare("email:a:b@example.com:10000"),
      Either.right({ provider: "email", username: "a:b@example.com", bps: 10_000 })
    )
  })
})

describe("LaunchToken.parseLamports", () => {
  it.prop("lamports as they are, SOL times 10^9", [
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.integer({ min: 0, max: 999_999_999 })
  ], ([whole, fraction]) => {
    assert.deepStrictEqual(LaunchToken.parseLamports(String(whole)), Either.right(whole))
    const decimals = String(fraction).padStart(9, "0")
    const expected = whole * 1_000_000_000 + fraction
    assert.deepStrictEqual(LaunchToken.parseLamports(`${whole}.${decimals}SOL`), Either.right(expected))
    assert.deepStrictEqual(LaunchToken.parseLamports(`${whole}.${decimals} sol`), Either.right(expected))
  })

  it("refuses a fraction without the unit, more than 9 decimals, negatives and other units", () => {
    for (const text of ["0.5", "0.0000000001SOL", "-1", "1 lamport", "1e9", "", "99999999999999999"]) {
      assert.isTrue(Either.isLeft(LaunchToken.parseLamports(text)), text)
    }
  })
})

describe("LaunchToken.check and resolve", () => {
  it.prop("a split of 1..100 distinct wallets summing to 10000 passes and resolves to itself", [
    distinctPublicKeys(1, 100).chain((wallets) => bpsSumming(wallets.length).map((bps) => ({ wallets, bps })))
  ], ([{ bps, wallets }]) => {
    const shares = wallets.map((wallet, i) => ({ wallet, bps: bps[i]! }))
    assert.isUndefined(fieldOf(base(shares)))
    const resolved = LaunchToken.resolve(shares, shares.map(() => null))
    assert.deepStrictEqual(
      Either.map(resolved, (r) => r.map((s) => [s.wallet, s.bps])),
      Either.right(shares.map((s) => [s.wallet, s.bps]))
    )
  })

  it.prop("bps not summing to 10000 are refused at shares", [
    distinctPublicKeys(1, 10),
    fc.integer({ min: 1, max: 500 })
  ], ([wallets, off]) => {
    const shares = wallets.map((wallet, i) => ({ wallet, bps: i === 0 ? 10_000 - off : 0 }))
    assert.deepStrictEqual(fieldOf(base(shares)), ["shares", LaunchToken.rules.sum])
  })

  it.prop("101 shares are refused at shares", [distinctPublicKeys(101, 110)], ([wallets]) => {
    const shares = wallets.map((wallet, i) => ({ wallet, bps: i === 0 ? 10_000 : 0 }))
    assert.deepStrictEqual(fieldOf(base(shares)), ["shares", "must have 1 to 100 entries"])
  })

  it.prop("a handle named twice (any case, with or without @) is refused at the second", [
    username,
    publicKey
  ], ([name, wallet]) => {
    const shares: ReadonlyArray<LaunchToken.Share> = [
      { provider: "social", username: name, bps: 3_000 },
      { wallet, bps: 4_000 },
      { provider: "social", username: `@${name.toUpperCase()}`, bps: 3_000 }
    ]
    assert.deepStrictEqual(fieldOf(base(shares)), ["shares[2]", LaunchToken.rules.duplicateHandle(0)])
  })

  it.prop("resolve: a handle without a wallet, and two shares paying one wallet, name the share", [
    username,
    publicKey
  ], ([name, wallet]) => {
    const shares: ReadonlyArray<LaunchToken.Share> = [
      { wallet, bps: 5_000 },
      { provider: "social", username: name, bps: 5_000 }
    ]
    const missing = LaunchToken.resolve(shares, [null, null])
    assert.isTrue(Either.isLeft(missing))
    if (Either.isLeft(missing)) {
      assert.strictEqual(missing.left.field, "shares[1]")
      assert.include(missing.left.rule, `social:${name}`)
    }
    const duplicate = LaunchToken.resolve(shares, [null, wallet])
    assert.isTrue(Either.isLeft(duplicate))
    if (Either.isLeft(duplicate)) {
      assert.strictEqual(duplicate.left.field, "shares[1]")
      assert.strictEqual(duplicate.left.rule, LaunchToken.rules.duplicateWallet(0, wallet))
    }
  })

  it("the symbol, the image's size and the tip's pair name their fields", () => {
    const shares = [{ wallet: "11111111111111111111111111111112", bps: 10_000 }]
    assert.strictEqual(fieldOf({ ...base(shares), symbol: "$ELEVENCHARS" })?.[0], "symbol")
    assert.strictEqual(
      fieldOf({ ...base(shares), image: { bytes: new Uint8Array(15_000_001).fill(0x89) } })?.[0],
      "image.bytes"
    )
    assert.strictEqual(fieldOf({ ...base(shares), tipLamports: 5 })?.[0], "tipWallet")
  })
})
