/**
 * Every write to the journal, in one module, each a named step (`Step.ts`): a round's signed
 * stages (before any is sent), a stage's fate, a run's outcome, a wallet's owner on a cluster;
 * and the journaled execution of a plan, the plan executor's hooks that make those writes as
 * the execution goes. The claim, the reconciliation, the pass and the cluster's wallet entity
 * write through here, never through the `Journal` service directly.
 *
 * @since 0.1.0
 */
import type * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Clock, Effect, Metric, Schema } from "effect"
import * as Journal from "./Journal.js"
import * as Metrics from "./Metrics.js"
import * as Outcome from "./Outcome.js"
import { Settings } from "./Settings.js"
import * as Step from "./Step.js"

/**
 * Journals one round's signed stages, in one commit: nothing of the round may be sent
 * before this step succeeds.
 *
 * @since 0.1.0
 * @category steps
 */
export const recordSigned = Step.make({
  name: "recordSigned",
  success: Schema.Void,
  error: Step.SqlFailure,
  execute: (rows: ReadonlyArray<Omit<Journal.StageRow, "status" | "slot">>) =>
    Effect.flatMap(Journal.Journal, (journal) => journal.recordSigned(rows))
})

/**
 * Journals what became of a stage. A stage that landed, with or without error, paid its fee:
 * counted in `feeshare_keeper_fees_lamports_total`.
 *
 * @since 0.1.0
 * @category steps
 */
export const settle = Step.make({
  name: "settle",
  success: Schema.Void,
  error: Step.SqlFailure,
  execute: (
    row: Pick<Journal.StageRow, "signature" | "fee">,
    status: Journal.StageStatus,
    slot: bigint | null
  ) =>
    Effect.gen(function*() {
      const journal = yield* Journal.Journal
      yield* journal.settle(row.signature, status, slot)
      if (status === "landed" || status === "failed") yield* Metric.incrementBy(Metrics.feesSpent, row.fee)
    })
})

/**
 * Journals the fates of several stages in one commit. A stage that landed, with or without
 * error, paid its fee: counted in `feeshare_keeper_fees_lamports_total`.
 *
 * @since 0.1.0
 * @category steps
 */
export const settleAll = Step.make({
  name: "settleAll",
  success: Schema.Void,
  error: Step.SqlFailure,
  execute: (
    fates: ReadonlyArray<{
      readonly row: Pick<Journal.StageRow, "signature" | "fee">
      readonly status: Journal.StageStatus
      readonly slot: bigint | null
    }>
  ) =>
    Effect.gen(function*() {
      const journal = yield* Journal.Journal
      yield* journal.settleMany(fates.map(({ row, slot, status }) => ({ signature: row.signature, status, slot })))
      for (const { row, status } of fates) {
        if (status === "landed" || status === "failed") yield* Metric.incrementBy(Metrics.feesSpent, row.fee)
      }
    })
})

/**
 * Journals how a position's run ended (its key, outcome, lamports and fees), counts it in the
 * metrics and logs it (a warning for a failure to claim).
 *
 * @since 0.1.0
 * @category steps
 */
export const recordRun = Step.make({
  name: "recordRun",
  success: Schema.Void,
  error: Step.SqlFailure,
  execute: (
    run: { readonly wallet: string; readonly mint: string; readonly key: string; readonly startedAt: number },
    result: Outcome.Outcome
  ) =>
    Effect.gen(function*() {
      const journal = yield* Journal.Journal
      const { runner } = yield* Settings
      const at = yield* Clock.currentTimeMillis
      yield* journal.recordRun({
        wallet: run.wallet,
        mint: run.mint,
        key: run.key,
        outcome: result.outcome,
        tag: result.tag,
        message: result.message,
        lamports: result.lamports,
        fees: result.fees,
        at,
        runner,
        startedAt: run.startedAt
      })
      if (result.outcome === "claimed") {
        yield* Metric.increment(Metrics.claimsLanded)
        yield* Metric.incrementBy(Metrics.lamportsClaimed, result.lamports)
      } else if (result.outcome === "refused") {
        yield* Metric.increment(Metrics.refusals)
      } else if (Outcome.isFailure(result.outcome)) {
        yield* Metric.increment(Metrics.failures)
      }
      const log = Outcome.isFailure(result.outcome)
        ? Effect.logWarning(`position ${result.outcome}`)
        : Effect.logInfo(`position ${result.outcome}`)
      yield* log.pipe(Effect.annotateLogs({
        wallet: run.wallet,
        mint: run.mint,
        key: run.key,
        lamports: String(result.lamports),
        fees: String(result.fees),
        ...(result.tag === null ? {} : { tag: result.tag, reason: result.message ?? "" })
      }))
    })
})

/**
 * Journals that a runner's pass of a wallet began (`finishedAt` null) or ended.
 *
 * @since 0.1.0
 * @category steps
 */
