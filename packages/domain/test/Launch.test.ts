import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { Launch, PublicKey } from "../src/index.js"
import { notPublicKey, publicKey } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"

type Request = typeof Launch.LaunchRequest.Type

const lamports = fc.maxSafeNat()

const request: fc.Arbitrary<Request> = fc.record({
  ipfs: fc.webUrl(),
  tokenMint: publicKey,
  wallet: publicKey,
  configKey: publicKey,
  initialBuyLamports: lamports,
  tip: fc.option(fc.tuple(publicKey, lamports), { nil: undefined })
}).map(({ configKey, initialBuyLamports, ipfs, tip, tokenMint, wallet }) => ({
  ipfs,
  tokenMint,
  wallet,
  configKey,
  initialBuyLamports,
  ...(tip === undefined ? {} : { tipWallet: tip[0], tipLamports: tip[1] })
}))

const invalid = (input: Request, field: string, rule: string) =>
  assertInvalid(Launch.LaunchRequest, { encoded: input, type: input }, field, rule)

describe("Launch.LaunchRequest", () => {
  it.prop("a launch with or without a tip is accepted, an initial buy of 0 included", [request], ([input]) => {
    assert.deepStrictEqual(assertValid(Launch.LaunchRequest, input), input)
    assert.deepStrictEqual(assertValid(Launch.LaunchRequest, { ...input, initialBuyLamports: 0 }), {
      ...input,
      initialBuyLamports: 0
    })
  })

  it.prop("initialBuyLamports is required (the service refuses a launch without it)", [request], ([input]) => {
    const { initialBuyLamports: _, ...without } = input
    assertInvalid(Launch.LaunchRequest, { encoded: without }, "initialBuyLamports", "is missing")
  })

  it.prop("the tip fields go together", [request, publicKey, lamports], ([input, tipWallet, tipLamports]) => {
    const { tipLamports: _, tipWallet: __, ...base } = input
    invalid({ ...base, tipWallet }, "tipLamports", Launch.rules.tip)
    invalid({ ...base, tipLamports }, "tipWallet", Launch.rules.tip)
  })

  it.prop("keys must be public keys", [
    request,
    notPublicKey,
    fc.constantFrom("tokenMint", "wallet", "configKey", "tipWallet")
  ], ([input, bad, field]) => {
    const broken = field === "tipWallet" ? { ...input, tipWallet: bad, tipLamports: 1 } : { ...input, [field]: bad }
    invalid(broken, field, PublicKey.rule)
  })

  it.prop("lamports must be non-negative whole safe numbers", [
    request,
    fc.oneof(fc.integer({ max: -1 }), fc.constantFrom(0.5, Number.NaN, Infinity, 2 ** 53)),
    fc.constantFrom("initialBuyLamports", "tipLamports")
  ], ([input, bad, field]) => {
    const broken = field === "tipLamports"
      ? { ...input, tipWallet: input.wallet, tipLamports: bad }
      : { ...input, initialBuyLamports: bad }
    invalid(broken, field, "must be a non-negative whole number of lamports")
  })

  it.prop("ipfs must not be blank", [request, fc.constantFrom("", "  ")], ([input, ipfs]) => {
    invalid({ ...input, ipfs }, "ipfs", "must be a non-empty string")
  })
})
