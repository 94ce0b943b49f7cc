/**
 * The tools of `feeshare mcp`, as definitions only (names; descriptions, for the reads, from the
 * contract's operation summaries; parameters from the domain Schemas; structured results). The handlers are in `Handlers`; `docs/mcp.md` lists
 * these definitions (`Docs`).
 *
 * @since 0.1.0
 */
import { McpSchema, Tool, Toolkit } from "@effect/ai"
import { OpenApi } from "@effect/platform"
import {
  AgentAuth,
  Analytics,
  Api,
  ClaimEvents,
  Claims,
  Evm,
  FeeShare,
  Identity,
  Launch,
  LaunchToken,
  PublicKey,
  RateLimit,
  Trade
} from "@feeshare/domain"
import { Context, Option, Schema, Struct } from "effect"
import * as WritePolicy from "./WritePolicy.js"

/**
 * Every failure of a tool, as the agent sees it (`isError: true`): the failure's own tag
 * (`Unauthorized`, `RateLimited`, `InvalidRequest`, `PolicyViolation`, a verification refusal
 * such as `HashMismatch`, …), its message, and the field and rule or the policy rule at fault.
 * Never a secret: messages come from errors that carry none.
 *
 * @since 0.1.0
 * @category failures
 */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  error: Schema.String,
  message: Schema.String,
  field: Schema.optional(Schema.String),
  rule: Schema.optional(Schema.String),
  status: Schema.optional(Schema.Number),
  /** `execute` stopped: the rebuilt plan no longer matches; this preview replaces the old one. */
  newPreviewId: Schema.optional(Schema.String)
}) {}

/**
 * The summary of an operation of the contract (`Api.Api`): the read tools describe themselves
 * with what `docs/openapi.json` says of the operation.
 *
 * @since 0.1.0
 * @category docs
 */
export const summary = (group: string, endpoint: string): string => {
  const found = Object.values(Api.Api.groups)
    .find((candidate) => candidate.identifier === group)
    ?.endpoints
  const operation = found === undefined
    ? undefined
    : Object.values(found).find((candidate) => candidate.name === endpoint)
  return operation === undefined
    ? ""
    : Option.getOrElse(Context.getOption(operation.annotations, OpenApi.Summary), () => "")
}

const Lamports = Schema.String.annotations({ description: "lamports, as a decimal string" })

/**
 * One transaction a preview would sign.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StagePreview = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  requiredSigners: Schema.Array(Schema.String),
  /** Signers whose signature came with the transaction (verified); the wallet signs for the others. */
  presigned: Schema.Array(Schema.String),
  /** Every account the message names (static keys). */
  accounts: Schema.Array(Schema.String),
  networkFeeLamports: Lamports,
  messageSha256: Schema.String
})

/**
 * What `prepare_claim_all` found and `execute` did with it: one row per item (a position, an
 * aggregate vault, the deployer's positions) and the totals per payout asset.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ClaimAllRows = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    kind: Schema.Literal("position", "vault", "deployer"),
    /** How it is claimed: `v3`, a staged `plan`, the vault sweep, or deployer batches. */
    route: Schema.String,
    /** The token mint (a position), or the vault. */
    subject: Schema.String,
    /** The payout asset (mint). */
    asset: Schema.String,
    /** What the listing said is owed, in the asset's smallest unit. */
    amount: Schema.String,
    /** `verified` (the preview), `claimed`, `nothing`, `refused` (nothing of it signed) or `failed`. */
    state: Schema.String,
    /** Transactions verified (the preview) or landed. */
    stages: Schema.Number,
    signatures: Schema.Array(Schema.String),
    error: Schema.NullOr(Schema.String)
  })),
  totals: Schema.Array(Schema.Struct({ asset: Schema.String, owed: Schema.String, claimed: Schema.String }))
})

/**
 * What a `prepare_*` tool verified and what `execute` with `previewId` would sign.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Preview = Schema.Struct({
  previewId: Schema.String,
  expiresAt: Schema.String,
  action: Schema.Literal("claim", "swap", "launch", "fee_share_update", "partner_claim", "token_launch", "claim_all"),
  wallet: Schema.String,
  mints: Schema.Array(Schema.String),
  /** Claims: `ready`, or `setup_required` (the lookup-table stages land first, then the plan is rebuilt). */
  readiness: Schema.optional(Schema.String),
  /** SOL the transactions move out of the wallet on purpose (a swap's input). */
  lamportsSpent: Lamports,
  networkFeesLamports: Lamports,
  stages: Schema.Array(StagePreview),
  verification: Schema.Struct({ verified: Schema.Boolean, checks: Schema.Array(Schema.String) }),
  /** A token launch: the split, the deployer's share, the config type, rent and initial buy. */
  launch: Schema.optional(Schema.Struct({
    metadataUrl: Schema.String,
    shares: Schema.Array(Schema.Struct({
      label: Schema.String,
      wallet: Schema.String,
      bps: Schema.Number,
      handle: Schema.Boolean
    })),
    deployer: Schema.String,
    deployerBps: Schema.Number,
    configType: Schema.String,
    /** Rent of the config's accounts and the deployer's funding, moved out of the wallet. */
    rentLamports: Lamports,
    initialBuyLamports: Lamports
  })),
  /** `prepare_claim_all`: every item the wallet is owed, as verified. */
  claimAll: Schema.optional(ClaimAllRows),
  note: Schema.String
})

