/**
 * Claiming: claimable positions, aggregate partner/deployer vaults, and the claim-plan
 * request (the plan itself is in `Plan`).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { BasisPoints } from "./BasisPoints.js"
import { ArrayBetween, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"

/**
 * `?wallet=<public key>`.
 *
 * @since 0.1.0
 * @category requests
 */
export const WalletQuery = Schema.Struct({ wallet: PublicKey })

/**
 * The DAMM v2 position a claimable position refers to.
 *
 * @since 0.1.0
 * @category resources
 */
export const DammPositionInfo = Schema.Struct({
  position: Schema.String,
  pool: Schema.String,
  positionNftAccount: Schema.String,
  tokenAMint: Schema.String,
  tokenBMint: Schema.String,
  tokenAVault: Schema.String,
  tokenBVault: Schema.String
}).annotations({ identifier: "DammPositionInfo" })

/**
 * One claimable fee position of a wallet (virtual pool and DAMM v2). Only the first four
 * fields are always present.
 *
 * @since 0.1.0
 * @category resources
 */
export const ClaimablePosition = Schema.Struct({
  isCustomFeeVault: Schema.Boolean,
  baseMint: Schema.String,
  isMigrated: Schema.Boolean,
  totalClaimableLamportsUserShare: Schema.Number,
  programId: optionalNullable(Schema.String),
  quoteMint: optionalNullable(Schema.String),
  virtualPool: optionalNullable(Schema.String),
  virtualPoolAddress: optionalNullable(Schema.String),
  virtualPoolClaimableAmount: optionalNullable(Schema.Number),
  virtualPoolClaimableLamportsUserShare: optionalNullable(Schema.Number),
  dammPoolClaimableAmount: optionalNullable(Schema.Number),
  dammPoolClaimableLamportsUserShare: optionalNullable(Schema.Number),
  dammPoolAddress: optionalNullable(Schema.String),
  dammPositionInfo: optionalNullable(DammPositionInfo),
  claimableDisplayAmount: optionalNullable(Schema.Number),
  user: optionalNullable(Schema.String),
  claimerIndex: optionalNullable(Schema.Number),
  userBps: optionalNullable(Schema.Number),
  customFeeVault: optionalNullable(Schema.String),
  customFeeVaultClaimerA: optionalNullable(Schema.String),
  customFeeVaultClaimerB: optionalNullable(Schema.String),
  customFeeVaultClaimerSide: optionalNullable(Schema.Literal("A", "B"))
}).annotations({ identifier: "ClaimablePosition" })

/**
 * @since 0.1.0
 * @category resources
 */
export type ClaimablePosition = typeof ClaimablePosition.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const ClaimablePositions = Schema.Array(ClaimablePosition)

/**
 * A non-empty partner or deployer aggregate vault (one per wallet and quote mint).
 *
 * @since 0.1.0
 * @category resources
 */
export const AggregateVault = Schema.Struct({
  kind: Schema.Literal("partner", "deployer"),
  wallet: Schema.String,
  quoteMint: Schema.String,
  quoteDecimals: Schema.Number,
  vaultAta: Schema.String,
  claimableAmount: RawAmount,
  claimableDisplayAmount: Schema.Number
}).annotations({ identifier: "AggregateVault" })

/**
 * @since 0.1.0
 * @category resources
 */
export type AggregateVault = typeof AggregateVault.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const VaultClaimables = Schema.Struct({ vaults: Schema.Array(AggregateVault) }).annotations({
  identifier: "VaultClaimables"
})

/**
 * The mint and the token program that owns it (standard or extended).
 *
 * @since 0.1.0
 * @category resources
 */
export const AssetRef = Schema.Struct({ mint: PublicKey, tokenProgram: PublicKey }).annotations({
  identifier: "AssetRef"
})

/**
 * A ceiling on the active token transfer fee: rate and cap, checked independently.
 *
 * @since 0.1.0
 * @category requests
 */
export const FeeLimit = Schema.Struct({
  asset: AssetRef,
  basisPoints: BasisPoints,
  maximumFeeRaw: RawAmount
}).annotations({ identifier: "FeeLimit" })

/**
 * @since 0.1.0
 * @category requests
 */
export type FeeLimit = typeof FeeLimit.Type

/**
 * Which claimable source a plan claims from.
 *
 * @since 0.1.0
 * @category requests
 */
export const ClaimSource = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("position") }),
  Schema.Struct({ kind: Schema.Literal("pair") }),
  Schema.Struct({ kind: Schema.Literal("pool"), protocol: Schema.Literal("dbc", "damm_v2"), pool: PublicKey }),
  Schema.Struct({ kind: Schema.Literal("holding"), authority: PublicKey })
).annotations({ identifier: "ClaimSource" })

/**
 * @since 0.1.0
 * @category requests
 */
export type ClaimSource = typeof ClaimSource.Type

/**
 * Requested wire format of plan transactions.
 *
 * @since 0.1.0
 * @category requests
 */
export const TransactionFormat = Schema.Literal("v0", "v1")

/**
 * @since 0.1.0
 * @category requests
 */
export type TransactionFormat = typeof TransactionFormat.Type

/**
 * Limits stated by the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = { feeLimits: 4, additionalLookupTables: 8 } as const

/**
 * Body of the claim-plan operation.
 *
 * @since 0.1.0
 * @category requests
 */
export const ClaimPlanRequest = Schema.Struct({
  feeClaimer: PublicKey,
  tokenMint: PublicKey,
  quoteMint: optionalNullable(PublicKey),
  source: optionalNullable(ClaimSource),
  transactionFormat: optionalNullable(TransactionFormat),
  feeLimits: optionalNullable(ArrayBetween(FeeLimit, 0, limits.feeLimits)),
  additionalLookupTables: optionalNullable(ArrayBetween(PublicKey, 0, limits.additionalLookupTables))
}).annotations({ identifier: "ClaimPlanRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export type ClaimPlanRequest = typeof ClaimPlanRequest.Type
