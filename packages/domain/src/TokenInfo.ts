/**
 * Token info creation (`POST /token-launch/create-token-info`, multipart/form-data): the
 * name, symbol, description, image (a file or a URL), links, and the mint the service makes.
 *
 * The rules are the public reference's, read conservatively where it is loose:
 * - `symbol`: one leading `$` is removed and the rest upper-cased before the length rule
 *   (1 to 10 characters) applies; the reference's guide strips the `$`, the server
 *   upper-cases, and whether the server strips a `$` is not documented, so it is never sent.
 * - the image: exactly one of `image` (a file) and `imageUrl`; `metadataUrl` only with
 *   `imageUrl` (the spec's `oneOf` refuses `image` + `metadataUrl`, which the official SDK
 *   allows: the stricter reading wins).
 * - the file's type is read from its first bytes (PNG, JPEG, GIF, WebP), never from its name,
 *   and its size is at most `maxImageBytes` (15 MB read as 15,000,000 bytes, the smaller of
 *   the two readings).
 * - the link fields, when given, must be absolute http(s) URLs; null is sent as absent
 *   (a form field cannot be null).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as FilePart from "./FilePart.js"
import { optional, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"

/**
 * Limits stated by the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = {
  maxName: 32,
  maxSymbol: 10,
  maxDescription: 1000,
  /** "15MB", read as the smaller 15,000,000 bytes. */
  maxImageBytes: 15_000_000
} as const

/**
 * The service's answer to an image over `limits.maxImageBytes` (HTTP 413).
 *
 * @since 0.1.0
 * @category constants
 */
export const imageTooLargeMessage = "Image file must be under 15MB"

/**
 * Rule texts, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  name: `must be 1 to ${limits.maxName} characters`,
  symbol: `must be 1 to ${limits.maxSymbol} characters once a leading $ is removed`,
  description: `must be 1 to ${limits.maxDescription} characters`,
  url: "must be an absolute http(s) URL",
  imageOrUrl: "exactly one of image and imageUrl must be given",
  metadataWithFile: "metadataUrl goes with imageUrl only, not with an image file",
  imageType: "must be a PNG, JPEG, GIF or WebP image (read from its first bytes)",
  imageSize: `must be at most ${limits.maxImageBytes} bytes`,
  imageEmpty: "must not be empty"
} as const

/**
 * The image types the service takes.
 *
 * @since 0.1.0
 * @category models
 */
export type ImageType = "png" | "jpeg" | "gif" | "webp"

/**
 * The media type of each image type.
 *
 * @since 0.1.0
 * @category constants
 */
export const mediaTypes: Readonly<Record<ImageType, string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp"
}

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte)

const ascii = (text: string): ReadonlyArray<number> => Array.from(text, (c) => c.charCodeAt(0))

/**
 * The image type of `bytes` by its magic number (the name and the declared type are never
 * trusted), or `undefined`.
 *
 * @since 0.1.0
 * @category rules
 */
export const imageType = (bytes: Uint8Array): ImageType | undefined => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png"
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg"
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif"
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp"
  return undefined
}

/**
 * A symbol as it is sent and stored: one leading `$` removed, upper-cased.
 *
 * @since 0.1.0
 * @category rules
 */
export const normalizeSymbol = (symbol: string): string =>
  (symbol.startsWith("$") ? symbol.slice(1) : symbol).toUpperCase()

/**
 * `true` for an absolute http(s) URL.
 *
 * @since 0.1.0
 * @category rules
 */
