/**
 * The progress of `feeshare launch token`: one line per event when piped, and on a terminal
 * a table rewritten in place (a row per step: its state, elapsed time and what it made, then
 * the split: who gets what).
 */
import { LaunchToken as Inputs } from "@feeshare/domain"
import type { LaunchToken } from "@feeshare/solana"

const seconds = (millis: number): string => `${(Math.max(0, millis) / 1000).toFixed(1)} s`

const percent = (bps: number): string => `${(bps / 100).toFixed(2).replace(/\.?0+$/, "")}%`

/** The split as lines: who gets what, then the deployer's share on top. */
export const splitLines = (
  shares: ReadonlyArray<Inputs.ResolvedShare>,
  deployer: string,
  deployerBps: number
): ReadonlyArray<string> => [
  ...shares.map((share) =>
    `  ${share.handle ? `${share.label} -> ${share.wallet}` : share.wallet}  ${share.bps} bps (${percent(share.bps)})`
  ),
  `  deployer ${deployer}: ${deployerBps} bps (${percent(deployerBps)}) of the claimers' pool, taken before the split`
]

/** The line of one event. */
export const line = (event: LaunchToken.Event): ReadonlyArray<string> => {
  switch (event._tag) {
    case "Started":
      return [`  ${event.step.padEnd(12)} started`]
    case "Split":
      return ["  split:", ...splitLines(event.shares, event.deployer, event.deployerBps).map((l) => `  ${l}`)]
    case "Landed":
      return [`  ${event.step.padEnd(12)} landed    ${event.label} ${event.signature}`]
    case "Done":
      return [
        `  ${event.step.padEnd(12)} ${event.reused ? "reused" : "done"}${
          event.reused ? "    " : "      "
        }${event.detail}`
      ]
    case "Skipped":
      return [`  ${event.step.padEnd(12)} skipped   ${event.reason}`]
  }
}

interface Row {
  state: "waiting" | "working" | "done" | "reused" | "skipped"
  detail: string
  started: number | undefined
  ended: number | undefined
}

/** The launch as a table: a row per step, then the split. `lines` is pure. */
export class LaunchTable {
  readonly #rows = new Map<Inputs.Step, Row>(
    Inputs.steps.map((step) => [step, { state: "waiting", detail: "", started: undefined, ended: undefined }])
  )
  #split: ReadonlyArray<string> = []
  readonly #started: number

  constructor(readonly now: () => number) {
    this.#started = now()
  }

  event(event: LaunchToken.Event): void {
    const at = this.now()
    switch (event._tag) {
      case "Started":
        Object.assign(this.#rows.get(event.step)!, { state: "working", started: at })
        return
      case "Split":
        this.#split = splitLines(event.shares, event.deployer, event.deployerBps)
        return
      case "Landed":
        this.#rows.get(event.step)!.detail = `${event.label} landed ${event.signature.slice(0, 8)}…`
        return
      case "Done":
        Object.assign(this.#rows.get(event.step)!, {
          state: event.reused ? "reused" : "done",
          detail: event.detail,
          ended: at
        })
        return
      case "Skipped":
        Object.assign(this.#rows.get(event.step)!, { state: "skipped", detail: event.reason, ended: at })
        return
    }
  }

  lines(columns: number): ReadonlyArray<string> {
    const at = this.now()
    const body = Inputs.steps.map((step) => {
      const row = this.#rows.get(step)!
      const elapsed = row.started === undefined ? "" : seconds((row.ended ?? at) - row.started)
      return [step, row.state, elapsed, row.detail]
    })
    const head = ["step", "state", "elapsed", "detail"]
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)))
    const format = (cells: ReadonlyArray<string>) =>
      `  ${cells.map((cell, i) => (i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ")}`
        .trimEnd()
    const lines = [
      format(head),
      ...body.map(format),
      ...(this.#split.length === 0 ? [] : ["  split:", ...this.#split.map((l) => `  ${l}`)]),
      `  ${seconds(at - this.#started)} elapsed`
    ]
    return lines.map((l) => (l.length > columns ? `${l.slice(0, Math.max(0, columns - 1))}…` : l))
  }
}

/** A launch table on a terminal: `render` rewrites it over its previous rendering. */
export const live = (out: { readonly write: (text: string) => unknown; readonly columns?: number | undefined }) => {
  const table = new LaunchTable(Date.now)
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
