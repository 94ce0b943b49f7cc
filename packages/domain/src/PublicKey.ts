/**
 * Solana public keys: base58 text that decodes to exactly 32 bytes.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Base58 from "./internal/base58.js"

/**
 * The rule a public key must satisfy, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rule = "must be a base58 public key of 32 bytes"

/**
 * `true` when `text` is base58 that decodes to exactly 32 bytes.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPublicKey = (text: string): boolean =>
  text.length >= 32 && text.length <= 44 && Base58.decodedLength(text) === 32

/**
 * A base58-encoded 32-byte Solana public key (kept as text).
 *
 * @since 0.1.0
 * @category schemas
 */
export const PublicKey = Schema.String.pipe(
  Schema.filter(isPublicKey, { message: () => rule }),
  Schema.annotations({ identifier: "PublicKey", description: "base58-encoded 32-byte public key" })
)

/**
 * @since 0.1.0
 * @category models
 */
export type PublicKey = typeof PublicKey.Type

/**
 * Decodes a public key to its 32 bytes.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toBytes = (key: PublicKey): Uint8Array => {
  const bytes = Base58.decode(key)
  if (bytes === undefined || bytes.length !== 32) throw new TypeError(`not a public key: ${key}`)
  return bytes
}

/**
 * Encodes 32 bytes as a base58 public key.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromBytes = (bytes: Uint8Array): PublicKey => {
  if (bytes.length !== 32) throw new TypeError(`a public key has 32 bytes, got ${bytes.length}`)
  return Base58.encode(bytes)
}

/**
 * Base58 text of any length (transactions, signatures, challenge messages).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Base58String = Schema.String.pipe(
  Schema.filter((text) => text.length > 0 && Base58.isBase58(text), {
    message: () => "must be non-empty base58 text"
  }),
  Schema.annotations({ identifier: "Base58String" })
)

/**
 * A base58-encoded 64-byte Ed25519 signature.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Base58Signature = Schema.String.pipe(
  Schema.filter((text) => Base58.decodedLength(text) === 64, {
    message: () => "must be a base58 signature of 64 bytes"
  }),
  Schema.annotations({ identifier: "Base58Signature" })
)

/**
 * Base58 codec, exposed for the packages that build on the domain.
 *
 * @since 0.1.0
 * @category conversions
 */
export const base58 = { encode: Base58.encode, decode: Base58.decode } as const
