/**
 * @feeshare/keeper: claims fees for many wallets, unattended and exactly once, surviving
 * crashes, on one machine (a durable workflow per position on an embedded SQL file).
 *
 * @since 0.1.0
 * @module @feeshare/keeper
 */

/** @since 0.1.0 */
export * as KeeperConfig from "./KeeperConfig.js"
/** @since 0.1.0 */
export * as Claim from "./Claim.js"
/** @since 0.1.0 */
export * as Cluster from "./Cluster.js"
/** @since 0.1.0 */
export * as ClusterAuth from "./ClusterAuth.js"
/** @since 0.1.0 */
export * as Journal from "./Journal.js"
/** @since 0.1.0 */
export * as JournalWrites from "./JournalWrites.js"
/** @since 0.1.0 */
export * as Keeper from "./Keeper.js"
/** @since 0.1.0 */
export * as Migrations from "./Migrations.js"
/** @since 0.1.0 */
export * as Metrics from "./Metrics.js"
/** @since 0.1.0 */
export * as Outcome from "./Outcome.js"
/** @since 0.1.0 */
export * as Placement from "./Placement.js"
/** @since 0.1.0 */
export * as Status from "./Status.js"
/** @since 0.1.0 */
export * as Step from "./Step.js"