export const isHttpUrl = (text: string): boolean => {
  if (text.length > 2048) return false
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const Text = (max: number, message: string) =>
  Schema.String.pipe(Schema.filter((s) => s.trim().length > 0 && s.length <= max, { message: () => message }))

/**
 * An absolute http(s) URL (at most 2048 characters).
 *
 * @since 0.1.0
 * @category schemas
 */
export const HttpUrl = Schema.String.pipe(
  Schema.filter(isHttpUrl, { message: () => rules.url }),
  Schema.annotations({ identifier: "HttpUrl", jsonSchema: { type: "string", format: "uri" } })
)

/** A symbol whose normalised form is 1 to 10 characters (the same rule before and after). */
const SymbolText = Schema.String.pipe(
  Schema.filter((s) => {
    const normalized = normalizeSymbol(s)
    return (normalized.trim().length > 0 && normalized.length <= limits.maxSymbol) || rules.symbol
  })
)

/**
 * The token's symbol: given with or without a leading `$` and in any case; sent (and stored)
 * normalised (`normalizeSymbol`), 1 to 10 characters.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenSymbol = Schema.transform(
  SymbolText,
  SymbolText,
  { strict: true, decode: normalizeSymbol, encode: normalizeSymbol }
).annotations({ identifier: "TokenSymbol" })

const ImageBytes = Schema.Struct({
  bytes: Schema.Uint8ArrayFromSelf,
  filename: optional(Schema.String.pipe(Schema.maxLength(255)))
}).pipe(
  Schema.filter((file) => {
    if (file.bytes.length === 0) return { path: ["bytes"], message: rules.imageEmpty }
    if (file.bytes.length > limits.maxImageBytes) return { path: ["bytes"], message: rules.imageSize }
    return imageType(file.bytes) !== undefined || { path: ["bytes"], message: rules.imageType }
  })
)

/**
 * An image file: its bytes and, optionally, a file name (default `token-image` with the
 * extension of its type). Its type is read from its bytes; it is sent as a `FilePart` whose
 * media type is the one its bytes show (a server reads the bytes again, never the name or
 * the declared type).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ImageFile = Schema.transform(FilePart.FilePart, ImageBytes, {
  strict: true,
  decode: (part) => ({ bytes: part.bytes, filename: part.filename }),
  encode: (file) => {
    const type = imageType(file.bytes)
    return {
      bytes: file.bytes,
      filename: file.filename ?? `token-image.${type === "jpeg" ? "jpg" : type ?? "png"}`,
      contentType: type === undefined ? "application/octet-stream" : mediaTypes[type]
    }
  }
}).annotations({
  identifier: "ImageFile",
  jsonSchema: { type: "string", format: "binary", description: "PNG, JPEG, GIF or WebP; at most 15,000,000 bytes" }
})

/**
 * @since 0.1.0
 * @category models
 */
export type ImageFile = typeof ImageFile.Type

/**
 * Which image fields a request gives; `undefined` when the combination is allowed, else the
 * field to blame and the rule.
 *
 * @since 0.1.0
 * @category rules
 */
export const combinationError = (given: {
  readonly image: boolean
  readonly imageUrl: boolean
  readonly metadataUrl: boolean
}): { readonly field: "image" | "imageUrl" | "metadataUrl"; readonly rule: string } | undefined => {
  if (given.image && given.metadataUrl) return { field: "metadataUrl", rule: rules.metadataWithFile }
  if (given.image === given.imageUrl) return { field: given.image ? "imageUrl" : "image", rule: rules.imageOrUrl }
  return undefined
}

/**
 * The form of the token-info operation, field by field as the multipart body carries it
 * (`image` is the file part; every other field is a text part).
 *
 * @since 0.1.0
 * @category requests
 */
export const TokenInfoRequest = Schema.Struct({
  name: Text(limits.maxName, rules.name),
  symbol: TokenSymbol,
  description: Text(limits.maxDescription, rules.description),
  image: optional(ImageFile),
  imageUrl: optional(HttpUrl),
  metadataUrl: optional(HttpUrl),
  telegram: optionalNullable(HttpUrl),
  social: optionalNullable(HttpUrl),
  website: optionalNullable(HttpUrl)
}).pipe(
  Schema.filter((request) => {
    const error = combinationError({
      image: request.image !== undefined,
      imageUrl: request.imageUrl !== undefined,
      metadataUrl: request.metadataUrl !== undefined
    })
    return error === undefined || { path: [error.field], message: error.rule }
  }),
  Schema.annotations({ identifier: "TokenInfoRequest", parseOptions: { onExcessProperty: "error" } })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type TokenInfoRequest = typeof TokenInfoRequest.Type

/**
 * A token launch's status: a new mint is `PRE_LAUNCH`, and a mint launches once.
 *
 * @since 0.1.0
 * @category resources
 */
export const LaunchStatus = Schema.Literal("PRE_LAUNCH", "PRE_GRAD", "MIGRATING", "MIGRATED")

/**
 * The stored token launch. Newer service versions add more nullable fields; they are kept.
 *
 * @since 0.1.0
 * @category resources
 */
export const TokenLaunch = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.String,
  image: Schema.String,
  tokenMint: PublicKey,
  status: LaunchStatus,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  userId: Schema.NullOr(Schema.String),
  telegram: Schema.NullOr(Schema.String),
  social: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String),
  launchWallet: Schema.NullOr(Schema.String),
  launchSignature: Schema.NullOr(Schema.String),
  uri: Schema.NullOr(Schema.String)
}, Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({ identifier: "TokenLaunch" })

/**
 * @since 0.1.0
 * @category resources
 */
export type TokenLaunch = typeof TokenLaunch.Type

/**
 * The answer: the mint the service generated (its keypair stays with the service, which
 * signs the later launch transaction with it), the metadata URL to pass as `ipfs` to the
 * launch operation, and the stored launch.
 *
 * @since 0.1.0
 * @category resources
 */
export const TokenInfo = Schema.Struct({
  tokenMint: PublicKey,
  tokenMetadata: Schema.String,
  tokenLaunch: TokenLaunch
}).annotations({ identifier: "TokenInfo" })

/**
 * @since 0.1.0
 * @category resources
 */
export type TokenInfo = typeof TokenInfo.Type

/**
 * The metadata JSON a token's metadata URL serves.
 *
 * @since 0.1.0
 * @category resources
 */
export const TokenMetadata = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.String,
  image: Schema.String,
  telegram: optional(Schema.String),
  social: optional(Schema.String),
  website: optional(Schema.String)
}).annotations({ identifier: "TokenMetadata" })
