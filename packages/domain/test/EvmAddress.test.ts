import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Evm, EvmAddress, Validation } from "../src/index.js"
import { acceptedAddress, anyCasing, decodeFailure, lowerAddress } from "./arbitraries.js"

// The test vectors published with EIP-55 (all caps, all lower, normal mixed case).
const vectors = [
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
] as const

const decode = Schema.decodeUnknownEither(EvmAddress.EvmAddress)
const decodeOwner = Validation.decodeRequest(Evm.OwnerQuery, "evm.claimablePositions")

const flipCase = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())

describe("EvmAddress", () => {
  it("computes the EIP-55 checksum of every published vector", () => {
    for (const vector of vectors) {
      assert.strictEqual(EvmAddress.toChecksum(vector.toLowerCase()), vector)
      assert.strictEqual(EvmAddress.toChecksum(`0x${vector.slice(2).toUpperCase()}`), vector)
      assert.deepStrictEqual(decode(vector), Either.right(vector))
      assert.deepStrictEqual(decode(vector.toLowerCase()), Either.right(vector))
      assert.deepStrictEqual(decode(`0x${vector.slice(2).toUpperCase()}`), Either.right(vector))
    }
  })

  it("rejects every vector with the case of one letter flipped (a wrong checksum)", () => {
    for (const vector of vectors) {
      for (let i = 2; i < vector.length; i++) {
        if (!/[a-fA-F]/.test(vector[i]!)) continue
        const broken = vector.slice(0, i) + flipCase(vector[i]!) + vector.slice(i + 1)
        const body = broken.slice(2)
        // flipping can turn a vector into an all-lower/all-upper form, which is accepted
        if (body === body.toLowerCase() || body === body.toUpperCase()) continue
        assert.isFalse(EvmAddress.isEvmAddress(broken), broken)
        const error = decodeFailure(decodeOwner({ owner: broken }))
        assert.strictEqual(error?.field, "owner")
        assert.strictEqual(error?.rule, EvmAddress.rule)
      }
    }
  })

  it.prop("any accepted casing decodes to the EIP-55 form", [acceptedAddress], ([address]) => {
    const decoded = decode(address)
    assert.deepStrictEqual(decoded, Either.right(EvmAddress.toChecksum(address)))
  })

  it.prop("a random casing is accepted exactly when lower, upper or the checksum", [
    lowerAddress.chain((lower) => anyCasing(lower))
  ], ([address]) => {
    const body = address.slice(2)
    const expected = body === body.toLowerCase() || body === body.toUpperCase() ||
      address === EvmAddress.toChecksum(address)
    assert.strictEqual(Either.isRight(decode(address)), expected)
  })

  it.prop("the checksum form is a fixpoint: encode ∘ decode is the identity on it", [lowerAddress], ([lower]) => {
    const checksum = EvmAddress.toChecksum(lower)
    assert.strictEqual(EvmAddress.toChecksum(checksum), checksum)
    const decoded = Schema.decodeSync(EvmAddress.EvmAddress)(checksum)
    assert.strictEqual(Schema.encodeSync(EvmAddress.EvmAddress)(decoded), checksum)
  })

  it.prop("wrong length, a missing 0x or a non-hex digit is rejected with field and rule", [
    fc.oneof(
      fc.tuple(lowerAddress, fc.integer({ min: 1, max: 39 })).map(([a, n]) => a.slice(0, 2 + n)),
      fc.tuple(lowerAddress, fc.stringMatching(/^[0-9a-f]{1,4}$/)).map(([a, more]) => a + more),
      lowerAddress.map((a) => a.slice(2)),
      lowerAddress.map((a) => `0X${a.slice(2)}`),
      fc.tuple(lowerAddress, fc.integer({ min: 2, max: 41 }), fc.constantFrom("g", "G", "x", " ", "-", "é"))
        .map(([a, i, c]) => a.slice(0, i) + c + a.slice(i + 1))
    )
  ], ([text]) => {
    assert.isFalse(EvmAddress.isEvmAddress(text))
    const error = decodeFailure(decodeOwner({ owner: text }))
    assert.strictEqual(error?.field, "owner")
    assert.strictEqual(error?.rule, EvmAddress.rule)
  })
})
