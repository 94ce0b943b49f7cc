/**
 * The market seam: the `Market` service's tag and interface, the setup API's inputs and
 * views, and `Rejection`. The areas of `internal/model/market/` implement it; `Market.ts`
 * re-exports every name.
 */
import type {
  Analytics,
  BundleRelay,
  ClaimEvents,
  Claims,
  ClaimTransactions,
  FeeShare,
  Launch,
  Plan,
  TokenInfo,
  Trade
} from "@feeshare/domain"
import { BasisPoints } from "@feeshare/domain/BasisPoints"
import { EvmAddress } from "@feeshare/domain/EvmAddress"
import * as LaunchWallet from "@feeshare/domain/LaunchWallet"
import { PublicKey } from "@feeshare/domain/PublicKey"
import { RawAmount } from "@feeshare/domain/RawAmount"
import { Context, type Effect, Schema } from "effect"

/**
 * A request the market refuses: the HTTP layer answers it with `status` and `message`
 * (400 invalid or nothing to claim, 403 not the admin, 404 unknown token).
 *
 * @since 0.1.0
 * @category errors
 */
export class Rejection extends Schema.TaggedError<Rejection>()("Rejection", {
  status: Schema.Literal(400, 403, 404, 500),
  message: Schema.String
}) {}

/**
 * Sandbox-only: create a token whose mint keypair the sandbox holds.
 *
 * @since 0.1.0
 * @category setup
 */
export const CreateTokenInput = Schema.Struct({
  /** The wallet that will launch the token; it is the fee-share admin until changed. */
  creator: PublicKey,
  name: Schema.optionalWith(Schema.String, { exact: true }),
  symbol: Schema.optionalWith(Schema.String, { exact: true }),
  /** Quote mint of the pool; wrapped SOL when absent. */
  quoteMint: Schema.optionalWith(PublicKey, { exact: true }),
  flow: Schema.optionalWith(Schema.Literal("dbc", "damm_v2_direct"), { exact: true }),
  decimals: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 9)), { exact: true })
})

/**
 * @since 0.1.0
 * @category setup
 */
export const CreatedToken = Schema.Struct({
  mint: PublicKey,
  configKey: PublicKey,
  quoteMint: PublicKey,
  decimals: Schema.Number
})

/**
 * Sandbox-only: a fee-share config (claimers and basis points, admin, optional partner).
 *
 * @since 0.1.0
 * @category setup
 */
export const CreateFeeShareConfigInput = Schema.Struct({
  mint: PublicKey,
  claimers: Schema.Array(Schema.Struct({ wallet: PublicKey, bps: BasisPoints })),
  admin: PublicKey,
  partner: Schema.optionalWith(PublicKey, { exact: true }),
  /** A two-claimer custom fee vault: positions report it (`isCustomFeeVault`, claimer A and B). */
  customFeeVault: Schema.optionalWith(Schema.Boolean, { exact: true })
})

/**
 * @since 0.1.0
 * @category setup
 */
export const FeeShareConfigView = Schema.Struct({
  mint: PublicKey,
  admin: PublicKey,
  partner: Schema.NullOr(PublicKey),
  claimers: Schema.Array(Schema.Struct({ wallet: PublicKey, bps: BasisPoints })),
  customFeeVault: Schema.NullOr(PublicKey)
})

/**
 * Sandbox-only: a holding balance. The token's holding-vault authority for the quote mint (a
 * key the sandbox holds, one per token and quote mint) receives `lamports` on the ledger and
 * holds them for `claimer`, who withdraws them with a claim plan whose `source` is
 * `{ kind: "holding", authority }`. In wrapped SOL (the default) the authority receives
 * lamports; in the sandbox's Token-2022 quote mint `lamports` is a raw token amount minted to
 * the authority's Token-2022 associated token account. At most 1,000,000,000,000,000 per request.
 *
 * @since 0.1.0
 * @category setup
 */
