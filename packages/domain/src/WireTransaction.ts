/**
 * Serialized transactions as the service returns them: base64 or base58 text.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as Base58 from "./internal/base58.js"
import * as Base64 from "./internal/base64.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Encoding = "base64" | "base58"

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * A base64-encoded serialized transaction (standard alphabet, padded).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Base64Transaction = Schema.String.pipe(
  Schema.filter((text) => text.length > 0 && base64.test(text), {
    message: () => "must be a non-empty padded base64 transaction"
  }),
  Schema.annotations({ identifier: "Base64Transaction" })
)

/**
 * A base58-encoded serialized transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Base58Transaction = Schema.String.pipe(
  Schema.filter((text) => text.length > 0 && Base58.isBase58(text), {
    message: () => "must be a non-empty base58 transaction"
  }),
  Schema.annotations({ identifier: "Base58Transaction" })
)

/**
 * Bytes of an encoded transaction.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toBytes = (text: string, encoding: Encoding): Uint8Array | undefined =>
  encoding === "base58" ? Base58.decode(text) : Base64.decode(text)

/**
 * Encodes transaction bytes.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromBytes = (bytes: Uint8Array, encoding: Encoding): string =>
  encoding === "base58" ? Base58.encode(bytes) : Base64.encode(bytes)
