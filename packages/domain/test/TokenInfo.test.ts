import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { FilePart, TokenInfo } from "../src/index.js"
import { assertInvalid, assertValid } from "./assertions.js"

const magic = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  gif: Array.from("GIF89a", (c) => c.charCodeAt(0)),
  webp: [...Array.from("RIFF", (c) => c.charCodeAt(0)), 1, 2, 3, 4, ...Array.from("WEBP", (c) => c.charCodeAt(0))]
} as const

const imageTypes = ["png", "jpeg", "gif", "webp"] as const

/** An image of each type: its magic number, then any bytes. */
const image = fc.tuple(fc.constantFrom(...imageTypes), fc.uint8Array({ maxLength: 64 })).map(([type, rest]) => ({
  type,
  bytes: new Uint8Array([...magic[type], ...rest])
}))

/** Bytes that start with no accepted magic number. */
const notImage = fc.uint8Array({ maxLength: 64 }).filter((bytes) => TokenInfo.imageType(bytes) === undefined)

const text = (max: number) => fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim().length > 0)

const base = { name: "Token", symbol: "TKN", description: "A token" }

const wire = (fields: Record<string, unknown>) => fields

describe("TokenInfo.imageType", () => {
  it.prop("reads the type from the magic number, whatever follows", [image], ([{ bytes, type }]) => {
    assert.strictEqual(TokenInfo.imageType(bytes), type)
  })

  it.prop("bytes without a magic number are no image", [notImage], ([bytes]) => {
    assert.isUndefined(TokenInfo.imageType(bytes))
  })

  it("a RIFF that is not WEBP (a WAV) is no image", () => {
    const wav = new Uint8Array([...Array.from("RIFF", (c) => c.charCodeAt(0)), 0, 0, 0, 0, 87, 65, 86, 69])
    assert.isUndefined(TokenInfo.imageType(wav))
  })
})

describe("TokenInfo.normalizeSymbol", () => {
  it.prop("removes one leading $ and upper-cases; idempotent", [fc.string({ maxLength: 12 })], ([symbol]) => {
    const once = TokenInfo.normalizeSymbol(symbol)
    assert.strictEqual(once, (symbol.startsWith("$") ? symbol.slice(1) : symbol).toUpperCase())
    if (!once.startsWith("$")) assert.strictEqual(TokenInfo.normalizeSymbol(once), once)
  })

  it.prop("a symbol of 1 to 10 characters after the $ is sent normalised", [
    fc.boolean(),
    fc.stringMatching(/^[a-zA-Z0-9]{1,10}$/)
  ], ([dollar, symbol]) => {
    const encoded = Schema.encodeSync(TokenInfo.TokenSymbol)(dollar ? `$${symbol}` : symbol)
    assert.strictEqual(encoded, symbol.toUpperCase())
    assert.strictEqual(Schema.decodeSync(TokenInfo.TokenSymbol)(encoded), encoded)
  })

  it.prop("more than 10 characters after the $, or none, is refused naming symbol", [
    fc.oneof(fc.stringMatching(/^[A-Z]{11,20}$/), fc.constant("$"), fc.constant(""))
  ], ([symbol]) => {
    assertInvalid(
      TokenInfo.TokenInfoRequest,
      { encoded: wire({ ...base, symbol, imageUrl: "https://i.example/a.png" }) },
      "symbol",
      TokenInfo.rules.symbol
    )
  })
})

describe("TokenInfo.combinationError", () => {
  it.prop("allowed: image alone, imageUrl alone, imageUrl + metadataUrl; nothing else", [
    fc.boolean(),
    fc.boolean(),
    fc.boolean()
  ], ([image, imageUrl, metadataUrl]) => {
    const allowed = (image && !imageUrl && !metadataUrl) || (!image && imageUrl)
    assert.strictEqual(TokenInfo.combinationError({ image, imageUrl, metadataUrl }) === undefined, allowed)
  })
})

describe("TokenInfo.TokenInfoRequest", () => {
  it.prop("an image file alone, with any name: sent as a part whose type is read from its bytes", [
    image,
    fc.option(fc.string({ maxLength: 20 }), { nil: undefined })
  ], ([{ bytes, type }, filename]) => {
    const request = { ...base, image: { bytes, ...(filename === undefined ? {} : { filename }) } }
    const encoded = Schema.encodeSync(TokenInfo.TokenInfoRequest)(request)
    assert.isTrue(FilePart.isFilePart(encoded.image))
    assert.strictEqual(encoded.image?.contentType, TokenInfo.mediaTypes[type])
    assert.strictEqual(encoded.image?.filename, filename ?? `token-image.${type === "jpeg" ? "jpg" : type}`)
    const decoded = assertValid(TokenInfo.TokenInfoRequest, encoded)
    assert.deepStrictEqual(decoded.image?.bytes, bytes)
  })

  it.prop("bytes that are no image are refused at image.bytes, whatever the declared type", [notImage], ([bytes]) => {
    assertInvalid(
      TokenInfo.TokenInfoRequest,
      { encoded: wire({ ...base, image: { bytes, filename: "a.png", contentType: "image/png" } }) },
      "image.bytes",
      bytes.length === 0 ? TokenInfo.rules.imageEmpty : TokenInfo.rules.imageType
    )
  })

  it.prop("name, description: 1 to 32 and 1 to 1000 characters", [
    text(32),
    text(1000),
    fc.string({ minLength: 33, maxLength: 40 }),
    fc.string({ minLength: 1001, maxLength: 1010 })
  ], ([name, description, longName, longDescription]) => {
    assertValid(TokenInfo.TokenInfoRequest, { ...base, name, description, imageUrl: "https://i.example/a.png" })
    const withUrl = { ...base, imageUrl: "https://i.example/a.png" }
    assertInvalid(TokenInfo.TokenInfoRequest, { encoded: { ...withUrl, name: longName } }, "name", TokenInfo.rules.name)
    assertInvalid(
      TokenInfo.TokenInfoRequest,
      { encoded: { ...withUrl, description: longDescription } },
      "description",
      TokenInfo.rules.description
    )
  })

  it.prop("links are http(s) URLs or null; anything else is refused naming the field", [
    fc.constantFrom("telegram", "social", "website"),
    fc.webUrl({ validSchemes: ["http", "https"] }),
    fc.constantFrom("javascript:alert(1)", "ftp://x.example/a", "not a url", "")
  ], ([field, url, bad]) => {
    assertValid(TokenInfo.TokenInfoRequest, { ...base, imageUrl: url, [field]: url })
    assertValid(TokenInfo.TokenInfoRequest, { ...base, imageUrl: url, [field]: null })
    assertInvalid(
      TokenInfo.TokenInfoRequest,
      { encoded: { ...base, imageUrl: url, [field]: bad } },
      field,
      TokenInfo.rules.url
    )
  })

  it("an unknown field is refused", () => {
    assertInvalid(
      TokenInfo.TokenInfoRequest,
      { encoded: { ...base, imageUrl: "https://i.example/a.png", extra: "x" } },
      "extra",
      "is unexpected, expected: \"name\" | \"symbol\" | \"description\" | \"image\" | \"imageUrl\" | \"metadataUrl\" | \"telegram\" | \"social\" | \"website\""
    )
  })
})