export const recordOwner = Step.make({
  name: "recordOwner",
  success: Schema.Void,
  error: Step.SqlFailure,
  execute: (row: Journal.OwnerRow) => Effect.flatMap(Journal.Journal, (journal) => journal.recordOwner(row))
})

/**
 * The journaled execution of one position's run, as the plan executor's hooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface JournaledExecution {
  /** Journals a round's signed stages (`recordSigned`) before the executor sends any of them. */
  readonly beforeSend: (signed: ReadonlyArray<PlanExecutor.SignedStage>) => Effect.Effect<void>
  /** Keeps each stage's fate as the executor learns it, for `flush`. */
  readonly onEvent: (event: PlanExecutor.Event) => Effect.Effect<void>
  /**
   * Journals the fates kept since the last flush, in one commit (`settleAll`): after the
   * execution, and before a rebuild (whose fee cap counts the fees the journal shows).
   */
  readonly flush: Effect.Effect<void>
  /** The fees of the stages that landed (with or without error) so far. */
  readonly fees: () => bigint
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/**
 * The journaled execution of one position's run (its `key`): each round's signed stages
 * written before any is sent, each stage's fate as the executor learns it, and the fees paid
 * so far. Every stage is journaled with what the run claims (`payload.claimable`). Rounds are
 * numbered from `firstRound` (the first after those the key has journaled already: the claim's
 * `start` step read them). A journal that cannot be written stops the run (a defect): no stage
 * is sent unjournaled.
 *
 * @since 0.1.0
 * @category constructors
 */
export const journaledExecution = Effect.fn("JournalWrites.journaledExecution")(function*(payload: {
  readonly wallet: string
  readonly mint: string
  readonly key: string
  readonly claimable: bigint
}, firstRound: number) {
  const { options, runner } = yield* Settings
  const context = yield* Effect.context<Journal.Journal>()
  let round = firstRound
  const signatures = new Map<string, Journal.StageRow>()
  const paid: Array<bigint> = []
  // fates are kept here and journaled together (`flush`): a stage's fate is the chain's to
  // tell, so one lost in a crash is asked again (`reconcile`); its signed bytes are not
  const fates: Array<
    { readonly row: Journal.StageRow; readonly status: Journal.StageStatus; readonly slot: bigint | null }
  > = []
  const settleStage = (row: Journal.StageRow, status: Journal.StageStatus, slot: bigint | null) =>
    Effect.sync(() => {
      fates.push({ row, status, slot })
    })
  const flush = Effect.suspend(() => {
    const batch = fates.splice(0)
    return batch.length === 0
      ? Effect.void
      : settleAll.run(batch).pipe(Effect.orDie, Effect.provide(context))
  })
  const beforeSend = (signed: ReadonlyArray<PlanExecutor.SignedStage>) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const decoded = yield* Effect.forEach(
        signed,
        ({ stage }) => WireTransaction.decode(stage.transaction, stage.encoding, stage.id)
      )
      const rows = signed.map(({ stage, transaction }, i): Journal.StageRow => ({
        key: payload.key,
        wallet: payload.wallet,
        mint: payload.mint,
        round,
        stage: stage.id,
        kind: stage.kind,
        dependsOn: stage.dependsOn,
        signature: transaction.signature,
        bytes: base64(transaction.bytes),
        lastValidBlockHeight: stage.lifetime.lastValidBlockHeight,
        fee: decoded[i] === undefined ? 0n : WireTransaction.networkFee(decoded[i]),
        claimable: payload.claimable,
        status: "signed",
        slot: null,
        createdAt: now,
        runner
      }))
      round++
      yield* recordSigned.run(rows)
      for (const row of rows) signatures.set(row.stage, row)
      if (options.hooks?.afterJournal !== undefined) yield* options.hooks.afterJournal(rows.map((r) => r.stage))
    }).pipe(Effect.orDie, Effect.provide(context))
  const onEvent = (event: PlanExecutor.Event): Effect.Effect<void> => {
    switch (event._tag) {
      case "Submitted":
        return options.hooks?.afterSend === undefined
          ? Effect.void
          : options.hooks.afterSend(event.stage, event.signature)
      case "Landed": {
        const row = signatures.get(event.stage)
        if (row === undefined) return Effect.void
        paid.push(row.fee)
        return settleStage(row, "landed", event.slot)
      }
      case "Failed": {
        const row = signatures.get(event.stage)
        if (row === undefined) return Effect.void
        if (event.reason === "BlockhashExpired") return settleStage(row, "expired", null)
        if (event.reason === "TransactionFailed") {
          paid.push(row.fee)
          return settleStage(row, "failed", null)
        }
        return Effect.void
      }
      case "Rebuilt":
        return Metric.increment(Metrics.rebuilds)
      default:
        return Effect.void
    }
  }
  const journaled: JournaledExecution = {
    beforeSend,
    onEvent,
    flush,
    fees: () => paid.reduce((s, f) => s + f, 0n)
  }
  return journaled
})
