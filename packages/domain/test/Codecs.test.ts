import { assert, describe, it } from "@effect/vitest"
import { base58 as scure58, base64 as scure64 } from "@scure/base"
import { FastCheck as fc } from "effect"
import { PublicKey, WireTransaction } from "../src/index.js"

/** What `@scure/base` says, `undefined` where it refuses the text. */
const scureDecode = (codec: { readonly decode: (text: string) => Uint8Array }, text: string) => {
  try {
    return codec.decode(text)
  } catch {
    return undefined
  }
}

const base64Text = fc.array(
  fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ "),
  {
    maxLength: 16
  }
).map((chars) => chars.join(""))

const base58Text = fc.array(fc.constantFrom(..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl+"), {
  maxLength: 60
}).map((chars) => chars.join(""))

describe("the workspace's codecs agree with @scure/base", () => {
  const bytes = fc.tuple(fc.nat(6), fc.uint8Array({ maxLength: 300 }))
    .map(([zeros, rest]) => Uint8Array.from([...new Array<number>(zeros).fill(0), ...rest]))

  it.prop("base58: encode and decode", [bytes], ([input]) => {
    const text = WireTransaction.fromBytes(input, "base58")
    assert.strictEqual(text, scure58.encode(input))
    assert.strictEqual(PublicKey.base58.encode(input), text)
    assert.deepStrictEqual(WireTransaction.toBytes(text, "base58"), scure58.decode(text))
  }, { fastCheck: { numRuns: 300 } })

  it.prop("base58: any text decodes as the library decodes it, or is refused by both", [base58Text], ([text]) => {
    assert.deepStrictEqual(PublicKey.base58.decode(text), scureDecode(scure58, text), text)
  }, { fastCheck: { numRuns: 500 } })

  it.prop("base64: encode and decode", [bytes], ([input]) => {
    const text = WireTransaction.fromBytes(input, "base64")
    assert.strictEqual(text, scure64.encode(input))
    assert.deepStrictEqual(WireTransaction.toBytes(text, "base64"), scure64.decode(text))
  }, { fastCheck: { numRuns: 300 } })

  it.prop(
    "base64: text the library reads decodes alike; the rest is refused, or differs only in a padded group's unused bits",
    [base64Text],
    ([text]) => {
      const ours = WireTransaction.toBytes(text, "base64")
      const theirs = scureDecode(scure64, text)
      if (theirs !== undefined) return assert.deepStrictEqual(ours, theirs, text)
      if (ours === undefined) return
      // the library refuses non-zero unused bits where atob (and the codec) ignores them
      assert.isTrue(text.endsWith("="), text)
      assert.deepStrictEqual(ours, Uint8Array.from(atob(text), (c) => c.charCodeAt(0)), text)
    },
    { fastCheck: { numRuns: 1000 } }
  )

  it("base58: leading zero bytes are leading ones", () => {
    assert.strictEqual(WireTransaction.fromBytes(new Uint8Array(3), "base58"), "111")
    assert.deepStrictEqual(WireTransaction.toBytes("111", "base58"), new Uint8Array(3))
    assert.deepStrictEqual(WireTransaction.toBytes("", "base58"), new Uint8Array(0))
  })
})
