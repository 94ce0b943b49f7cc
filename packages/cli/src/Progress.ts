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
      return stageLine(
        event.stage,
        kind(event.stage),
        "failed",
        undefined,
        `${event.reason}: ${oneLine(event.message)}`
      )
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

/** A stage as the live table shows it. */
interface Row {
  readonly id: string
  kind: string
  state: State | "confirming"
  signature: string | undefined
  detail: string | undefined
  readonly started: number
  ended: number | undefined
}

const seconds = (millis: number): string => `${(Math.max(0, millis) / 1000).toFixed(1)} s`

/**
 * A plan's progress as a table that is rewritten in place on a terminal: one row per stage
 * (its kind, state, elapsed time, signature), then the total elapsed time and the current
 * wait (the rate limit, the lookup table's warm-up, or a confirmation). `lines` is pure: the
 * caller writes it, moving the cursor back over the previous rendering.
 *
 * @since 0.1.0
 * @category models
 */
export class LiveTable {
  readonly #rows = new Map<string, Row>()
  readonly #notes: Array<string> = []
  readonly #started: number
  #rateLimit: { readonly operation: string; readonly until: number } | undefined
  #warmingSince: number | undefined
  #completed: string | undefined

  /** @param now the clock, in milliseconds (a manual one in tests) */
  constructor(readonly now: () => number) {
    this.#started = now()
  }

  /** Follows one event of the executor (`kinds` maps stage ids to their kind). */
  event(event: PlanExecutor.Event, kinds: ReadonlyMap<string, string>): void {
    const at = this.now()
    const row = (stage: string): Row => {
      const known = this.#rows.get(stage)
      if (known !== undefined) return known
      const created: Row = {
        id: stage,
        kind: kinds.get(stage) ?? "?",
        state: "verified",
        signature: undefined,
        detail: undefined,
        started: at,
        ended: undefined
      }
      this.#rows.set(stage, created)
      return created
    }
    if (event._tag !== "Waiting") this.#warmingSince = undefined
    switch (event._tag) {
      case "Verified":
        row(event.stage).state = "verified"
        return
      case "Signed":
        Object.assign(row(event.stage), { state: "signed", signature: event.signature })
        return
      case "Submitted":
        Object.assign(row(event.stage), { state: "confirming", signature: event.signature })
        return
      case "Landed":
        Object.assign(row(event.stage), {
          state: "landed",
          signature: event.signature,
          detail: `slot ${event.slot}`,
          ended: at
        })
        return
      case "Failed":
        Object.assign(row(event.stage), {
          state: "failed",
          detail: `${event.reason}: ${oneLine(event.message)}`,
          ended: at
        })
        return
      case "Rebuilt":
        this.#notes.push(
          `plan rebuilt (${event.reason === "setup" ? "setup landed" : event.reason}): ${event.stages} stage(s)`
        )
        return
      case "Waiting":
        this.#warmingSince ??= at
        return
      case "EndpointFailed":
        this.#notes.push(`RPC endpoint ${event.endpoint} failed ${event.method}: ${oneLine(event.message)}`)
        return
      case "Completed":
        this.#completed = `complete: ${event.result.stages.length} stage(s) landed, ${event.result.rebuilds} rebuild(s)`
        return
    }
  }

  /** A wait for the rate limit to reset, `millis` long, before `operation`. */
  rateLimitWait(operation: string, millis: number): void {
    this.#rateLimit = { operation, until: this.now() + millis }
  }

  /** What the run is waiting for now, if anything. */
  wait(): string | undefined {
    const at = this.now()
    if (this.#rateLimit !== undefined && this.#rateLimit.until > at) {
      return `rate limit (${this.#rateLimit.operation}): resets in ${seconds(this.#rateLimit.until - at)}`
    }
    if (this.#warmingSince !== undefined) return `lookup table warm-up (${seconds(at - this.#warmingSince)})`
    const confirming = [...this.#rows.values()].filter((row) => row.state === "confirming")
    if (confirming.length > 0) {
      return `confirmation of ${confirming.map((row) => `${row.id} (${seconds(at - row.started)})`).join(", ")}`
    }
    return undefined
  }

  /** The table as lines, none wider than `columns`. */
  lines(columns: number): ReadonlyArray<string> {
    const at = this.now()
    const rows = [...this.#rows.values()]
    const body = rows.map((row) => [
      row.id,
      row.kind,
      row.state,
      seconds((row.ended ?? at) - row.started),
      [row.signature === undefined ? "" : short(row.signature, 6), row.detail ?? ""].filter((t) => t !== "").join(" ")
    ])
    const head = ["stage", "kind", "state", "elapsed", "signature"]
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)))
    const format = (cells: ReadonlyArray<string>) =>
      `  ${cells.map((cell, i) => (i === 3 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ")}`
        .trimEnd()
    const wait = this.wait()
    const lines = [
      format(head),
      ...body.map(format),
      ...this.#notes.map((note) => `  ${note}`),
      `  ${seconds(at - this.#started)} elapsed; ${
        this.#completed ?? (wait === undefined ? "working" : `waiting: ${wait}`)
      }`
    ]
    return lines.map((line) => (line.length > columns ? `${line.slice(0, Math.max(0, columns - 1))}…` : line))
  }
}

/** A signature or key shortened for a table: its first and last `n` characters. */
const short = (text: string, n: number): string =>
  text.length <= 2 * n + 1 ? text : `${text.slice(0, n)}…${text.slice(-n)}`

/**
 * A live table on a terminal: `render` rewrites it in place (the cursor goes back up over the
 * previous rendering, which is cleared).
 *
 * @since 0.1.0
 * @category models
 */
export interface Live {
  /** What is shown. */
  readonly table: LiveTable
  /** Writes the table over its previous rendering. */
  readonly render: () => void
}

/**
 * A live table writing to `out` (a TTY stream: its `columns` bound the lines).
 *
 * @since 0.1.0
 * @category constructors
 */
export const live = (
  out: { readonly write: (text: string) => unknown; readonly columns?: number | undefined }
): Live => {
  const table = new LiveTable(Date.now)
  let previous = 0
  return {
    table,
    render: () => {
      const lines = table.lines(Math.max(20, (out.columns ?? 80) - 1))
      out.write(`${previous > 0 ? `\u001b[${previous}A\r\u001b[J` : ""}${lines.join("\n")}\n`)
      previous = lines.length
    }
  }
}
