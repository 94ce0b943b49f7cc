/**
 * The `Market` on the ledger: tokens, constant-product pools, fee-share configs, fees
 * accrued by swaps and credited to claimers by their basis points, partner vaults, claim
 * statistics and lifetime fees, all in memory and deterministic from `Options.seed`.
 *
 * Every transaction the market answers is real: it executes on the `Ledger` with the
 * System, SPL Token, Token-2022, Associated Token Account, Memo and Address Lookup Table
 * programs. The market records the effect of each transaction it builds under the SHA-256 of
 * its message and applies it only when the ledger reports that message landed, so the state
 * changes only when (and because) a transaction lands.
 *
 * On-ledger model (per token, keys derived from the seed): the mint (its keypair held by the
 * sandbox), the pool authority (a system account holding the pool's SOL reserve and the
 * unpaid fees, and owning the pool's token vault), the token vault (its associated token
 * account). Fees are paid out in wrapped SOL to the claimer's associated token account.
 *
 * Aggregate vaults (one per wallet and quote mint; wrapped SOL is their only quote mint): the
 * partner's share of every fee and, on migrated (DAMM v2) pools, the deployer's (creator's)
 * share accrue as pending amounts on the pool authority and move into the vault when claimed.
 * A partner withdraws with the partner-claim entries (one settling entry per token, the last
 * entry withdraws the vault). A deployer withdraws with a claim plan on the token's DAMM v2
 * pool (`source: { kind: "pool", protocol: "damm_v2", pool }`, `feeClaimer` the token's
 * creator): its claim stage moves the pools' pending deployer shares into the vault and pays
 * the whole vault out, together with the deployer's own unclaimed share of that token, in
 * one transaction pre-signed by the pool authorities and the vault. Any other source claims
 * the share only and leaves the vault alone.
 *
 * Holdings: a token's holding-vault authority (a sandbox-held key, one per token and quote
 * mint) holds balances for claimers, funded by the sandbox-only `createHolding`. A claim plan
 * with `source: { kind: "holding", authority }` pays the claimer's whole balance out
 * (`holding_claim`; the user pays the fees, the authority pre-signs), in the holding's quote
 * mint: wrapped SOL, or the sandbox's Token-2022 quote mint (`quoteMint2022`), whose transfers
 * cost a transfer fee. Such a payout is a Token-2022 TransferCheckedWithFee stating the fee of
 * the schedule active when the plan was built, so it fails on the ledger (FeeMismatch) if the
 * schedule changed since; the plan's `feeLimits` are checked against that schedule when it is
 * built. Swaps, pools, positions and aggregate vaults are wrapped SOL only.
 *
 * @since 0.1.0
 */
import { Effect, Layer } from "effect"
import * as AnalyticsArea from "./internal/model/market/analytics.js"
import * as ClaimPlans from "./internal/model/market/claimPlans.js"
import * as ClaimsArea from "./internal/model/market/claims.js"
import * as Constants from "./internal/model/market/constants.js"
import * as DirectClaims from "./internal/model/market/directClaims.js"
import * as FeeSharing from "./internal/model/market/feeSharing.js"
import * as Handles from "./internal/model/market/handles.js"
import * as LaunchArea from "./internal/model/market/launch.js"
import * as Payouts from "./internal/model/market/payouts.js"
import * as Setup from "./internal/model/market/setup.js"
import * as State from "./internal/model/market/state.js"
import * as TokenInfoArea from "./internal/model/market/tokenInfo.js"
import * as Trading from "./internal/model/market/trading.js"
import * as Ledger from "./Ledger.js"
import { Market } from "./Market.js"
import type { Options } from "./Options.js"

/**
 * The market's economics.
 *
 * @since 0.1.0
 * @category constants
 */
export const economics = Constants.economics

/**
 * The sandbox's Token-2022 quote mint: created on the ledger when the market starts, from keys
 * derived from the seed (the sandbox holds the mint, mint authority, transfer-fee-config and
 * withdraw-withheld authority keys), with a TransferFeeConfig extension and this initial
 * schedule: `basisPoints` of every transfer, at most `maximumFee` (raw units).
 *
 * @since 0.1.0
 * @category constants
 */
export const quoteMint2022 = Constants.quoteMint2022

/**
 * Budgets of the transactions the market builds.
 *
 * @since 0.1.0
 * @category constants
 */
export const budgets = Constants.budgets

/**
 * A `Market` backed by the `Ledger`: the market state and one module per area
 * (`internal/model/market/`), assembled.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Pick<Options, "seed">) =>
  Effect.gen(function*() {
    const market = yield* State.make(options)
    const trading = Trading.make(market)
    const tokenInfo = TokenInfoArea.make(market)
    const { launch } = LaunchArea.make(market, trading, tokenInfo)
    const handles = yield* Handles.make(market)
    const { adminList, createConfig, partnerClaim, updateConfig } = FeeSharing.make(market)
    const { positions, vaults } = ClaimsArea.make(market)
    const payouts = Payouts.make(market)
    const { createPlan } = ClaimPlans.make(market, payouts)
    const { claimV3, claimVault, deployerClaim, deployerPositions } = DirectClaims.make(market, payouts)
    const { claimEvents, claimStats, lifetimeFees, pools } = AnalyticsArea.make(market)
    const setup = yield* Setup.make(market)
    const service: Market.Service = {
      createPlan,
      positions,
      vaults,
      claimVault,
      deployerPositions,
      deployerClaim,
      claimV3,
      createConfig,
      updateConfig,
      partnerClaim,
      adminList,
      launch,
      createTokenInfo: tokenInfo.createTokenInfo,
      tokenMetadata: tokenInfo.tokenMetadata,
      tokenImage: tokenInfo.tokenImage,
      lookupWallet: handles.lookupWallet,
      lookupWallets: handles.lookupWallets,
      registerHandle: handles.registerHandle,
      quote: trading.quote,
      swap: trading.swap,
      lifetimeFees,
      claimStats,
      claimEvents,
      pools,
      ...setup
    }
    return service
  })

/**
 * The market as a layer; it needs the `Ledger`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Pick<Options, "seed">): Layer.Layer<Market, never, Ledger.Ledger> =>
  Layer.effect(Market, make(options))

/**
 * The market with its own ledger: provides both `Market` and `Ledger` (mount `Rpc.router`
 * on the same `Ledger`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithLedger = (options: Options): Layer.Layer<Market | Ledger.Ledger> =>
  layer(options).pipe(Layer.provideMerge(Ledger.layer(options)))
