/**
 * @feeshare/client: the Effect client of the fee-sharing, token-launch and trading service.
 *
 * @since 0.1.0
 * @module @feeshare/client
 */

/** @since 0.1.0 */
export * as AgentLogin from "./AgentLogin.js"
/** @since 0.1.0 */
export * as CallOptions from "./CallOptions.js"
/** @since 0.1.0 */
export * as FeeShareClient from "./FeeShareClient.js"
/** @since 0.1.0 */
export * as RateBudget from "./RateBudget.js"
/** @since 0.1.0 */
export * as RetryPolicy from "./RetryPolicy.js"
