/**
 * EVM addresses: any casing in, EIP-55 checksum out.
 *
 * @since 0.1.0
 */
import { keccak_256 } from "@noble/hashes/sha3"
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category rules
 */
export const rule = "must be a 0x-prefixed 20-byte hex address with a valid EIP-55 checksum when mixed-case"

const shape = /^0x[0-9a-fA-F]{40}$/

/**
 * EIP-55 checksum form of a well-shaped address (any casing).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toChecksum = (address: string): string => {
  const lower = address.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f
    const char = lower[i]!
    out += nibble >= 8 ? char.toUpperCase() : char
  }
  return out
}

/**
 * `true` for a 0x-prefixed 40-hex-digit address that is all lower case, all upper case,
 * or mixed case with a correct EIP-55 checksum.
 *
 * @since 0.1.0
 * @category guards
 */
export const isEvmAddress = (text: string): boolean => {
  if (!shape.test(text)) return false
  const body = text.slice(2)
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true
  return toChecksum(text) === text
}

const AnyCasing = Schema.String.pipe(
  Schema.filter(isEvmAddress, { message: () => rule }),
  Schema.annotations({ identifier: "EvmAddressInput", description: "20-byte hex address, any casing" })
)

/**
 * Accepts any casing (rejecting a mixed-case address with a wrong checksum) and yields the
 * EIP-55 checksum form, in both directions.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EvmAddress = Schema.transform(AnyCasing, AnyCasing, {
  strict: true,
  decode: toChecksum,
  encode: toChecksum
}).pipe(Schema.annotations({ identifier: "EvmAddress" }))

/**
 * @since 0.1.0
 * @category models
 */
export type EvmAddress = typeof EvmAddress.Type
