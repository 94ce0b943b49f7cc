/**
 * Progress lines of a plan execution, one per event of `PlanExecutor`: the stage id, its
 * kind, its state and the transaction signature.
 *
 * @since 0.1.0
 */
import type { PlanExecutor } from "@feeshare/solana"
import { oneLine } from "./ExitCode.js"

/**
 * The state a stage reached, as printed.
 *
 * @since 0.1.0
 * @category models
 */
export type State = "verified" | "signed" | "submitted" | "landed" | "failed"

const width = { id: 20, kind: 18, state: 9 } as const

/**
 * One stage line: `  id  kind  state  signature  detail`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const stageLine = (
  id: string,
  kind: string,
  state: State,
  signature: string | undefined,
  detail?: string
): string =>
  [
    "  ",
    id.padEnd(width.id),
    " ",
    kind.padEnd(width.kind),
    " ",
    state.padEnd(width.state),
    signature === undefined || signature === "" ? "" : ` ${signature}`,
    detail === undefined ? "" : ` ${detail}`
  ].join("").trimEnd()

/**
 * The line of an executor event; `kinds` maps stage ids to their kind (the plan's, and every
 * rebuilt plan's).
 *
 * @since 0.1.0
 * @category formatting
 */
export const line = (event: PlanExecutor.Event, kinds: ReadonlyMap<string, string>): string => {
  const kind = (stage: string) => kinds.get(stage) ?? "?"
  switch (event._tag) {
    case "Verified":
      return stageLine(event.stage, kind(event.stage), "verified", undefined)
    case "Signed":
      return stageLine(event.stage, kind(event.stage), "signed", event.signature)
    case "Submitted":
      return stageLine(event.stage, kind(event.stage), "submitted", event.signature)
    case "Landed":
      return stageLine(event.stage, kind(event.stage), "landed", event.signature, `slot ${event.slot}`)
    case "Failed":
      return stageLine(event.stage, kind(event.stage), "failed", undefined, `${event.reason}: ${oneLine(event.message)}`)
    case "Rebuilt":
      return `  plan rebuilt (${event.reason === "setup" ? "setup landed" : event.reason}): ${event.stages} stage(s)`
    case "Waiting":
      return `  lookup table warming up; asking again shortly`
    case "EndpointFailed":
      return `  RPC endpoint ${event.endpoint} failed ${event.method}; the others carry on: ${oneLine(event.message)}`
    case "Completed":
      return `  plan complete: ${event.result.stages.length} stage(s) landed, ${event.result.rebuilds} rebuild(s)`
  }
}

/**
 * The stages that were submitted and have not landed or failed yet: what may still land
 * after the command stops.
 *
 * @since 0.1.0
 * @category models
 */
export class InFlight {
  readonly #submitted = new Map<string, string>()

  /** Follows one event of the executor. */
  track(event: PlanExecutor.Event): void {
    if (event._tag === "Submitted") this.#submitted.set(event.stage, event.signature)
    else if (event._tag === "Landed" || event._tag === "Failed") this.#submitted.delete(event.stage)
  }

  /** Stage id and signature of every stage in flight, in submission order. */
  get pending(): ReadonlyArray<{ readonly stage: string; readonly signature: string }> {
    return [...this.#submitted].map(([stage, signature]) => ({ stage, signature }))
  }

  /** The one line printed when the command is interrupted. */
  interruptedLine(): string {
    const pending = this.pending
    return pending.length === 0
      ? "feeshare: interrupted; nothing was in flight (landed stages stay landed)"
      : `feeshare: interrupted; submitted and may still land: ${
        pending.map((p) => `${p.stage} ${p.signature}`).join(", ")
      } (run the command again: landed stages are never resent)`
  }
}
