/**
 * feeshare: the Promise facade of the fee-sharing, token-launch and trading service.
 *
 * ```ts
 * import { FeeShare, RateLimited } from "feeshare"
 * ```
 *
 * Flat exports (not namespaces) on purpose: this entry point is for plain TypeScript users.
 * Effect users take `@feeshare/client` and `@feeshare/solana` directly.
 *
 * @since 0.1.0
 * @module feeshare
 */

/** @since 0.1.0 */
export { FeeShare } from "./FeeShare.js"

/** @since 0.1.0 */
export type {
  ApiResponse,
  CallOptions,
  ClaimAllOptions,
  ExecutePlanOptions,
  FeeShareOptions,
  Group,
  LaunchGroup,
  LaunchRecords,
  LaunchTokenOptions,
  LoginOptions,
  PlanExecution,
  PlanVerification,
  Promised,
  SendOptions,
  SignAndSend,
  VerifyPlanOptions
} from "./Options.js"

/** @since 0.1.0 */
export * from "./Errors.js"
/** @since 0.1.0 */
export * from "./Rejection.js"

/** @since 0.1.0 */
export type { FeeShareLogger, Level as LogLevel } from "./internal/logging.js"

/** @since 0.1.0 */
export type { KitKeyPairSigner, LabelledSecretKey, SignerInput } from "./SignerInput.js"

/** @since 0.1.0 */
export type * from "./Types.js"

/** @since 0.1.0 */
export { Redacted } from "effect"

/** @since 0.1.0 */
export { generateWallet, loadWallet, saveWallet, type Wallet, walletAddress, walletFromSecretKey } from "./Wallet.js"
