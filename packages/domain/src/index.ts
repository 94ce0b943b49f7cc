/**
 * @feeshare/domain: the contract of the fee-sharing, token-launch and trading service as
 * Schemas, pure rules, the `HttpApi` definition, the failures and the ports.
 *
 * @since 0.1.0
 * @module @feeshare/domain
 */

/** @since 0.1.0 */
export * as AgentAuth from "./AgentAuth.js"
/** @since 0.1.0 */
export * as Analytics from "./Analytics.js"
/** @since 0.1.0 */
export * as Api from "./Api.js"
/** @since 0.1.0 */
export * as BasisPoints from "./BasisPoints.js"
/** @since 0.1.0 */
export * as BundleRelay from "./BundleRelay.js"
/** @since 0.1.0 */
export * as ClaimEvents from "./ClaimEvents.js"
/** @since 0.1.0 */
export * as Claims from "./Claims.js"
/** @since 0.1.0 */
export * as ClaimTransactions from "./ClaimTransactions.js"
/** @since 0.1.0 */
export * as Envelope from "./Envelope.js"
/** @since 0.1.0 */
export * as EvmAddress from "./EvmAddress.js"
/** @since 0.1.0 */
export * as Evm from "./Evm.js"
/** @since 0.1.0 */
export * as FeeShare from "./FeeShare.js"
/** @since 0.1.0 */
export * as FilePart from "./FilePart.js"
/** @since 0.1.0 */
export * as FeeShareError from "./FeeShareError.js"
/** @since 0.1.0 */
export * as Identity from "./Identity.js"
/** @since 0.1.0 */
export * as Launch from "./Launch.js"
/** @since 0.1.0 */
export * as LaunchToken from "./LaunchToken.js"
/** @since 0.1.0 */
export * as LaunchWallet from "./LaunchWallet.js"
/** @since 0.1.0 */
export * as Plan from "./Plan.js"
/** @since 0.1.0 */
export * as PublicKey from "./PublicKey.js"
/** @since 0.1.0 */
export * as Redaction from "./Redaction.js"
/** @since 0.1.0 */
export * as RateLimit from "./RateLimit.js"
/** @since 0.1.0 */
export * as RawAmount from "./RawAmount.js"
/** @since 0.1.0 */
export * as Signer from "./Signer.js"
/** @since 0.1.0 */
export * as TokenInfo from "./TokenInfo.js"
/** @since 0.1.0 */
export * as Trade from "./Trade.js"
/** @since 0.1.0 */
export * as Validation from "./Validation.js"
/** @since 0.1.0 */
export * as WireTransaction from "./WireTransaction.js"
