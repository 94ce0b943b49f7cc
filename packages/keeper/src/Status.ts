/**
 * `feeshare keeper status`: per wallet, the last run, the totals claimed and spent, the
 * pending plans (journaled stages with no known fate yet) and the failures with their tag.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import * as Journal from "./Journal.js"
import * as Outcome from "./Outcome.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface WalletStatus {
  readonly wallet: string
  readonly lastRunAt: number | null
  readonly claims: number
  readonly claimedLamports: bigint
  readonly feesLamports: bigint
  /** Journaled stages still `signed`: the next pass settles them first. */
  readonly pending: ReadonlyArray<{ readonly key: string; readonly stage: string; readonly signature: string }>
  readonly failures: ReadonlyArray<{
    readonly mint: string
    readonly outcome: Journal.RunOutcome
    readonly tag: string | null
    readonly message: string | null
    readonly at: number
  }>
  /** On a cluster: the runner whose pass of the wallet began last, and when it began and ended. */
  readonly owner: Journal.OwnerRow | null
}

/**
 * How far a wallet is behind its schedule: the time since its last pass ended beyond one
 * interval (0 when on time; the time since the pass began when one is running or never ended).
 *
 * @since 0.1.0
 * @category status
 */
export const lagMillis = (owner: Journal.OwnerRow, nowMillis: number, intervalMillis: number): number =>
  Math.max(0, nowMillis - (owner.finishedAt ?? owner.startedAt) - intervalMillis)

/**
 * Reads the journal; touches neither the service nor the chain.
 *
 * @since 0.1.0
 * @category status
 */
export const read = Effect.gen(function*() {
  const journal = yield* Journal.Journal
  const runs = yield* journal.runs
  const pending = yield* journal.unsettled()
  const owners = new Map((yield* journal.owners).map((row) => [row.wallet, row]))
  const byWallet = new Map<string, {
    lastRunAt: number | null
    claims: number
    claimedLamports: bigint
    feesLamports: bigint
    pending: Array<WalletStatus["pending"][number]>
    failures: Array<WalletStatus["failures"][number]>
  }>()
  const entry = (wallet: string) => {
    let found = byWallet.get(wallet)
    if (found === undefined) {
      found = { lastRunAt: null, claims: 0, claimedLamports: 0n, feesLamports: 0n, pending: [], failures: [] }
      byWallet.set(wallet, found)
    }
    return found
  }
  for (const run of runs) {
    const e = entry(run.wallet)
    e.lastRunAt = Math.max(e.lastRunAt ?? 0, run.at)
    e.feesLamports += run.fees
    if (run.outcome === "claimed") {
      e.claims++
      e.claimedLamports += run.lamports
    }
    if (Outcome.isFailure(run.outcome)) {
      e.failures.push({ mint: run.mint, outcome: run.outcome, tag: run.tag, message: run.message, at: run.at })
    }
  }
  for (const row of pending) {
    entry(row.wallet).pending.push({ key: row.key, stage: row.stage, signature: row.signature })
  }
  for (const wallet of owners.keys()) entry(wallet)
  return [...byWallet.entries()].map(([wallet, e]): WalletStatus => ({
    wallet,
    ...e,
    owner: owners.get(wallet) ?? null
  }))
})
