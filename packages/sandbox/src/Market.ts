/**
 * The sandbox's market: tokens, pools, fee-share configs, accrued fees and claims, every one
 * of them backed by real transactions on the ledger. The HTTP handlers call this service
 * with already-decoded requests; the setup operations (sandbox-only) live here too.
 *
 * @since 0.1.0
 */
export * from "./internal/model/market/service.js"
