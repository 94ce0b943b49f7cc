/**
 * Analytics and state: lifetime fees, claim statistics, pools.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { optional, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"

/**
 * `?tokenMint=<public key>`.
 *
 * @since 0.1.0
 * @category requests
 */
export const TokenMintQuery = Schema.Struct({ tokenMint: PublicKey })

/**
 * Lifetime fees of a token, in lamports (may exceed 2^53).
 *
 * @since 0.1.0
 * @category resources
 */
export const LifetimeFees = RawAmount

/**
 * One fee claimer of a token and what it has claimed.
 *
 * @since 0.1.0
 * @category resources
 */
export const ClaimStatistics = Schema.Struct({
  username: optionalNullable(Schema.String),
  pfp: optionalNullable(Schema.String),
  royaltyBps: Schema.Number,
  isCreator: Schema.Boolean,
  wallet: Schema.String,
  totalClaimed: RawAmount,
  provider: optionalNullable(Schema.String),
  providerUsername: optionalNullable(Schema.String),
  socialUsername: optionalNullable(Schema.String),
  platformUsername: optionalNullable(Schema.String),
  isAdmin: Schema.Boolean
}).annotations({ identifier: "ClaimStatistics" })

/**
 * @since 0.1.0
 * @category resources
 */
export type ClaimStatistics = typeof ClaimStatistics.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const ClaimStatisticsList = Schema.Array(ClaimStatistics)

/**
 * `?onlyMigrated=true|false` (default false).
 *
 * @since 0.1.0
 * @category requests
 */
export const PoolsQuery = Schema.Struct({
  onlyMigrated: optional(Schema.transform(
    Schema.Literal("true", "false"),
    Schema.Boolean,
    { strict: true, decode: (text) => text === "true", encode: (flag) => (flag ? "true" : "false") }
  ))
})

/**
 * A pool and its keys. DBC keys are null for pools launched directly on DAMM v2; the DAMM v2
 * key is null before migration.
 *
 * @since 0.1.0
 * @category resources
 */
export const PoolEntry = Schema.Struct({
  tokenMint: Schema.String,
  dbcConfigKey: Schema.NullOr(Schema.String),
  dbcPoolKey: Schema.NullOr(Schema.String),
  dammV2PoolKey: Schema.NullOr(Schema.String)
}).annotations({ identifier: "PoolEntry" })

/**
 * @since 0.1.0
 * @category resources
 */
export type PoolEntry = typeof PoolEntry.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const Pools = Schema.Array(PoolEntry)
