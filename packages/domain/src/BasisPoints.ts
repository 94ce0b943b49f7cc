/**
 * Basis points: an integer from 0 to 10000 (10000 = 100%).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * 100% in basis points.
 *
 * @since 0.1.0
 * @category constants
 */
export const total = 10_000

/**
 * @since 0.1.0
 * @category rules
 */
export const rule = "must be an integer from 0 to 10000"

/**
 * @since 0.1.0
 * @category guards
 */
export const isBasisPoints = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= total

/**
 * @since 0.1.0
 * @category schemas
 */
export const BasisPoints = Schema.Number.pipe(
  Schema.filter(isBasisPoints, { message: () => rule }),
  Schema.annotations({ identifier: "BasisPoints", jsonSchema: { type: "integer", minimum: 0, maximum: total } })
)

/**
 * @since 0.1.0
 * @category models
 */
export type BasisPoints = typeof BasisPoints.Type

/**
 * Basis points carried as a decimal string (query parameters).
 *
 * @since 0.1.0
 * @category schemas
 */
export const BasisPointsFromString = Schema.transform(
  Schema.String.pipe(Schema.filter((text) => /^(0|[1-9][0-9]{0,4})$/.test(text), { message: () => rule })),
  BasisPoints,
  { strict: true, decode: (text) => Number(text), encode: (n) => String(n) }
).pipe(Schema.annotations({ identifier: "BasisPointsFromString" }))

/**
 * Splits `amount` by the given basis points, rounding down; the remainder of the rounding
 * goes to the first share so that the parts always add up to `amount`.
 *
 * @since 0.1.0
 * @category math
 */
export const split = (amount: bigint, shares: ReadonlyArray<BasisPoints>): ReadonlyArray<bigint> => {
  const parts = shares.map((bps) => (amount * BigInt(bps)) / BigInt(total))
  const given = parts.reduce((a, b) => a + b, 0n)
  const sum = shares.reduce((a, b) => a + b, 0)
  if (parts.length > 0 && sum === total) parts[0] = parts[0]! + (amount - given)
  return parts
}
