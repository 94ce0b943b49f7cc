import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Envelope, Evm, EvmAddress } from "../src/index.js"
import { acceptedAddress, lowerAddress } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"
import { endpoint } from "./endpoints.js"

/** Reference: checksum every address, keep the first occurrence of each. */
const reference = (addresses: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (const address of addresses) {
    const checksum = EvmAddress.toChecksum(address)
    if (!out.includes(checksum)) out.push(checksum)
  }
  return out
}

/** 1..100 addresses of any accepted casing, with repeats (in other casings) mixed in. */
const addresses = fc.array(lowerAddress, { minLength: 1, maxLength: 30 }).chain((pool) =>
  fc.array(
    fc.tuple(fc.constantFrom(...pool), fc.constantFrom("lower", "upper", "checksum")).map(([lower, casing]) =>
      casing === "lower"
        ? lower
        : casing === "upper"
        ? `0x${lower.slice(2).toUpperCase()}`
        : EvmAddress.toChecksum(lower)
    ),
    { minLength: 1, maxLength: 100 }
  )
)

describe("Evm.IndexStatusRequest", () => {
  it.prop(
    "1..100 addresses are normalised to EIP-55 with duplicates removed, first occurrence kept",
    [addresses],
    ([tokenAddresses]) => {
      const decoded = assertValid(Evm.IndexStatusRequest, { tokenAddresses })
      assert.deepStrictEqual(decoded.tokenAddresses, reference(tokenAddresses))
      assert.deepStrictEqual(Schema.encodeSync(Evm.IndexStatusRequest)({ tokenAddresses }), {
        tokenAddresses: reference(tokenAddresses)
      })
    }
  )

  it.prop(
    "no address, or more than 100, is rejected",
    [fc.array(acceptedAddress, { minLength: 101, maxLength: 130 })],
    ([many]) => {
      assertInvalid(
        Evm.IndexStatusRequest,
        { encoded: { tokenAddresses: [] }, type: { tokenAddresses: [] } },
        "tokenAddresses",
        "must have 1 to 100 entries"
      )
      assertInvalid(
        Evm.IndexStatusRequest,
        { encoded: { tokenAddresses: many }, type: { tokenAddresses: many } },
        "tokenAddresses",
        "must have 1 to 100 entries"
      )
    },
    { fastCheck: { numRuns: 20 } }
  )

  it.prop("a malformed address or a wrong mixed-case checksum is rejected at its index", [
    addresses.chain((list) => fc.tuple(fc.constant(list), fc.nat(list.length - 1))),
    fc.oneof(
      lowerAddress.map((a) => a.slice(0, 41)),
      lowerAddress.map((a) => `${a}0`),
      lowerAddress.map((a) => `${a.slice(0, 10)}z${a.slice(11)}`),
      // the checksum form with the case of its first letter flipped
      lowerAddress.map(EvmAddress.toChecksum).filter((a) => /[a-fA-F]/.test(a.slice(2))).map((a) => {
        const i = a.slice(2).search(/[a-fA-F]/) + 2
        const c = a[i]!
        return a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1)
      }).filter((a) => a.slice(2) !== a.slice(2).toLowerCase() && a.slice(2) !== a.slice(2).toUpperCase())
    )
  ], ([[list, i], bad]) => {
    const broken = list.map((a, j) => (j === i ? bad : a))
    assertInvalid(
      Evm.IndexStatusRequest,
      { encoded: { tokenAddresses: broken } },
      `tokenAddresses[${i}]`,
      EvmAddress.rule
    )
  })

  it.prop("the owner query is normalised to EIP-55", [acceptedAddress], ([owner]) => {
    assert.deepStrictEqual(assertValid(Evm.OwnerQuery, { owner }), { owner: EvmAddress.toChecksum(owner) })
  })
})

describe("Evm resources", () => {
  const position = (wei: string) => ({
    token: {
      address: "0x1",
      name: "n",
      symbol: "S",
      metadataURI: "ipfs://x",
      metadata: null,
      curve: "c",
      feeShare: "f",
      poolId: "p",
      creator: "c",
      partner: null,
      partnerFeeBps: 0,
      createdAtBlock: 1,
      createdAtTimestamp: 2,
      txHash: "0x",
      migrated: false,
      migratedAtBlock: null,
      migratedAtTimestamp: null,
      quote: { address: "0x2", symbol: "W", decimals: 18, isNative: true },
      fees: { buyFeeBps: 1, sellFeeBps: 1, protocolBuyFeeBps: 1, protocolSellFeeBps: 1 }
    },
    feeShare: "0x3",
    version: "v3",
    claimableWei: wei,
    pendingWei: "0",
    actionableWei: wei,
    claimedWei: "0",
    lifetimeWei: wei,
    isClaimer: true,
    isPartner: false,
    userBps: 10_000,
    quote: { address: "0x2", symbol: "W", decimals: 18, isNative: true }
  })
  const schema = endpoint("evm", "claimablePositions").successSchema
  const context = { status: 200, operation: "evm.claimablePositions" }

  it.prop(
    "wei amounts beyond u64 decode to bigint and round-trip",
    [fc.bigInt({ min: 0n, max: 2n ** 200n })],
    ([wei]) => {
      const text = JSON.stringify({
        success: true,
        response: { positions: [position(wei.toString())], truncated: true }
      })
      const decoded = Envelope.decode(schema, text, context)
      if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
      assert.strictEqual(decoded.right.positions[0]!.claimableWei, wei)
      assert.deepStrictEqual(Schema.encodeSync(schema)(decoded.right), JSON.parse(text))
    }
  )

  it("the EVM failure shape `{success:false,response}` gives the message", () => {
    const result = Envelope.decode(schema, JSON.stringify({ success: false, response: "owner is invalid" }), {
      ...context,
      status: 400
    })
    assert.isTrue(
      Either.isLeft(result) && result.left._tag === "BadRequest" && result.left.message === "owner is invalid"
    )
  })
})
