/**
 * @feeshare/sandbox: the whole service on localhost over an in-process Solana ledger
 * (LiteSVM), with real agent authentication, rate limits and fault knobs.
 *
 * @since 0.1.0
 * @module @feeshare/sandbox
 */

/** @since 0.1.0 */
export * as Accounts from "./Accounts.js"
/** @since 0.1.0 */
export * as AdminToken from "./AdminToken.js"
/** @since 0.1.0 */
export * as EvmFixtures from "./EvmFixtures.js"
/** @since 0.1.0 */
export * as Explorer from "./Explorer.js"
/** @since 0.1.0 */
export * as ExplorerAssets from "./ExplorerAssets.js"
/** @since 0.1.0 */
export * as Flags from "./Flags.js"
/** @since 0.1.0 */
export * as History from "./History.js"
/** @since 0.1.0 */
export * as Ledger from "./Ledger.js"
/** @since 0.1.0 */
export * as LedgerChain from "./LedgerChain.js"
/** @since 0.1.0 */
export * as Market from "./Market.js"
/** @since 0.1.0 */
export * as MarketLive from "./MarketLive.js"
/** @since 0.1.0 */
export * as Options from "./Options.js"
/** @since 0.1.0 */
export * as RateLimiter from "./RateLimiter.js"
/** @since 0.1.0 */
export * as Rpc from "./Rpc.js"
/** @since 0.1.0 */
export * as RpcSubscriptions from "./RpcSubscriptions.js"
/** @since 0.1.0 */
export * as Sandbox from "./Sandbox.js"
/** @since 0.1.0 */
export * as SandboxApi from "./SandboxApi.js"
/** @since 0.1.0 */
export * as Seed from "./Seed.js"
/** @since 0.1.0 */
export * as Server from "./Server.js"
/** @since 0.1.0 */
export * as Tamper from "./Tamper.js"
/** @since 0.1.0 */
export * as Totp from "./Totp.js"