export const CreateHoldingInput = Schema.Struct({
  /** The token the balance belongs to. */
  mint: PublicKey,
  claimer: PublicKey,
  /** Raw amount in the quote mint's smallest unit (lamports for wrapped SOL). */
  lamports: RawAmount,
  /** Wrapped SOL when absent, or a mint listed by `quoteMints`. */
  quoteMint: Schema.optionalWith(PublicKey, { exact: true })
})

/**
 * A transfer-fee schedule of a Token-2022 quote mint: the rate and the cap of each transfer.
 *
 * @since 0.1.0
 * @category setup
 */
export const TransferFeeView = Schema.Struct({
  basisPoints: BasisPoints,
  maximumFeeRaw: RawAmount,
  /** The first epoch the schedule applies in. */
  epoch: RawAmount
})

/**
 * A quote mint of the sandbox: wrapped SOL (no transfer fee) or the Token-2022 mint with a
 * transfer fee, as read from the ledger.
 *
 * @since 0.1.0
 * @category setup
 */
export const QuoteMintView = Schema.Struct({
  mint: PublicKey,
  tokenProgram: PublicKey,
  decimals: Schema.Number,
  /** Mint, transfer-fee-config and withdraw-withheld authority (sandbox-held); null for wrapped SOL. */
  authority: Schema.NullOr(PublicKey),
  /** The ledger's current epoch. */
  epoch: RawAmount,
  /** The schedule active in the current epoch; null without a transfer fee. */
  transferFee: Schema.NullOr(TransferFeeView),
  /** A schedule set but not yet active (Token-2022 applies a new one two epochs later). */
  scheduledTransferFee: Schema.NullOr(TransferFeeView),
  /** Fees harvested to the mint (fees withheld in token accounts are not counted). */
  withheldInMint: RawAmount
})

/**
 * Sandbox-only: a new transfer-fee schedule for the Token-2022 quote mint. The sandbox lands
 * Token-2022's SetTransferFee (signed by the transfer-fee-config authority), which takes effect
 * two epochs later, then moves the ledger's epoch two forward so that it is active at once.
 *
 * @since 0.1.0
 * @category setup
 */
export const SetTransferFeeInput = Schema.Struct({
  mint: PublicKey,
  basisPoints: BasisPoints,
  maximumFeeRaw: RawAmount
})

/**
 * A claimer's holding balance: what the authority holds for it now (paid out in `quoteMint`).
 *
 * @since 0.1.0
 * @category setup
 */
export const HoldingView = Schema.Struct({
  mint: PublicKey,
  claimer: PublicKey,
  authority: PublicKey,
  quoteMint: PublicKey,
  held: RawAmount
})

/**
 * Sandbox-only: lamports for an address, 1 to 1,000,000 SOL per request (`Ledger.maxAirdropLamports`);
 * identical requests in one slot each land.
 *
 * @since 0.1.0
 * @category setup
 */
export const AirdropInput = Schema.Struct({ address: PublicKey, lamports: RawAmount })

/**
 * @since 0.1.0
 * @category setup
 */
export const AirdropResult = Schema.Struct({ signature: Schema.String, balance: RawAmount })

/**
 * Sandbox-only: move the block clock forward.
 *
 * @since 0.1.0
 * @category setup
 */
export const AdvanceSlotsInput = Schema.Struct({ slots: Schema.Int.pipe(Schema.between(1, 100_000)) })

/**
 * @since 0.1.0
 * @category setup
 */
export const ClockView = Schema.Struct({
  slot: RawAmount,
  blockHeight: RawAmount,
  blockhash: Schema.String
})

/**
 * Sandbox-only: a JSON snapshot of the ledger and the market (for inspection and tests).
 *
 * @since 0.1.0
 * @category setup
 */
