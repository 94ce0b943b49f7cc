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
 * One fee claimer of a token and what it has claimed. `username` and `pfp` are strings
 * (possibly empty); the two social names are absent when unknown (never null).
 *
 * @since 0.1.0
 * @category resources
 */
export const ClaimStatistics = Schema.Struct({
  username: Schema.String,
  pfp: Schema.String,
  royaltyBps: Schema.Number,
  isCreator: Schema.Boolean,
  wallet: Schema.String,
  totalClaimed: RawAmount,
  provider: optionalNullable(Schema.String),
  providerUsername: optionalNullable(Schema.String),
  socialUsername: optional(Schema.String),
  platformUsername: optional(Schema.String),
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
 * `?onlyMigrated=true|false` (default false); `1` and `0` are read as true and false, as query
 * strings often spell booleans. Sent as `true` or `false`.
 *
 * @since 0.1.0
 * @category requests
 */
export const PoolsQuery = Schema.Struct({
  onlyMigrated: optional(Schema.transform(
    Schema.Literal("true", "false", "1", "0"),
    Schema.Boolean,
    { strict: true, decode: (text) => text === "true" || text === "1", encode: (flag) => (flag ? "true" : "false") }
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
