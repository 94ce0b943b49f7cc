/**
 * `feeshare keeper status`: per wallet, the last run, the totals claimed and spent (in all and
 * per kind of item: positions, vaults, deployer), the pending plans (journaled stages with no
 * known fate yet) and the failures with their tag.
 *
 * @since 0.1.0
 */
import { ClaimTransactions } from "@feeshare/domain"
import { Effect } from "effect"
import * as Item from "./Item.js"
import * as Journal from "./Journal.js"
import * as Outcome from "./Outcome.js"

/**
 * The totals of one kind of item of a wallet: runs that claimed, what they claimed (lamports
 * for positions; the quote mint's smallest unit for vaults and the deployer), the fees the
 * wallet paid, the runs skipped because they did not pay, and the failures.
 *
 * @since 0.1.0
 * @category models
 */
export interface KindTotals {
  readonly claims: number
  readonly claimed: bigint
  readonly fees: bigint
  readonly skipped: number
  readonly failures: number
}

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
  /** The totals per kind of item. */
  readonly kinds: Readonly<Record<Item.Kind, KindTotals>>
  /** Journaled stages still `signed`: the next pass settles them first. */
  readonly pending: ReadonlyArray<{ readonly key: string; readonly stage: string; readonly signature: string }>
  readonly failures: ReadonlyArray<{
    /** The token mint of a position, else the item's subject (`Item.ts`). */
    readonly mint: string
    readonly kind: Item.Kind
    readonly outcome: Journal.RunOutcome
    readonly tag: string | null
    readonly message: string | null
    readonly at: number
  }>
  /** On a cluster: the runner whose pass of the wallet began last, and when it began and ended. */
  readonly owner: Journal.OwnerRow | null
}

const wrappedSolMint = ClaimTransactions.wrappedSolMint

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
    kinds: Record<Item.Kind, { claims: number; claimed: bigint; fees: bigint; skipped: number; failures: number }>
    pending: Array<WalletStatus["pending"][number]>
    failures: Array<WalletStatus["failures"][number]>
  }>()
  const entry = (wallet: string) => {
    let found = byWallet.get(wallet)
    if (found === undefined) {
      const totals = () => ({ claims: 0, claimed: 0n, fees: 0n, skipped: 0, failures: 0 })
      found = {
        lastRunAt: null,
        claims: 0,
        claimedLamports: 0n,
        feesLamports: 0n,
        kinds: { position: totals(), vault: totals(), deployer: totals() },
        pending: [],
        failures: []
      }
      byWallet.set(wallet, found)
    }
    return found
  }
  for (const run of runs) {
    const e = entry(run.wallet)
    e.lastRunAt = Math.max(e.lastRunAt ?? 0, run.at)
    const kind = Item.kindOf(run.mint)
    const totals = e.kinds[kind]
    e.feesLamports += run.fees
    totals.fees += run.fees
    if (run.outcome === "claimed") {
      totals.claims++
      totals.claimed += run.lamports
      e.claims++
      // the wallet-wide amount is lamports: positions, and sweeps paid in wrapped SOL
      const subject = Item.parse(run.mint)
      if (subject.kind === "position" || subject.quoteMint === wrappedSolMint) e.claimedLamports += run.lamports
    }
    if (run.outcome === "skipped") totals.skipped++
    if (Outcome.isFailure(run.outcome)) {
      totals.failures++
      e.failures.push({ mint: run.mint, kind, outcome: run.outcome, tag: run.tag, message: run.message, at: run.at })
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