/**
 * @since 0.1.0
 * @category models
 */
export type Preview = typeof Preview.Type

const wallet = {
  wallet: Schema.optional(PublicKey.PublicKey).annotations({
    description: "the signing wallet (default: the first wallet of the policy)"
  })
}

/**
 * @since 0.1.0
 * @category tools
 */
export const Positions = Tool.make("positions", {
  description: summary("claims", "positions"),
  parameters: Claims.WalletQuery.fields,
  success: Schema.Struct({ positions: Claims.ClaimablePositions }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const VaultClaimables = Tool.make("vault_claimables", {
  description: summary("claims", "vaults"),
  parameters: Claims.WalletQuery.fields,
  success: Claims.VaultClaimables,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const AdminList = Tool.make("admin_list", {
  description: summary("feeShare", "adminList"),
  parameters: Claims.WalletQuery.fields,
  success: FeeShare.AdminTokens,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const LifetimeFees = Tool.make("lifetime_fees", {
  description: summary("analytics", "lifetimeFees"),
  parameters: Analytics.TokenMintQuery.fields,
  success: Schema.Struct({ tokenMint: Schema.String, lifetimeFeesLamports: Analytics.LifetimeFees }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const ClaimStats = Tool.make("claim_stats", {
  description: summary("analytics", "claimStats"),
  parameters: Analytics.TokenMintQuery.fields,
  success: Schema.Struct({ claimers: Analytics.ClaimStatisticsList }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

const wholeNumber = (description: string) => Schema.optional(Schema.Int.annotations({ description }))

/**
 * @since 0.1.0
 * @category tools
 */
export const ClaimEventsTool = Tool.make("claim_events", {
  description: summary("analytics", "claimEvents"),
  parameters: {
    tokenMint: PublicKey.PublicKey,
    mode: Schema.optional(
      Schema.Literal("offset", "time").annotations({ description: "offset (default): a page; time: from..to" })
    ),
    limit: wholeNumber(`offset mode: events per page, 1 to ${ClaimEvents.limits.maxLimit} (default 100)`),
    offset: wholeNumber("offset mode: events to skip, newest first (default 0)"),
    from: wholeNumber("time mode: unix seconds, inclusive (required)"),
    to: wholeNumber("time mode: unix seconds, inclusive, at least from (required)")
  },
  success: ClaimEvents.ClaimEvents,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const Pools = Tool.make("pools", {
  description: summary("analytics", "pools"),
  parameters: Analytics.PoolsQuery.fields,
  success: Schema.Struct({ pools: Analytics.Pools }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const Quote = Tool.make("quote", {
  description: summary("trade", "quote"),
  parameters: Trade.QuoteRequest.from.fields,
  success: Trade.TradeQuote,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const EvmIndexStatus = Tool.make("evm_index_status", {
  description: summary("evm", "indexTokenStatus"),
  parameters: Evm.IndexStatusRequest.fields,
  success: Schema.Struct({ statuses: Evm.IndexTokenStatuses }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const EvmPositions = Tool.make("evm_positions", {
  description: summary("evm", "claimablePositions"),
  parameters: Evm.OwnerQuery.fields,
  success: Evm.EvmPositions,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const EvmCreationFee = Tool.make("evm_creation_fee", {
  description: summary("evm", "creationFee"),
  success: Evm.CreationFee,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const Me = Tool.make("me", {
  description: summary("identity", "me"),
  success: Identity.Me,
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const RateLimitStatus = Tool.make("rate_limit_status", {
  description: summary("system", "ping"),
  success: Schema.Struct({ rateLimit: Schema.NullOr(RateLimit.RateLimitInfo) }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const PolicyStatus = Tool.make("policy", {
  description: "The policy this server enforces (set by the human; no tool can change it), with the signing wallets' " +
    "public keys in `wallets`, and what is left today of the daily caps",
  success: Schema.Struct({
    policy: WritePolicy.Policy,
    remainingToday: Schema.Struct({
      swapLamports: Schema.NullOr(Schema.String),
      networkFeesLamports: Schema.NullOr(Schema.String)
    })
  }),
  failure: ToolFailure
}).annotate(Tool.Readonly, true).annotate(Tool.Destructive, false)

/**
 * @since 0.1.0
 * @category tools
 */
export const Login = Tool.make("login", {
  description: "Only when the server has no API key: sign the service's login challenge with the wallet and use the " +
    "new API key for this session (it is never shown). An MFA code is asked of the human (MCP elicitation), never of " +
    "the agent; without elicitation a wallet with MFA is refused.",
  parameters: {
    keyName: Schema.optional(AgentAuth.SignatureCallback.fields.keyName).annotations({
      description: "label of the new API key (default feeshare-mcp)"
    }),
    ...wallet
  },
  success: Schema.Struct({
    wallet: Schema.String,
    keyId: Schema.String,
    keyName: Schema.String,
    isSignup: Schema.Boolean
  }),
  failure: ToolFailure,
  dependencies: [McpSchema.McpServerClient]
})

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareClaim = Tool.make("prepare_claim", {
  description: "Build a claim plan for a token and VERIFY every transaction; returns a preview and a short-lived, " +
    "single-use preview id for `execute`. Nothing is signed.",
  parameters: { ...Struct.omit(Claims.ClaimPlanRequestFields, "feeClaimer"), ...wallet },
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareSwap = Tool.make("prepare_swap", {
  description: "Quote and build a swap and VERIFY its transaction against the policy's caps; returns a preview and " +
    "a short-lived, single-use preview id for `execute`. Nothing is signed.",
  parameters: { ...Trade.QuoteRequest.from.fields, ...wallet },
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareLaunch = Tool.make("prepare_launch", {
  description: "Build a token launch (already signed by the mint) and VERIFY it; the initial buy and the tip count " +
    "against the swap caps. Returns a preview and a single-use preview id for `execute`. Nothing is signed.",
  parameters: { ...Struct.omit(Launch.LaunchRequest.from.fields, "wallet"), ...wallet },
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

const tokenFields = LaunchToken.LaunchTokenRequest.from.fields

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareTokenLaunch = Tool.make("prepare_token_launch", {
  description: "Launch a token from nothing, step one: check the inputs, resolve the handles (the preview shows who " +
    "gets what and the deployer's 25 %), upload the token info (free; the service makes the mint) and VERIFY the " +
    "config's transactions; the preview shows the config type, rent, fees and initial buy (the initial buy and the " +
    "tip count against the swap caps). At most 7 shares. Returns a single-use preview id for `execute`, which " +
    "creates the config and launches. Nothing is signed.",
  parameters: {
    ...Struct.omit(tokenFields, "image"),
    imageBase64: Schema.optional(Schema.String.pipe(Schema.maxLength(20_000_001))).annotations({
      description: "the image file (PNG, JPEG, GIF or WebP, at most 15,000,000 bytes), base64; or give imageUrl"
    }),
    ...wallet
  },
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareFeeShareUpdate = Tool.make("prepare_fee_share_update", {
  description: "Build the replacement of a token's fee claimers (the wallet is the admin and pays) and VERIFY every " +
    "transaction; returns a preview and a single-use preview id for `execute`. Nothing is signed.",
  parameters: { ...Struct.omit(FeeShare.UpdateConfigRequest.from.fields, "payer"), ...wallet },
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const PreparePartnerClaim = Tool.make("prepare_partner_claim", {
  description: "Build the claim of the wallet's accumulated partner fees and VERIFY every transaction; returns a " +
    "preview and a single-use preview id for `execute`. Nothing is signed.",
  parameters: wallet,
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const PrepareClaimAll = Tool.make("prepare_claim_all", {
  description: "Find everything the wallet is owed (claimable positions, aggregate vaults, the deployer's " +
    "positions) and VERIFY every transaction of each; returns one row per item, the totals per asset and a " +
    "single-use preview id for `execute`, which claims them all. Nothing is signed. Refused while the policy " +
    "sets allowedMints (the claims touch every mint the wallet is owed in).",
  parameters: wallet,
  success: Preview,
  failure: ToolFailure
}).annotate(Tool.Readonly, true)

/**
 * @since 0.1.0
 * @category tools
 */
export const Execute = Tool.make("execute", {
  description: "Sign and send what a preview showed, once. A claim plan rebuilt on the way (lookup-table setup, an " +
    "expired blockhash) is signed only while it matches the preview; otherwise execute stops with a new preview id.",
  parameters: { previewId: Schema.String },
  success: Schema.Struct({
    previewId: Schema.String,
    action: Preview.fields.action,
    landed: Schema.Array(
      Schema.Struct({ id: Schema.String, kind: Schema.String, signature: Schema.String, slot: Schema.String })
    ),
    rebuilds: Schema.Number,
    /** `claim_all`: every item as it ended. */
    claimAll: Schema.optional(ClaimAllRows)
  }),
  failure: ToolFailure,
  dependencies: [McpSchema.McpServerClient]
}).annotate(Tool.Destructive, true)

/**
 * Every tool of the server.
 *
 * @since 0.1.0
 * @category tools
 */
export const toolkit = Toolkit.make(
  Positions,
  VaultClaimables,
  AdminList,
  LifetimeFees,
  ClaimStats,
  ClaimEventsTool,
  Pools,
  Quote,
  EvmIndexStatus,
  EvmPositions,
  EvmCreationFee,
  Me,
  RateLimitStatus,
  PolicyStatus,
  Login,
  PrepareClaim,
  PrepareSwap,
  PrepareLaunch,
  PrepareTokenLaunch,
  PrepareFeeShareUpdate,
  PreparePartnerClaim,
  PrepareClaimAll,
  Execute
)
