/**
 * The request and resource types of the contract, for plain TypeScript users. Every one is
 * the `Type` of a domain Schema (decoded: amounts are `bigint`, API keys `Redacted`), never
 * a copy written by hand.
 *
 * @since 0.1.0
 */
import type * as AgentAuth from "@feeshare/domain/AgentAuth"
import type * as Analytics from "@feeshare/domain/Analytics"
import type { Pong as PongSchema } from "@feeshare/domain/Api"
import type * as Claims from "@feeshare/domain/Claims"
import type * as Evm from "@feeshare/domain/Evm"
import type * as FeeShare from "@feeshare/domain/FeeShare"
import type * as Identity from "@feeshare/domain/Identity"
import type * as Launch from "@feeshare/domain/Launch"

/** @since 0.1.0 @category claims */
export type {
  AggregateVault,
  ClaimablePosition,
  ClaimPlanRequest,
  ClaimSource,
  FeeLimit,
  TransactionFormat
} from "@feeshare/domain/Claims"
/** @since 0.1.0 @category claims */
export type WalletQuery = typeof Claims.WalletQuery.Type
/** @since 0.1.0 @category claims */
export type VaultClaimables = typeof Claims.VaultClaimables.Type
/** @since 0.1.0 @category plans */
export type { Budget, Operation, Readiness, Stage, StageKind, TransactionPlan } from "@feeshare/domain/Plan"
/** @since 0.1.0 @category fee share */
export type { TransactionEntries, TransactionEntry, UpdateConfigRequest } from "@feeshare/domain/FeeShare"
/** @since 0.1.0 @category fee share */
export type PartnerClaimRequest = typeof FeeShare.PartnerClaimRequest.Type
/** @since 0.1.0 @category fee share */
export type AdminTokens = typeof FeeShare.AdminTokens.Type
/** @since 0.1.0 @category launch */
export type { LaunchRequest } from "@feeshare/domain/Launch"

/** @since 0.1.0 */
export type {
  LaunchRecord,
  LaunchTokenRequest,
  ResolvedShare,
  Share,
  Step as LaunchStep
} from "@feeshare/domain/LaunchToken"
/** @since 0.1.0 @category launch */
export type { Event as LaunchEvent, Result as LaunchResult, TransactionCost } from "@feeshare/solana/LaunchToken"
/** @since 0.1.0 @category launch */
export type LaunchTransaction = typeof Launch.LaunchTransaction.Type
/** @since 0.1.0 @category trade */
export type { QuoteRequest, SwapRequest, SwapResult, TradeQuote } from "@feeshare/domain/Trade"
/** @since 0.1.0 @category analytics */
export type { ClaimStatistics, PoolEntry } from "@feeshare/domain/Analytics"
/** @since 0.1.0 @category analytics */
export type TokenMintQuery = typeof Analytics.TokenMintQuery.Type
/** @since 0.1.0 @category analytics */
export type PoolsQuery = typeof Analytics.PoolsQuery.Type
/** @since 0.1.0 @category evm */
export type { EvmClaimablePosition, IndexStatusRequest, IndexTokenStatus } from "@feeshare/domain/Evm"
/** @since 0.1.0 @category evm */
export type EvmPositions = typeof Evm.EvmPositions.Type
/** @since 0.1.0 @category evm */
export type CreationFee = typeof Evm.CreationFee.Type
/** @since 0.1.0 @category evm */
export type OwnerQuery = typeof Evm.OwnerQuery.Type
/** @since 0.1.0 @category identity */
export type { User } from "@feeshare/domain/Identity"
/** @since 0.1.0 @category identity */
export type Me = typeof Identity.Me.Type
/** @since 0.1.0 @category agent auth */
export type {
  CallbackRequest,
  CallbackResponse,
  Challenge,
  Credential,
  MfaRequired as MfaChallenge
} from "@feeshare/domain/AgentAuth"
/** @since 0.1.0 @category agent auth */
export type InitRequest = typeof AgentAuth.InitRequest.Type
/** @since 0.1.0 @category system */
export type Pong = typeof PongSchema.Type
/** @since 0.1.0 @category rate limits */
export type { RateLimitInfo } from "@feeshare/domain/RateLimit"
/** @since 0.1.0 @category chain */
export type { Commitment, Landed } from "@feeshare/solana/Chain"
/** @since 0.1.0 @category claims */
export type {
  DeployerClaimBatch,
  DeployerClaimRequest,
  DeployerPositions,
  DeployerToken,
  V3ClaimRequest,
  V3ClaimTransaction,
  V3ClaimTransactions,
  VaultClaim,
  VaultClaimRequest
} from "@feeshare/domain/ClaimTransactions"
/** @since 0.1.0 @category claims */
export type {
  Item as ClaimAllItem,
  ItemKind as ClaimAllItemKind,
  ItemState as ClaimAllItemState,
  Result as ClaimAllResult,
  Total as ClaimAllTotal
} from "@feeshare/solana/ClaimAll"
/** @since 0.1.0 @category chain */
export type { Event as PlanEvent, LandedStage, Result as PlanResult } from "@feeshare/solana/PlanExecutor"
/** @since 0.1.0 @category signers */
export type { Signer } from "@feeshare/domain/Signer"
