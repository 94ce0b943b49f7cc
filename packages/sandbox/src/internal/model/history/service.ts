/**
 * The `History` service's tag and interface (what the ledger, the market and the HTTP
 * middleware record, and the explorer reads); the implementation is `History.ts`, which
 * re-exports it.
 */
import type { Plan } from "@feeshare/domain"
import { Context } from "effect"
import type { LandedRecord, RequestInput, Snapshot } from "./models.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class History extends Context.Tag("@feeshare/sandbox/History")<History, History.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace History {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Records a landed transaction (its wire, as the ledger keeps it). */
    readonly transaction: (record: LandedRecord) => void
    /** Remembers a transaction handed out (any wire encoding's bytes) as `kind`. */
    readonly served: (kind: string, label: string, wire: Uint8Array) => void
    /** Records a served claim plan (`tampered`: the `--tamper` change made to it). */
    readonly plan: (plan: Plan.TransactionPlan, wallet: string, tampered: string | null) => void
    /** Records an API request (operation, status, latency, key id, rate-limit headers). */
    readonly request: (request: RequestInput) => void
    /** The snapshot's version now: it grows with every change. */
    readonly version: () => number
    /** Everything recorded, with each stage's state as of `blockHeight`. */
    readonly snapshot: (blockHeight: bigint) => Snapshot
  }
}
