/**
 * What a plan execution reports and returns: its progress `Event`s, the stages it signed
 * (`SignedStage`, handed to `beforeSend`) and landed (`LandedStage`), and its `Result`.
 * `PlanExecutor` re-exports every name; its rounds (`internal/planRound`) import them from here.
 *
 * @since 0.1.0
 */
import type { Plan } from "@feeshare/domain"
import { Data, type Duration } from "effect"
import type * as WireTransaction from "./WireTransaction.js"

/**
 * Progress of an execution.
 *
 * @since 0.1.0
 * @category events
 */
export type Event = Data.TaggedEnum<{
  /** The stage passed every check. */
  Verified: { readonly stage: string }
  /** The local signers signed the stage. */
  Signed: { readonly stage: string; readonly signature: string }
  /** The node accepted the stage's transaction. */
  Submitted: { readonly stage: string; readonly signature: string }
  /** The stage reached the commitment. */
  Landed: { readonly stage: string; readonly signature: string; readonly slot: bigint }
  /** The stage failed (`reason` is the error's tag, e.g. `BlockhashExpired`). */
  Failed: { readonly stage: string; readonly reason: string; readonly message: string }
  /** `rebuild` returned a new plan. */
  Rebuilt: { readonly attempt: number; readonly reason: RebuildReason; readonly stages: number }
  /** The lookup table is warming up; `rebuild` is called again after `delay`. */
  Waiting: { readonly reason: "warming_up"; readonly delay: Duration.Duration }
  /** One of several RPC endpoints failed a call (the others carried on). */
  EndpointFailed: { readonly endpoint: string; readonly method: string; readonly message: string }
  /** The plan is complete. */
  Completed: { readonly result: Result }
}>

/**
 * @since 0.1.0
 * @category events
 */
export const Event = Data.taggedEnum<Event>()

/**
 * Why the plan was rebuilt.
 *
 * @since 0.1.0
 * @category events
 */
export type RebuildReason = "setup" | "expired" | "warming_up"

/**
 * A stage that landed.
 *
 * @since 0.1.0
 * @category models
 */
export interface LandedStage {
  readonly id: string
  readonly kind: Plan.StageKind
  readonly signature: string
  readonly slot: bigint
}

/**
 * Every stage that landed, in landing order, and how many times the plan was rebuilt.
 *
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly stages: ReadonlyArray<LandedStage>
  readonly rebuilds: number
}

/**
 * A stage and its signed transaction, as handed to `beforeSend`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignedStage {
  readonly stage: Plan.Stage
  readonly transaction: WireTransaction.Signed
}
