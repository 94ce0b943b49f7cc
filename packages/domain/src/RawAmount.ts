/**
 * Raw token amounts: the decimal string of a u64 on the wire, a `bigint` in the program.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * Largest u64.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxU64 = 2n ** 64n - 1n

/**
 * @since 0.1.0
 * @category rules
 */
export const rule = "must be an integer from 0 to 2^64-1, written in canonical decimal"

const canonical = /^(0|[1-9][0-9]*)$/

/**
 * `true` when `text` is the canonical decimal form of a u64 (no sign, no leading zeros,
 * no exponent, no fraction, no whitespace).
 *
 * @since 0.1.0
 * @category guards
 */
export const isRawAmountString = (text: string): boolean =>
  text.length <= 20 && canonical.test(text) && BigInt(text) <= maxU64

/**
 * @since 0.1.0
 * @category guards
 */
export const isU64 = (n: bigint): boolean => n >= 0n && n <= maxU64

const U64 = Schema.BigIntFromSelf.pipe(
  Schema.filter(isU64, { message: () => rule }),
  Schema.annotations({ identifier: "U64" })
)

/**
 * `"1000"` ⇄ `1000n`, restricted to u64.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RawAmount = Schema.transform(
  Schema.String.pipe(
    Schema.filter(isRawAmountString, { message: () => rule }),
    Schema.annotations({ identifier: "RawAmountString", description: "decimal string of a u64" })
  ),
  U64,
  { strict: true, decode: (text) => BigInt(text), encode: (n) => n.toString() }
).pipe(Schema.annotations({ identifier: "RawAmount" }))

/**
 * @since 0.1.0
 * @category models
 */
export type RawAmount = typeof RawAmount.Type

/**
 * Largest uint256 (EVM amounts).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxU256 = 2n ** 256n - 1n

/**
 * @since 0.1.0
 * @category rules
 */
export const u256Rule = "must be an integer from 0 to 2^256-1, written in canonical decimal"

/**
 * `true` when `text` is the canonical decimal form of a uint256. The length is checked
 * before anything else, so that a hostile million-digit string costs nothing (`BigInt` of
 * it would block the event loop for seconds).
 *
 * @since 0.1.0
 * @category guards
 */
export const isU256String = (text: string): boolean =>
  text.length <= 78 && canonical.test(text) && BigInt(text) <= maxU256

/**
 * A uint256 in canonical decimal (EVM wei amounts), ⇄ `bigint`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BigUint = Schema.transform(
  Schema.String.pipe(
    Schema.filter(isU256String, { message: () => u256Rule }),
    Schema.annotations({ identifier: "BigUintString" })
  ),
  Schema.BigIntFromSelf.pipe(
    Schema.filter((n) => n >= 0n && n <= maxU256, { message: () => u256Rule }),
    Schema.annotations({ identifier: "U256" })
  ),
  { strict: true, decode: (text) => BigInt(text), encode: (n) => n.toString() }
).pipe(Schema.annotations({ identifier: "BigUint" }))

/**
 * A whole number of lamports sent as a JSON number (a non-negative safe integer).
 *
 * @since 0.1.0
 * @category schemas
 */
export const LamportsNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) && n >= 0, {
    message: () => "must be a non-negative whole number of lamports"
  }),
  Schema.annotations({ identifier: "LamportsNumber" })
)

/**
 * Formats a raw amount in display units, e.g. `format(1500000000n, 9)` = `"1.5"`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (amount: bigint, decimals: number): string => {
  if (decimals <= 0) return amount.toString()
  const negative = amount < 0n
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}
