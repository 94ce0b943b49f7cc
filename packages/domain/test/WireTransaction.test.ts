import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { WireTransaction } from "../src/index.js"

const isBase64 = Schema.is(WireTransaction.Base64Transaction)
const isBase58 = Schema.is(WireTransaction.Base58Transaction)

describe("WireTransaction", () => {
  it.prop("bytes ⇄ base64 and base58 are inverse", [
    fc.uint8Array({ minLength: 1, maxLength: 300 }),
    fc.constantFrom("base64" as const, "base58" as const)
  ], ([bytes, encoding]) => {
    const text = WireTransaction.fromBytes(bytes, encoding)
    assert.isTrue(encoding === "base64" ? isBase64(text) : isBase58(text))
    assert.deepStrictEqual(WireTransaction.toBytes(text, encoding), bytes)
  })

  it.prop("base64 agrees with Node's Buffer", [fc.uint8Array({ minLength: 1, maxLength: 300 })], ([bytes]) => {
    assert.strictEqual(WireTransaction.fromBytes(bytes, "base64"), Buffer.from(bytes).toString("base64"))
  })

  it.prop("unpadded, url-safe, whitespace-bearing or empty base64 is rejected", [
    fc.uint8Array({ minLength: 1, maxLength: 64 }).chain((bytes) => {
      const text = Buffer.from(bytes).toString("base64")
      return fc.constantFrom(
        ...[
          text.includes("=") ? text.replace(/=+$/, "") : undefined,
          /[+/]/.test(text) ? text.replace(/\+/g, "-").replace(/\//g, "_") : undefined,
          ` ${text}`,
          `${text}\n`,
          `${text.slice(0, 2)} ${text.slice(2)}`,
          `${text}=`,
          "="
        ].filter((t): t is string => t !== undefined)
      )
    }),
    fc.constant("")
  ], ([text]) => {
    assert.isFalse(isBase64(text))
    assert.isUndefined(WireTransaction.toBytes(text, "base64"))
  })

  it.prop("base58 rejects characters outside its alphabet and the empty string", [
    fc.tuple(
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.nat(),
      fc.constantFrom("0", "O", "I", "l", "+", "=", " ")
    )
      .map(([bytes, at, bad]) => {
        const text = WireTransaction.fromBytes(bytes, "base58")
        const i = at % (text.length + 1)
        return text.slice(0, i) + bad + text.slice(i)
      }),
    fc.constant("")
  ], ([text]) => {
    assert.isFalse(isBase58(text))
  })
})
