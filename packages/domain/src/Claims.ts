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
 * The two token programs a mint can belong to (standard and extended), by short name.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenPrograms = {
  token: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "token-2022": "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
} as const

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
 * The fields of the claim-plan request (MCP tools take them as their parameters).
 *
 * @since 0.1.0
 * @category requests
 */
export const ClaimPlanRequestFields = {
  feeClaimer: PublicKey,
  tokenMint: PublicKey,
  quoteMint: optionalNullable(PublicKey),
  source: optionalNullable(ClaimSource),
  transactionFormat: optionalNullable(TransactionFormat),
  feeLimits: optionalNullable(ArrayBetween(FeeLimit, 0, limits.feeLimits)),
  additionalLookupTables: optionalNullable(ArrayBetween(PublicKey, 0, limits.additionalLookupTables))
}

/**
 * The rules that tie the options of a claim-plan request together, each a field path and a
 * rule.
 *
 * @since 0.1.0
 * @category constants
 */
export const planRules = {
  quoteMint: "must differ from tokenMint (it is the quote side of the pair)",
  feeLimitAsset: "must be the quoteMint: a fee limit bounds the transfer fee of the payout asset",
  duplicateFeeLimit: "is a second limit for the same asset",
  duplicateLookupTable: "appears twice",
  lookupTablesFormat: "apply to v0 transactions only (transactionFormat is v1)"
} as const

/**
 * The first broken rule of {@link planRules} in a claim-plan request, as a field path and a
 * rule; `undefined` when the options fit together.
 *
 * @since 0.1.0
 * @category validation
 */
export const claimPlanIssue = (request: {
  readonly tokenMint: string
  readonly quoteMint?: string | null | undefined
  readonly transactionFormat?: TransactionFormat | null | undefined
  readonly feeLimits?: ReadonlyArray<FeeLimit> | null | undefined
  readonly additionalLookupTables?: ReadonlyArray<string> | null | undefined
}): { readonly path: ReadonlyArray<string | number>; readonly rule: string } | undefined => {
  const quoteMint = request.quoteMint ?? undefined
  if (quoteMint === request.tokenMint) return { path: ["quoteMint"], rule: planRules.quoteMint }
  const assets = new Set<string>()
  for (const [i, limit] of (request.feeLimits ?? []).entries()) {
    if (quoteMint !== undefined && limit.asset.mint !== quoteMint) {
      return { path: ["feeLimits", i, "asset", "mint"], rule: planRules.feeLimitAsset }
    }
    if (assets.has(limit.asset.mint)) return { path: ["feeLimits", i, "asset"], rule: planRules.duplicateFeeLimit }
    assets.add(limit.asset.mint)
  }
  const tables = request.additionalLookupTables ?? []
  if (tables.length > 0 && request.transactionFormat === "v1") {
    return { path: ["additionalLookupTables"], rule: planRules.lookupTablesFormat }
  }
  const seen = new Set<string>()
  for (const [i, table] of tables.entries()) {
    if (seen.has(table)) return { path: ["additionalLookupTables", i], rule: planRules.duplicateLookupTable }
    seen.add(table)
  }
  return undefined
}

/**
 * Body of the claim-plan operation: the fields of {@link ClaimPlanRequestFields}, and the
 * rules of {@link claimPlanIssue} between them.
 *
 * @since 0.1.0
 * @category requests
 */
export const ClaimPlanRequest = Schema.Struct(ClaimPlanRequestFields).pipe(
  Schema.filter((request) => {
    const issue = claimPlanIssue(request)
    return issue === undefined || { path: issue.path, message: issue.rule }
  }),
  Schema.annotations({ identifier: "ClaimPlanRequest" })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type ClaimPlanRequest = typeof ClaimPlanRequest.Type
