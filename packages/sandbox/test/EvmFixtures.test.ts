import { assert, describe, it } from "@effect/vitest"
import { Evm, EvmAddress } from "@feeshare/domain"
import { Schema } from "effect"
import * as EvmFixtures from "../src/EvmFixtures.js"

describe("EvmFixtures", () => {
  const fixtures = EvmFixtures.make("seed-1")

  it("is deterministic from the seed", () => {
    assert.deepStrictEqual(EvmFixtures.make("seed-1").positions(fixtures.holder), fixtures.positions(fixtures.holder))
    assert.notStrictEqual(EvmFixtures.make("seed-2").holder, fixtures.holder)
  })

  it("the holder has one v1, one v2 and one v3 position, with consistent amounts and EIP-55 addresses", () => {
    const answer = fixtures.positions(fixtures.holder)
    Schema.decodeUnknownSync(Evm.EvmPositions)(Schema.encodeSync(Evm.EvmPositions)(answer))
    assert.isFalse(answer.truncated)
    assert.deepStrictEqual(answer.positions.map((p) => p.version), ["v1", "v2", "v3"])
    for (const p of answer.positions) {
      assert.strictEqual(p.actionableWei, p.claimableWei + p.pendingWei)
      assert.strictEqual(p.lifetimeWei, p.claimedWei + p.claimableWei)
      assert.strictEqual(p.token.address, EvmAddress.toChecksum(p.token.address))
      assert.strictEqual(p.token.migrated, p.token.migratedAtBlock !== null)
    }
  })

  it("token metadata comes in every shape the service sends: full, null, without image, without description", () => {
    const shapes = new Set(
      fixtures.positions(fixtures.whale).positions.map(({ token: { metadata } }) =>
        metadata === null
          ? "null"
          : `${metadata.image === null ? "no-image" : "image"}/${
            metadata.description === null ? "no-description" : "description"
          }`
      )
    )
    assert.deepStrictEqual([...shapes].sort(), [
      "image/description",
      "image/no-description",
      "no-image/description",
      "null"
    ])
  })

  it("an owner with more positions than the discovery bound gets `truncated`", () => {
    const answer = fixtures.positions(fixtures.whale)
    assert.isTrue(answer.truncated)
    assert.strictEqual(answer.positions.length, EvmFixtures.discoveryBound)
    assert.deepStrictEqual(fixtures.positions("0x0000000000000000000000000000000000000001"), {
      positions: [],
      truncated: false
    })
  })

  it("index tokens report their basket; others report none", () => {
    const [index] = fixtures.indexTokens
    const plain = fixtures.plainTokens[0]!
    assert.isDefined(index)
    assert.deepStrictEqual(fixtures.indexStatus([index!.address, plain]), [
      { tokenAddress: index!.address, isIndexToken: true, tokens: index!.basket },
      { tokenAddress: plain, isIndexToken: false, tokens: [] }
    ])
    assert.isAbove(index!.basket.length, 0)
  })
})
