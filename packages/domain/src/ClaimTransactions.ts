/**
 * Claims the service answers with ready transactions instead of a staged plan: the aggregate
 * vault sweep (`claim-vault`, gas-sponsored), the deployer's claimable positions and claim
 * transactions (gas-sponsored, fetched again until nothing remains), and the v3 claim
 * (`claim-txs/v3`, the wallet pays). They carry no plan metadata, so `@feeshare/solana`
 * verifies them by what they do. Which endpoint claims what is `route`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import type { ClaimablePosition } from "./Claims.js"
import { AggregateVault } from "./Claims.js"
import { TransactionEntry } from "./FeeShare.js"
import { optional } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * The aggregate vault kinds.
 *
 * @since 0.1.0
 * @category requests
 */
export const VaultKind = Schema.Literal("partner", "deployer")

/**
 * @since 0.1.0
 * @category requests
 */
export type VaultKind = typeof VaultKind.Type

/**
 * Body of `POST /token-launch/damm-v2/claim-vault`: the vault of `wallet` (also the
 * destination) in `quoteMint`.
 *
 * @since 0.1.0
 * @category requests
 */
export const VaultClaimRequest = Schema.Struct({
  kind: VaultKind,
  wallet: PublicKey,
  quoteMint: PublicKey
}).annotations({ identifier: "VaultClaimRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export type VaultClaimRequest = typeof VaultClaimRequest.Type

/**
 * The vault sweep: one base58 transaction, its fee paid (and signed) by the service's gas
 * sponsor, the wallet signing only as the authorizer; `claimable` is what it sweeps.
 *
 * @since 0.1.0
 * @category resources
 */
export const VaultClaim = Schema.Struct({
  transaction: Base58Transaction,
  claimable: AggregateVault
}).annotations({ identifier: "VaultClaim" })

/**
 * @since 0.1.0
 * @category resources
 */
export type VaultClaim = typeof VaultClaim.Type

/**
 * The message of the service's 400 when a vault, a deployer or a v3 claim finds nothing to
 * claim: an outcome, not a failure (`isNothingToClaim`).
 *
 * @since 0.1.0
 * @category constants
 */
export const nothingToClaimMessage = "Nothing to claim"

/**
 * `true` for the 400 message that says there is nothing to claim (any casing, possibly
 * followed by detail).
 *
 * @since 0.1.0
 * @category rules
 */
export const isNothingToClaim = (message: string): boolean =>
  message.trim().toLowerCase().startsWith(nothingToClaimMessage.toLowerCase())

/**
 * One token's deployer balances: pending in the DBC curve and in the DAMM v2 pool (not yet
 * moved into the deployer's vault). Decimal lamport strings on the wire.
 *
 * @since 0.1.0
 * @category resources
 */
export const DeployerToken = Schema.Struct({
  tokenMint: PublicKey,
  dbcPending: RawAmount,
  dammPending: RawAmount
}).annotations({ identifier: "DeployerToken" })

/**
 * @since 0.1.0
 * @category resources
 */
export type DeployerToken = typeof DeployerToken.Type

/**
 * `GET /fee-share/deployer/claimable-positions?wallet=`: per token the pending balances, and
 * the wallet-wide vault (its address, what it holds for the deployer, and the residual, kept
 * apart: lamports in the vault that are not the deployer's claimable revenue). The field names
 * are feeshare's reading: the reference does not publish them.
 *
 * @since 0.1.0
 * @category resources
 */
export const DeployerPositions = Schema.Struct({
  wallet: PublicKey,
  quoteMint: PublicKey,
  /** The wallet-wide deployer vault, null before the deployer has one. */
  vault: Schema.NullOr(PublicKey),
  vaultBalance: RawAmount,
  residual: RawAmount,
  tokens: Schema.Array(DeployerToken)
}).annotations({ identifier: "DeployerPositions" })

/**
 * @since 0.1.0
 * @category resources
 */
export type DeployerPositions = typeof DeployerPositions.Type

/**
 * What claiming everything of a deployer's positions pays: every token's pending balances
 * plus the vault's balance (the residual is not the deployer's).
 *
 * @since 0.1.0
 * @category rules
 */
export const deployerOwed = (positions: Pick<DeployerPositions, "vaultBalance" | "tokens">): bigint =>
  positions.tokens.reduce((total, token) => total + token.dbcPending + token.dammPending, positions.vaultBalance)

/**
 * Limits of the deployer claim: transactions per answer (feeshare's bound; the reference's
 * example asks for 10) and pool candidates the service tries per request.
 *
 * @since 0.1.0
 * @category constants
 */
export const deployerLimits = { maxTransactions: 20, poolCandidates: 20 } as const

/**
 * Body of `POST /fee-share/deployer/claim-txs`: `tokenMints` limits which pending pools are
 * collected (the vault is always emptied whole); `maxTransactions` caps the answer.
 *
 * @since 0.1.0
 * @category requests
 */
export const DeployerClaimRequest = Schema.Struct({
  wallet: PublicKey,
  tokenMints: optional(Schema.Array(PublicKey).pipe(Schema.maxItems(deployerLimits.poolCandidates))),
  maxTransactions: optional(Schema.Int.pipe(Schema.between(1, deployerLimits.maxTransactions)))
}).annotations({ identifier: "DeployerClaimRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export type DeployerClaimRequest = typeof DeployerClaimRequest.Type

/**
 * A claim the service could not fund or simulate safely, and why.
 *
 * @since 0.1.0
 * @category resources
 */
export const DeferredClaim = Schema.Struct({ tokenMint: PublicKey, reason: Schema.String }).annotations({
  identifier: "DeferredClaim"
})

/**
 * The deployer's claim batch: transactions to confirm in order (each base58, already signed
 * by the gas sponsor, who pays its fee), the claims deferred, and the token mints still
 * pending after this batch (ask again, after the batch landed, until it is empty).
 *
 * @since 0.1.0
 * @category resources
 */
export const DeployerClaimBatch = Schema.Struct({
  transactions: Schema.Array(TransactionEntry),
  deferredClaims: Schema.Array(DeferredClaim),
  remainingTokenMints: Schema.Array(PublicKey)
}).annotations({ identifier: "DeployerClaimBatch" })

/**
 * @since 0.1.0
 * @category resources
 */
export type DeployerClaimBatch = typeof DeployerClaimBatch.Type

/**
 * Body of `POST /token-launch/claim-txs/v3`: the claimer and the token (the service finds the
 * positions itself).
 *
 * @since 0.1.0
 * @category requests
 */
export const V3ClaimRequest = Schema.Struct({ feeClaimer: PublicKey, tokenMint: PublicKey }).annotations({
  identifier: "V3ClaimRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export type V3ClaimRequest = typeof V3ClaimRequest.Type

/**
 * One v3 claim transaction (base58, legacy or v0; the wallet pays) and the blockhash it was
 * built against.
 *
 * @since 0.1.0
 * @category resources
 */
export const V3ClaimTransaction = Schema.Struct({
  tx: Base58Transaction,
  blockhash: Schema.Struct({ blockhash: Schema.String, lastValidBlockHeight: Schema.Number })
}).annotations({ identifier: "V3ClaimTransaction" })

/**
 * @since 0.1.0
 * @category resources
 */
export type V3ClaimTransaction = typeof V3ClaimTransaction.Type

/**
 * The v3 claim: transactions to sign and send in array order.
 *
 * @since 0.1.0
 * @category resources
 */
export const V3ClaimTransactions = Schema.Array(V3ClaimTransaction).annotations({ identifier: "V3ClaimTransactions" })

/**
 * @since 0.1.0
 * @category resources
 */
export type V3ClaimTransactions = typeof V3ClaimTransactions.Type

/**
 * Where a claimable position is claimed: `v3` for SOL-quoted positions, `plan` (the staged
 * `create-claim-txs/v2` plan) for custom-quote positions (`API-NOTES` §9). Holding balances
 * are claimed by plans too (`source.kind = holding`); aggregate vaults by `claim-vault`,
 * deployer positions by the deployer claim.
 *
 * @since 0.1.0
 * @category rules
 */
export type Route = "v3" | "plan"

/**
 * The wrapped-SOL mint: the quote of SOL-quoted pools.
 *
 * @since 0.1.0
 * @category constants
 */
export const wrappedSolMint = "So11111111111111111111111111111111111111112"

/**
 * The endpoint that claims a position (see `Route`): v3 when its quote is wrapped SOL (or not
 * stated), a plan otherwise.
 *
 * @since 0.1.0
 * @category rules
 */
export const route = (position: Pick<ClaimablePosition, "quoteMint">): Route =>
  position.quoteMint === undefined || position.quoteMint === null || position.quoteMint === wrappedSolMint
    ? "v3"
    : "plan"
