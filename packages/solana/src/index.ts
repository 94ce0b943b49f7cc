/**
 * @feeshare/solana: local signers, verification of the service's wire transactions before
 * signing, sending and confirming over RPC, and the claim-plan executor.
 *
 * @since 0.1.0
 * @module @feeshare/solana
 */

/** @since 0.1.0 */
export * as KitSigner from "./KitSigner.js"
/** @since 0.1.0 */
export * as LocalSigner from "./LocalSigner.js"
/** @since 0.1.0 */
export * as Signers from "./Signers.js"
/** @since 0.1.0 */
export * as WalletSource from "./WalletSource.js"
/** @since 0.1.0 */
export * as WireTransaction from "./WireTransaction.js"
/** @since 0.1.0 */
export * as Chain from "./Chain.js"
/** @since 0.1.0 */
export * as ChainRpc from "./ChainRpc.js"
/** @since 0.1.0 */
export * as PlanExecutor from "./PlanExecutor.js"
/** @since 0.1.0 */
export * as PlanProgress from "./PlanProgress.js"
/** @since 0.1.0 */
export * as Flows from "./Flows.js"
/** @since 0.1.0 */
export * as ClaimAll from "./ClaimAll.js"
/** @since 0.1.0 */
export * as ClaimCost from "./ClaimCost.js"
/** @since 0.1.0 */
export * as Failures from "./Failures.js"
/** @since 0.1.0 */
export * as BundleRelay from "./BundleRelay.js"
/** @since 0.1.0 */
export * as LedgerReads from "./LedgerReads.js"
/** @since 0.1.0 */
export * as LookupTable from "./LookupTable.js"
/** @since 0.1.0 */
export * as LookupTableSetup from "./LookupTableSetup.js"
/** @since 0.1.0 */
export * as LaunchRecord from "./LaunchRecord.js"
/** @since 0.1.0 */
export * as LaunchRecordFile from "./LaunchRecordFile.js"
/** @since 0.1.0 */
export * as LaunchToken from "./LaunchToken.js"
