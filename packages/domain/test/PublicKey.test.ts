import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { AgentAuth, PublicKey, Validation } from "../src/index.js"
import { decodeFailure, nonBase58Key, notPublicKey, publicKey, wrongLengthKey } from "./arbitraries.js"

const decodeInit = Validation.decodeRequest(AgentAuth.InitRequest, "agentAuth.init")
const encodeInit = Validation.encodeRequest(AgentAuth.InitRequest, "agentAuth.init")

describe("PublicKey", () => {
  it.prop("32 random bytes encode to an accepted key that decodes back to the bytes", [
    fc.uint8Array({ minLength: 32, maxLength: 32 })
  ], ([bytes]) => {
    const key = PublicKey.fromBytes(bytes)
    assert.isTrue(PublicKey.isPublicKey(key))
    assert.strictEqual(Schema.decodeUnknownSync(PublicKey.PublicKey)(key), key)
    assert.deepStrictEqual(PublicKey.toBytes(key), bytes)
  })

  it("the all-zero key and the system program id are accepted", () => {
    assert.strictEqual(PublicKey.fromBytes(new Uint8Array(32)), "11111111111111111111111111111111")
    assert.isTrue(PublicKey.isPublicKey("11111111111111111111111111111111"))
    assert.isTrue(PublicKey.isPublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"))
  })

  it.prop("base58 of any other length is rejected with field and rule", [wrongLengthKey], ([key]) => {
    const error = decodeFailure(decodeInit({ address: key }))
    assert.strictEqual(error?.field, "address")
    assert.strictEqual(error?.rule, PublicKey.rule)
  })

  it.prop("a character outside the base58 alphabet is rejected", [nonBase58Key], ([key]) => {
    assert.isFalse(PublicKey.isPublicKey(key))
    const error = decodeFailure(decodeInit({ address: key }))
    assert.strictEqual(error?.field, "address")
    assert.strictEqual(error?.rule, PublicKey.rule)
  })

  it.prop("encoding a request with a bad key fails before anything is sent", [notPublicKey], ([key]) => {
    const result = encodeInit({ address: key })
    assert.isTrue(Either.isLeft(result))
    if (Either.isLeft(result)) {
      assert.strictEqual(result.left._tag, "InvalidRequest")
      assert.strictEqual(result.left.operation, "agentAuth.init")
      assert.strictEqual(result.left.field, "address")
      assert.strictEqual(result.left.rule, PublicKey.rule)
    }
  })

  it.prop("encode ∘ decode is the identity", [publicKey], ([key]) => {
    const decoded = Schema.decodeUnknownSync(AgentAuth.InitRequest)({ address: key })
    assert.deepStrictEqual(Schema.encodeSync(AgentAuth.InitRequest)(decoded), { address: key })
  })

  it("toBytes and fromBytes refuse what is not a key", () => {
    assert.throws(() => PublicKey.fromBytes(new Uint8Array(31)))
    assert.throws(() => PublicKey.toBytes("1111"))
  })

  it.prop("Base58Signature accepts exactly 64 bytes", [fc.uint8Array({ minLength: 1, maxLength: 100 })], ([bytes]) => {
    const text = PublicKey.base58.encode(bytes)
    assert.strictEqual(Schema.is(PublicKey.Base58Signature)(text), bytes.length === 64)
  })

  it.prop(
    "base58 decode ∘ encode is the identity (leading zero bytes kept)",
    [fc.uint8Array({ maxLength: 80 })],
    ([bytes]) => {
      assert.deepStrictEqual(PublicKey.base58.decode(PublicKey.base58.encode(bytes)), bytes)
    }
  )
})

describe("base58 validation shortcuts", () => {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
  const text = fc.oneof(
    fc.uint8Array({ maxLength: 80 }).map(PublicKey.base58.encode),
    fc.tuple(fc.nat(3), fc.constantFrom(31, 32, 33, 63, 64, 65)).chain(([zeros, n]) =>
      fc.uint8Array({ minLength: n - zeros, maxLength: n - zeros }).map((b) =>
        PublicKey.base58.encode(Uint8Array.from([...new Uint8Array(zeros), ...b]))
      )
    ),
    fc.array(fc.constantFrom(...alphabet, "1", "1", "0", "O", "l", "é", " "), { maxLength: 60 }).map((cs) =>
      cs.join("")
    ),
    fc.string({ maxLength: 50 })
  )

  it.prop("isPublicKey and Base58Signature agree with decoding the bytes", [text], ([t]) => {
    const bytes = PublicKey.base58.decode(t)
    assert.strictEqual(PublicKey.isPublicKey(t), bytes?.length === 32 && t.length >= 32 && t.length <= 44)
    assert.strictEqual(Schema.is(PublicKey.Base58Signature)(t), bytes?.length === 64)
    assert.strictEqual(Schema.is(PublicKey.Base58String)(t), t.length > 0 && bytes !== undefined)
  }, { fastCheck: { numRuns: 500 } })
})
