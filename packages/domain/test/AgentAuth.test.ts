import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Redacted, Schema } from "effect"
import { AgentAuth, Envelope, PublicKey } from "../src/index.js"
import { notPublicKey, publicKey } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"
import { endpoint } from "./endpoints.js"

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0)
const signature = fc.uint8Array({ minLength: 64, maxLength: 64 }).map(PublicKey.base58.encode)
const signaturePayload = fc.record({ signature, address: publicKey, nonce: text, keyName: text })
const mfaPayload = fc.record({ authCode: text, mfaCode: text, keyName: text })
const blank = fc.constantFrom("", " ", "\t\n")

const callbackSchema = endpoint("agentAuth", "callback").successSchema
const initSchema = endpoint("agentAuth", "init").successSchema
const context = { status: 200, operation: "agentAuth.callback" }

describe("AgentAuth requests", () => {
  it.prop("init takes a public key", [publicKey, notPublicKey], ([address, bad]) => {
    assertValid(AgentAuth.InitRequest, { address })
    assertInvalid(
      AgentAuth.InitRequest,
      { encoded: { address: bad }, type: { address: bad } },
      "address",
      PublicKey.rule
    )
  })

  it.prop("both callback payloads are accepted as they are", [fc.oneof(signaturePayload, mfaPayload)], ([payload]) => {
    assert.deepStrictEqual(assertValid(AgentAuth.CallbackRequest, payload), payload)
  })

  it.prop("a signature payload with a bad signature, address or blank field is rejected at that field", [
    signaturePayload,
    fc.uint8Array({ minLength: 1, maxLength: 100 }).filter((b) => b.length !== 64).map(PublicKey.base58.encode),
    notPublicKey,
    blank
  ], ([payload, badSignature, badAddress, empty]) => {
    assertInvalid(
      AgentAuth.CallbackRequest,
      { encoded: { ...payload, signature: badSignature }, type: { ...payload, signature: badSignature } },
      "signature",
      "must be a base58 signature of 64 bytes"
    )
    assertInvalid(
      AgentAuth.CallbackRequest,
      { encoded: { ...payload, address: badAddress } },
      "address",
      PublicKey.rule
    )
    assertInvalid(
      AgentAuth.CallbackRequest,
      { encoded: { ...payload, nonce: empty } },
      "nonce",
      "must be a non-empty string"
    )
    assertInvalid(
      AgentAuth.CallbackRequest,
      { encoded: { ...payload, keyName: empty } },
      "keyName",
      "must be a non-empty string"
    )
  })

  it.prop("an MFA payload with a blank field is rejected at that field (not as a signature payload)", [
    mfaPayload,
    blank,
    fc.constantFrom("authCode" as const, "mfaCode" as const, "keyName" as const)
  ], ([payload, empty, field]) => {
    const broken = { ...payload, [field]: empty }
    assertInvalid(AgentAuth.CallbackRequest, { encoded: broken, type: broken }, field, "must be a non-empty string")
  })

  it.prop("an MFA payload missing a field is reported as missing that field (not as a signature payload)", [
    mfaPayload,
    fc.constantFrom("mfaCode" as const, "keyName" as const)
  ], ([payload, field]) => {
    const { [field]: _dropped, ...broken } = payload
    assertInvalid(AgentAuth.CallbackRequest, { encoded: broken }, field, "is missing")
  })

  it("a payload of neither shape is reported against the first shape", () => {
    assertInvalid(AgentAuth.CallbackRequest, { encoded: { keyName: "k" } }, "signature", "is missing")
    assertInvalid(
      AgentAuth.CallbackRequest,
      { encoded: "callback" },
      "",
      "Expected CallbackRequest, actual \"callback\""
    )
  })
})

describe("AgentAuth answers", () => {
  it.prop("a credential decodes with the key Redacted, and the key never shows in its printed forms", [
    fc.string({ minLength: 8, maxLength: 64 }).filter((k) => !"<redacted>".includes(k)),
    text,
    fc.boolean()
  ], ([apiKey, keyId, isSignup]) => {
    const body = JSON.stringify({ success: true, response: { apiKey, keyId, isSignup } })
    const decoded = Envelope.decode(callbackSchema, body, context)
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    const answer = decoded.right
    assert.isFalse(AgentAuth.isMfaRequired(answer))
    if (AgentAuth.isMfaRequired(answer)) return
    assert.isTrue(Redacted.isRedacted(answer.apiKey))
    assert.strictEqual(Redacted.value(answer.apiKey), apiKey)
    assert.strictEqual(answer.keyId, keyId)
    assert.notInclude(JSON.stringify(answer), apiKey)
    assert.notInclude(String(answer.apiKey), apiKey)
    assert.deepStrictEqual(Schema.encodeSync(callbackSchema)(answer), JSON.parse(body))
  })

  it.prop("an MFA-required answer is told apart", [text, text], ([mfaMethod, authCode]) => {
    const body = JSON.stringify({ success: true, response: { mfaRequired: true, mfaMethod, authCode } })
    const decoded = Envelope.decode(callbackSchema, body, context)
    assert.deepStrictEqual(decoded, Either.right({ mfaRequired: true as const, mfaMethod, authCode }))
    if (Either.isRight(decoded)) assert.isTrue(AgentAuth.isMfaRequired(decoded.right))
  })

  it("an answer that is neither is an UnexpectedResponse", () => {
    for (
      const response of [
        { mfaRequired: false, mfaMethod: "totp", authCode: "a" },
        { keyId: "k", isSignup: true },
        "key"
      ]
    ) {
      const result = Envelope.decode(callbackSchema, JSON.stringify({ success: true, response }), context)
      assert.isTrue(Either.isLeft(result) && result.left._tag === "UnexpectedResponse")
    }
  })

  it.prop(
    "the challenge message must be base58",
    [fc.uint8Array({ minLength: 1, maxLength: 64 }), text],
    ([bytes, nonce]) => {
      const ok = Envelope.decode(
        initSchema,
        JSON.stringify({ success: true, response: { message: PublicKey.base58.encode(bytes), nonce } }),
        context
      )
      assert.isTrue(Either.isRight(ok))
      const bad = Envelope.decode(
        initSchema,
        JSON.stringify({ success: true, response: { message: "0OIl", nonce } }),
        context
      )
      assert.isTrue(Either.isLeft(bad))
    }
  )
})
