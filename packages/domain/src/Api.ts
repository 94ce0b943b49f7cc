/**
 * The contract, defined once: every operation's method, path, query, body, success payload
 * and auth, as an `HttpApi`. The sandbox serves it, the client executes it, and
 * `docs/openapi.json` is generated from it.
 *
 * @since 0.1.0
 */
import {
  FileSystem,
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "@effect/platform"
import { Context, Option, Schema } from "effect"
import * as AgentAuth from "./AgentAuth.js"
import * as Analytics from "./Analytics.js"
import * as ClaimEvents from "./ClaimEvents.js"
import * as Claims from "./Claims.js"
import * as ClaimTransactions from "./ClaimTransactions.js"
import { Success } from "./Envelope.js"
import * as Evm from "./Evm.js"
import * as FeeShare from "./FeeShare.js"
import {
  BadRequestWire,
  ForbiddenWire,
  NotFoundWire,
  RateLimitedWire,
  ServerErrorWire,
  UnauthorizedWire
} from "./FeeShareError.js"
import * as Identity from "./Identity.js"
import * as Launch from "./Launch.js"
import * as LaunchWallet from "./LaunchWallet.js"
import * as Plan from "./Plan.js"
import * as TokenInfo from "./TokenInfo.js"
import * as Trade from "./Trade.js"

/**
 * The path `{base_url}` adds to `{root_url}`.
 *
 * @since 0.1.0
 * @category constants
 */
export const basePath = "/api/v1"

/**
 * The header that carries the API key.
 *
 * @since 0.1.0
 * @category constants
 */
export const apiKeyHeader = "x-api-key"

/**
 * The account an API key belongs to, provided to handlers by `ApiKey` on the server.
 *
 * @since 0.1.0
 * @category security
 */
export class Account extends Context.Tag("@feeshare/domain/Account")<Account, {
  readonly userId: string
  readonly keyId: string
}>() {}

/**
 * `x-api-key` security, required by every group except `agentAuth` and `system`.
 *
 * @since 0.1.0
 * @category security
 */
export class ApiKey extends HttpApiMiddleware.Tag<ApiKey>()("@feeshare/domain/ApiKey", {
  failure: UnauthorizedWire,
  provides: Account,
  security: { apiKey: HttpApiSecurity.apiKey({ key: apiKeyHeader, in: "header" }) }
}) {}

/**
 * The ping answer (no envelope).
 *
 * @since 0.1.0
 * @category resources
 */
export const Pong = Schema.Struct({ message: Schema.String }).annotations({ identifier: "Pong" })

/**
 * @since 0.1.0
 * @category groups
 */
export const ClaimsGroup = HttpApiGroup.make("claims")
  .add(
    HttpApiEndpoint.post("createPlan", "/token-launch/create-claim-txs/v2")
      .setPayload(Claims.ClaimPlanRequest)
      .addSuccess(Success(Plan.TransactionPlan))
      .annotate(OpenApi.Summary, "Build a claim plan for custom-quote fees or a holding balance")
  )
  .add(
    HttpApiEndpoint.get("positions", "/token-launch/claimable-positions")
      .setUrlParams(Claims.WalletQuery)
      .addSuccess(Success(Claims.ClaimablePositions))
      .annotate(OpenApi.Summary, "Claimable fee positions of a wallet")
  )
  .add(
    HttpApiEndpoint.get("vaults", "/token-launch/damm-v2/vault-claimables")
      .setUrlParams(Claims.WalletQuery)
      .addSuccess(Success(Claims.VaultClaimables))
      .annotate(OpenApi.Summary, "Partner/deployer aggregate vault balances of a wallet")
  )
  .add(
    HttpApiEndpoint.post("claimVault", "/token-launch/damm-v2/claim-vault")
      .setPayload(ClaimTransactions.VaultClaimRequest)
      .addSuccess(Success(ClaimTransactions.VaultClaim))
      .annotate(
        OpenApi.Summary,
        "Sweep a partner/deployer aggregate vault into the wallet (gas-sponsored; 400 Nothing to claim)"
      )
  )
  .add(
    HttpApiEndpoint.get("deployerPositions", "/fee-share/deployer/claimable-positions")
      .setUrlParams(Claims.WalletQuery)
      .addSuccess(Success(ClaimTransactions.DeployerPositions))
      .annotate(OpenApi.Summary, "A deployer's pending balances per token and its vault")
  )
  .add(
    HttpApiEndpoint.post("deployerClaim", "/fee-share/deployer/claim-txs")
      .setPayload(ClaimTransactions.DeployerClaimRequest)
      .addSuccess(Success(ClaimTransactions.DeployerClaimBatch))
      .annotate(
        OpenApi.Summary,
        "A deployer's claim transactions (gas-sponsored, confirm in order; ask again while tokens remain)"
      )
  )
  .add(
    HttpApiEndpoint.post("claimV3", "/token-launch/claim-txs/v3")
      .setPayload(ClaimTransactions.V3ClaimRequest)
      .addSuccess(Success(ClaimTransactions.V3ClaimTransactions))
      .annotate(OpenApi.Summary, "Claim transactions of a SOL-quoted position (the wallet pays; send in order)")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * @since 0.1.0
 * @category groups
 */
export const FeeShareGroup = HttpApiGroup.make("feeShare")
  .add(
    HttpApiEndpoint.post("createConfig", "/fee-share/config")
      .setPayload(FeeShare.CreateConfigRequest)
      .addSuccess(Success(FeeShare.CreateConfigAnswer))
      .annotate(
        OpenApi.Summary,
        "Create a token's fee-share config: bundles (each lands whole) first, then transactions in order"
      )
  )
  .add(
    HttpApiEndpoint.post("updateConfig", "/fee-share/admin/update-config")
      .setPayload(FeeShare.UpdateConfigRequest)
      .addSuccess(Success(FeeShare.TransactionEntries))
  )
  .add(
    HttpApiEndpoint.post("partnerClaim", "/fee-share/partner-config/claim-tx")
      .setPayload(FeeShare.PartnerClaimRequest)
      .addSuccess(Success(FeeShare.TransactionEntries))
  )
  .add(
    HttpApiEndpoint.get("adminList", "/fee-share/admin/list")
      .setUrlParams(Claims.WalletQuery)
      .addSuccess(Success(FeeShare.AdminTokens))
      .annotate(OpenApi.Summary, "Token mints a wallet is fee-share admin of")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * The statuses whose failure body carries the message in `response` instead of `error`
 * (`{success:false, response:<message>}`), as an endpoint annotation. Servers answer those
 * statuses in that shape; the client reads `error`, else `response`, on every operation.
 *
 * @since 0.1.0
 * @category annotations
 */
export class MessageInResponse extends Context.Tag("@feeshare/domain/Api/MessageInResponse")<
  MessageInResponse,
  ReadonlyArray<number>
>() {}

/**
 * The multipart limits of the token-info form: one file part of at most
 * `TokenInfo.limits.maxImageBytes`, a handful of text parts, and the whole body at most the
 * file plus 64 KiB of text and part headers. Servers read them from the endpoint's payload
 * annotation (`HttpApiSchema.getMultipart`); no other route takes a body this large.
 *
 * @since 0.1.0
 * @category constants
 */
export const tokenInfoMultipartLimits = {
  maxParts: Option.some(16),
  maxFieldSize: FileSystem.Size(8 * 1024),
  maxFileSize: Option.some(FileSystem.Size(TokenInfo.limits.maxImageBytes)),
  maxTotalSize: Option.some(FileSystem.Size(TokenInfo.limits.maxImageBytes + 64 * 1024))
} as const

/**
 * @since 0.1.0
 * @category groups
 */
export const LaunchGroup = HttpApiGroup.make("launch")
  .add(
    HttpApiEndpoint.post("createTransaction", "/token-launch/create-launch-transaction")
      .setPayload(Launch.LaunchRequest)
      .addSuccess(Success(Launch.LaunchTransaction))
  )
  .add(
    HttpApiEndpoint.post("createTokenInfo", "/token-launch/create-token-info")
      .setPayload(HttpApiSchema.Multipart(TokenInfo.TokenInfoRequest, tokenInfoMultipartLimits))
      .addSuccess(Success(TokenInfo.TokenInfo))
      .annotate(
        OpenApi.Summary,
        "Store a token's name, symbol, description, image and links; the service makes the mint (multipart/form-data, image at most 15 MB)"
      )
  )
  .add(
    HttpApiEndpoint.get("wallet", "/token-launch/fee-share/wallet/v2")
      .setUrlParams(LaunchWallet.Lookup)
      .addSuccess(Success(LaunchWallet.LaunchWallet))
      .annotate(MessageInResponse, [400, 404, 500])
      .annotate(OpenApi.Summary, "The launch wallet of a social handle (404 when none)")
  )
  .add(
    HttpApiEndpoint.post("wallets", "/token-launch/fee-share/wallet/v2/bulk")
      .setPayload(LaunchWallet.BulkLookupRequest)
      .addSuccess(Success(LaunchWallet.BulkLaunchWallets))
      .annotate(MessageInResponse, [400, 500])
      .annotate(OpenApi.Summary, "Launch wallets of 1 to 100 handles, in input order (a miss is a null wallet)")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * @since 0.1.0
 * @category groups
 */
export const TradeGroup = HttpApiGroup.make("trade")
  .add(
    HttpApiEndpoint.get("quote", "/trade/quote")
      .setUrlParams(Trade.QuoteRequest)
      .addSuccess(Success(Trade.TradeQuote))
      .annotate(OpenApi.Summary, "Quote a swap (amount in the input token's smallest unit)")
  )
  .add(
    HttpApiEndpoint.post("swap", "/trade/swap")
      .setPayload(Trade.SwapRequest)
      .addSuccess(Success(Trade.SwapResult))
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * @since 0.1.0
 * @category groups
 */
export const AnalyticsGroup = HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("lifetimeFees", "/token-launch/lifetime-fees")
      .setUrlParams(Analytics.TokenMintQuery)
      .addSuccess(Success(Analytics.LifetimeFees))
      .annotate(OpenApi.Summary, "Lifetime fees of a token, in lamports")
  )
  .add(
    HttpApiEndpoint.get("claimStats", "/token-launch/claim-stats")
      .setUrlParams(Analytics.TokenMintQuery)
      .addSuccess(Success(Analytics.ClaimStatisticsList))
      .annotate(OpenApi.Summary, "What every fee claimer of a token has claimed")
  )
  .add(
    HttpApiEndpoint.get("claimEvents", "/fee-share/token/claim-events")
      .setUrlParams(ClaimEvents.ClaimEventsQuery)
      .addSuccess(Success(ClaimEvents.ClaimEvents))
      .annotate(MessageInResponse, [400, 500])
      .annotate(
        OpenApi.Summary,
        "Claims of a token, newest first: a page (offset mode) or a window of unix seconds (time mode)"
      )
  )
  .add(
    HttpApiEndpoint.get("pools", "/main/platform/pools")
      .setUrlParams(Analytics.PoolsQuery)
      .addSuccess(Success(Analytics.Pools))
      .annotate(OpenApi.Summary, "Pools with their DBC and DAMM v2 keys")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * EVM-chain reads. Their 400 and 500 bodies carry the message in `response`.
 *
 * @since 0.1.0
 * @category groups
 */
export const EvmGroup = HttpApiGroup.make("evm")
  .add(
    HttpApiEndpoint.post("indexTokenStatus", "/evm/alt/index-token/status")
      .setPayload(Evm.IndexStatusRequest)
      .addSuccess(Success(Evm.IndexTokenStatuses))
      .annotate(OpenApi.Summary, "Whether EVM tokens are index tokens (1 to 100 addresses)")
  )
  .add(
    HttpApiEndpoint.get("claimablePositions", "/evm/alt/claimable-positions")
      .setUrlParams(Evm.OwnerQuery)
      .addSuccess(Success(Evm.EvmPositions))
      .annotate(OpenApi.Summary, "Claimable EVM fee positions of an owner")
  )
  .add(
    HttpApiEndpoint.get("creationFee", "/evm/alt/creation-fee")
      .addSuccess(Success(Evm.CreationFee))
      .annotate(OpenApi.Summary, "Current token creation fee on the EVM chain")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * @since 0.1.0
 * @category groups
 */
export const IdentityGroup = HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/auth/me")
      .addSuccess(Success(Identity.Me))
      .annotate(OpenApi.Summary, "The user that owns the API key")
  )
  .middleware(ApiKey)
  .prefix(basePath)

/**
 * Wallet signature for an API key; no key needed.
 *
 * @since 0.1.0
 * @category groups
 */
export const AgentAuthGroup = HttpApiGroup.make("agentAuth")
  .add(
    HttpApiEndpoint.post("init", "/agent/v2/auth/init")
      .setPayload(AgentAuth.InitRequest)
      .addSuccess(Success(AgentAuth.Challenge))
  )
  .add(
    HttpApiEndpoint.post("callback", "/agent/v2/auth/callback")
      .setPayload(AgentAuth.CallbackRequest)
      .addSuccess(Success(AgentAuth.CallbackResponse))
  )
  .prefix(basePath)

/**
 * `{root_url}/ping`: reads the rate-limit headers.
 *
 * @since 0.1.0
 * @category groups
 */
export const SystemGroup = HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("ping", "/ping")
      .addSuccess(Pong)
      .annotate(OpenApi.Summary, "Ping the service and report the rate-limit budget (limit, remaining, reset)")
  )

/**
 * The whole service: 26 operations under `{base_url}` and `ping` under `{root_url}`.
 *
 * @since 0.1.0
 * @category api
 */
export class Api extends HttpApi.make("feeshare")
  .add(ClaimsGroup)
  .add(FeeShareGroup)
  .add(LaunchGroup)
  .add(TradeGroup)
  .add(AnalyticsGroup)
  .add(EvmGroup)
  .add(IdentityGroup)
  .add(AgentAuthGroup)
  .add(SystemGroup)
  .addError(BadRequestWire)
  .addError(UnauthorizedWire)
  .addError(ForbiddenWire)
  .addError(NotFoundWire)
  .addError(RateLimitedWire)
  .addError(ServerErrorWire)
{}

/**
 * The name of an operation as used in errors and spans: `group.endpoint`.
 *
 * @since 0.1.0
 * @category api
 */
export const operationName = (group: string, endpoint: string): string =>
  group === "system" ? endpoint : `${group}.${endpoint}`

/**
 * The groups whose operations live under `{base_url}` (all but `system`).
 *
 * @since 0.1.0
 * @category api
 */
export const isUnderBaseUrl = (group: string): boolean => group !== "system"