export const LedgerState = Schema.Struct({
  clock: ClockView,
  tokens: Schema.Array(Schema.Struct({
    mint: PublicKey,
    symbol: Schema.String,
    launched: Schema.Boolean,
    migrated: Schema.Boolean,
    quoteMint: PublicKey,
    lifetimeFees: RawAmount
  }, Schema.Record({ key: Schema.String, value: Schema.Unknown })))
}, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/**
 * Sandbox-only: register a social handle's launch wallet in the sandbox's directory (the
 * `main` provider is the raw passthrough and needs none). The username is stored normalised
 * (lower-cased, one leading `@` removed); registering it again replaces its wallets.
 *
 * @since 0.1.0
 * @category setup
 */
export const RegisterHandleInput = Schema.Struct({
  provider: LaunchWallet.Provider,
  username: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(LaunchWallet.limits.maxUsername)),
  /** The SOL wallet. */
  wallet: PublicKey,
  /** The EVM wallet; absent: one is made (deterministic from the seed) on the first EVM lookup. */
  evmWallet: Schema.optionalWith(EvmAddress, { exact: true }),
  displayName: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100)), { exact: true })
})

/**
 * @since 0.1.0
 * @category setup
 */
export const HandleView = Schema.Struct({
  provider: LaunchWallet.Provider,
  username: Schema.String,
  platformData: LaunchWallet.PlatformData,
  wallet: PublicKey,
  evmWallet: Schema.NullOr(Schema.String)
})

/**
 * A token's uploaded image, as the media route serves it.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredImage {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/**
 * Where the sandbox serves a token's media (metadata JSON, image), given the mint.
 *
 * @since 0.1.0
 * @category models
 */
export interface MediaUrls {
  /** The URL of a token's metadata JSON. */
  readonly metadata: (mint: string) => string
  /** The URL of a token's uploaded image. */
  readonly image: (mint: string) => string
}

/**
 * A hostile variant of a gas-sponsored transaction (`--tamper sponsor-*`): the wallet pays
 * the fee, the payout goes elsewhere, or an extra transfer moves lamports out of the wallet.
 *
 * @since 0.1.0
 * @category models
 */
export type SponsoredHostile = "fee-payer" | "destination" | "extra-transfer"

/**
 * @since 0.1.0
 * @category tags
 */
export class Market extends Context.Tag("@feeshare/sandbox/Market")<Market, Market.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Market {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly createPlan: (request: Claims.ClaimPlanRequest) => Effect.Effect<Plan.TransactionPlan, Rejection>
    readonly positions: (wallet: PublicKey) => Effect.Effect<ReadonlyArray<Claims.ClaimablePosition>, Rejection>
    readonly vaults: (wallet: PublicKey) => Effect.Effect<typeof Claims.VaultClaimables.Type, Rejection>
    /**
     * The vault sweep: one gas-sponsored transaction paying the vault into the wallet's
     * wrapped-SOL account; `hostile` builds one of the `--tamper sponsor-*` variants.
     */
    readonly claimVault: (
      request: ClaimTransactions.VaultClaimRequest,
      hostile?: SponsoredHostile
    ) => Effect.Effect<ClaimTransactions.VaultClaim, Rejection>
    /** A deployer's pending balances per token and its vault. */
    readonly deployerPositions: (wallet: PublicKey) => Effect.Effect<ClaimTransactions.DeployerPositions, Rejection>
    /** A deployer's gas-sponsored claim batch; `hostile` tampers its first transaction. */
    readonly deployerClaim: (
      request: ClaimTransactions.DeployerClaimRequest,
      hostile?: SponsoredHostile
    ) => Effect.Effect<ClaimTransactions.DeployerClaimBatch, Rejection>
    /** The v3 claim of a position: the wallet's own transaction. */
    readonly claimV3: (
      request: ClaimTransactions.V3ClaimRequest
    ) => Effect.Effect<ClaimTransactions.V3ClaimTransactions, Rejection>
    /**
     * Config creation: the config account and the deployer's funding, as two transactions in
     * order or, above 7 claimers, one bundle; `needsCreation: false` once it landed.
     */
    readonly createConfig: (
      request: FeeShare.CreateConfigRequest
    ) => Effect.Effect<FeeShare.CreateConfigAnswer, Rejection>
    readonly updateConfig: (
      request: FeeShare.UpdateConfigRequest
    ) => Effect.Effect<FeeShare.TransactionEntries, Rejection>
    readonly partnerClaim: (partnerWallet: PublicKey) => Effect.Effect<FeeShare.TransactionEntries, Rejection>
    readonly adminList: (wallet: PublicKey) => Effect.Effect<typeof FeeShare.AdminTokens.Type, Rejection>
    /** The launch transaction, base58, already signed by the mint. */
    readonly launch: (request: Launch.LaunchRequest) => Effect.Effect<string, Rejection>
    /** Stores token info and makes the mint (its keypair stays in the sandbox). */
    readonly createTokenInfo: (
      request: TokenInfo.TokenInfoRequest,
      urls: MediaUrls
    ) => Effect.Effect<TokenInfo.TokenInfo, Rejection>
    /** The metadata JSON of a token made by token info (404 otherwise). */
    readonly tokenMetadata: (mint: string) => Effect.Effect<typeof TokenInfo.TokenMetadata.Type, Rejection>
    /** The uploaded image of a token made by token info (404 when none). */
    readonly tokenImage: (mint: string) => Effect.Effect<StoredImage, Rejection>
    /** A handle's launch wallet; 404 when the directory has none. */
    readonly lookupWallet: (lookup: LaunchWallet.Lookup) => Effect.Effect<LaunchWallet.LaunchWallet, Rejection>
    /** Handles' launch wallets in input order; a miss is a null wallet. */
    readonly lookupWallets: (
      request: LaunchWallet.BulkLookupRequest
    ) => Effect.Effect<LaunchWallet.BulkLaunchWallets, Rejection>
    readonly quote: (request: Trade.QuoteRequest) => Effect.Effect<Trade.TradeQuote, Rejection>
    readonly swap: (request: Trade.SwapRequest) => Effect.Effect<Trade.SwapResult, Rejection>
    readonly lifetimeFees: (tokenMint: PublicKey) => Effect.Effect<bigint, Rejection>
    readonly claimStats: (tokenMint: PublicKey) => Effect.Effect<ReadonlyArray<Analytics.ClaimStatistics>, Rejection>
    /** Landed claims of a token, newest first (offset or time mode). */
    readonly claimEvents: (query: ClaimEvents.ClaimEventsQuery) => Effect.Effect<ClaimEvents.ClaimEvents, Rejection>
    readonly pools: (onlyMigrated: boolean) => Effect.Effect<ReadonlyArray<Analytics.PoolEntry>, Rejection>

    readonly createToken: (input: typeof CreateTokenInput.Type) => Effect.Effect<typeof CreatedToken.Type, Rejection>
    readonly createFeeShareConfig: (
      input: typeof CreateFeeShareConfigInput.Type
    ) => Effect.Effect<typeof FeeShareConfigView.Type, Rejection>
    /** Registers (or replaces) a handle's launch wallets in the directory. */
    readonly registerHandle: (
      input: typeof RegisterHandleInput.Type
    ) => Effect.Effect<typeof HandleView.Type, Rejection>
    readonly createHolding: (input: typeof CreateHoldingInput.Type) => Effect.Effect<typeof HoldingView.Type, Rejection>
    /** The bundle relay: the transactions land together, in order, or none of them. */
    readonly relayBundle: (input: BundleRelay.RelayRequest) => Effect.Effect<BundleRelay.RelayAnswer, Rejection>
    readonly airdrop: (input: typeof AirdropInput.Type) => Effect.Effect<typeof AirdropResult.Type, Rejection>
    readonly advanceSlots: (input: typeof AdvanceSlotsInput.Type) => Effect.Effect<typeof ClockView.Type, Rejection>
    /** The quote mints and their transfer-fee schedules, as on the ledger now. */
    readonly quoteMints: Effect.Effect<ReadonlyArray<typeof QuoteMintView.Type>, Rejection>
    readonly setTransferFee: (
      input: typeof SetTransferFeeInput.Type
    ) => Effect.Effect<typeof QuoteMintView.Type, Rejection>
    readonly state: Effect.Effect<typeof LedgerState.Type>
  }
}
