/**
 * One round of an execution: verify every pending stage (nothing is signed unless all pass),
 * sign them one at a time, hand them to `beforeSend`, then submit in the plan's order as
 * `Plan.schedule` allows while the confirmations run concurrently. The round ends when every
 * submitted stage landed, or at the first expiry (the caller rebuilds) or failure.
 *
 * Private to this package.
 */
import { Plan } from "@feeshare/domain"
import { type Duration, Effect, Either, Queue } from "effect"
import * as Chain from "../Chain.js"
import { Event, type LandedStage, type SignedStage } from "../PlanProgress.js"
import * as Signers from "../Signers.js"
import * as WireTransaction from "../WireTransaction.js"

type Outcome =
  | { readonly _tag: "Landed"; readonly stage: Plan.Stage; readonly landed: Chain.Landed }
  | { readonly _tag: "Expired"; readonly stage: Plan.Stage; readonly error: Chain.BlockhashExpired }
  | {
    readonly _tag: "Failed"
    readonly stage: Plan.Stage
    readonly error: Chain.PreflightFailed | Chain.TransactionFailed | Chain.ChainUnavailable
  }

/** What landed so far, across rounds and rebuilds. */
export interface Run {
  readonly landed: Map<string, LandedStage>
  readonly order: Array<LandedStage>
}

/**
 * Runs the stages of one plan: verify all, sign all, then submit as `Plan.schedule`
 * allows. Returns whether a stage expired (the caller rebuilds).
 */
export const runStages = (
  plan: Pick<Plan.TransactionPlan, "transactions">,
  run: Run,
  options: {
    readonly commitment: Chain.Commitment
    readonly emit: (event: Event) => Effect.Effect<void>
    readonly rebroadcastInterval: Duration.DurationInput
    readonly beforeSend: ((signed: ReadonlyArray<SignedStage>) => Effect.Effect<void>) | undefined
  }
) =>
  Effect.gen(function*() {
    const signers = yield* Signers.Signers
    const pending = plan.transactions.filter((stage) => !run.landed.has(stage.id))
    // every stage is verified (concurrently) before any is signed
    const verified = yield* Effect.forEach(
      pending,
      (stage) =>
        WireTransaction.verifyStage(stage, Signers.forTransaction(signers, stage.requiredSigners)).pipe(
          Effect.tapBoth({
            onFailure: (error) =>
              options.emit(Event.Failed({ stage: stage.id, reason: error._tag, message: error.message })),
            onSuccess: () => options.emit(Event.Verified({ stage: stage.id }))
          })
        ),
      { concurrency: 8 }
    )
    // signed one at a time (a wallet may prompt for each)
    const signed = new Map<string, WireTransaction.Signed>()
    for (const item of verified) {
      const transaction = yield* WireTransaction.sign(item)
      const id = item.decoded.label
      signed.set(id, transaction)
      yield* options.emit(Event.Signed({ stage: id, signature: transaction.signature }))
    }
    if (options.beforeSend !== undefined && pending.length > 0) {
      yield* options.beforeSend(pending.flatMap((stage) => {
        const transaction = signed.get(stage.id)
        return transaction === undefined ? [] : [{ stage, transaction }]
      }))
    }

    const progress = { submitted: new Set<string>(), landed: new Set(run.landed.keys()) }
    const outcomes = yield* Queue.unbounded<Outcome>()
    let inFlight = 0
    let expired = false

    const confirmOptions = { commitment: options.commitment, rebroadcastInterval: options.rebroadcastInterval }
    // submitted in order by this fiber; only the confirmations run concurrently
    const submit = (stage: Plan.Stage) =>
      Effect.gen(function*() {
        const transaction = signed.get(stage.id)
        if (transaction === undefined) return yield* Effect.dieMessage(`stage ${stage.id} was not signed`)
        const attempt = yield* Chain.submit(transaction, confirmOptions).pipe(
          Effect.map(Either.right),
          Effect.catchTag("BlockhashExpired", (error) => Effect.succeed(Either.left(error)))
        )
        if (Either.isLeft(attempt)) {
          yield* Queue.offer(outcomes, { _tag: "Expired", stage, error: attempt.left })
          return false
        }
        const submitted = attempt.right
        yield* options.emit(Event.Submitted({ stage: stage.id, signature: transaction.signature }))
        yield* Chain.confirm(submitted, confirmOptions).pipe(
          Effect.matchEffect({
            onSuccess: (landed) => Queue.offer(outcomes, { _tag: "Landed", stage, landed }),
            onFailure: (error) =>
              Queue.offer(
                outcomes,
                error._tag === "BlockhashExpired" ? { _tag: "Expired", stage, error } : { _tag: "Failed", stage, error }
              )
          }),
          Effect.forkScoped
        )
        return true
      })

    // not a repeat: no time is waited here; each turn sends what the landed stages unblock and
    // then takes the next outcome from the queue the confirmations fill (their polling is
    // `Chain.confirm`'s schedule)
    while (true) {
      if (!expired) {
        for (const stage of Plan.schedule(plan, progress)) {
          progress.submitted.add(stage.id)
          inFlight++
          const sent = yield* submit(stage).pipe(
            Effect.tapError((error) =>
              options.emit(Event.Failed({ stage: stage.id, reason: error._tag, message: error.message }))
            )
          )
          if (!sent) {
            expired = true
            break
          }
        }
      }
      if (inFlight === 0) break
      const outcome = yield* Queue.take(outcomes)
      inFlight--
      const id = outcome.stage.id
      if (outcome._tag === "Landed") {
        const landed: LandedStage = {
          id,
          kind: outcome.stage.kind,
          signature: outcome.landed.signature,
          slot: outcome.landed.slot
        }
        progress.landed.add(id)
        run.landed.set(id, landed)
        run.order.push(landed)
        yield* options.emit(Event.Landed({ stage: id, signature: landed.signature, slot: landed.slot }))
      } else {
        yield* options.emit(Event.Failed({ stage: id, reason: outcome.error._tag, message: outcome.error.message }))
        if (outcome._tag === "Expired") expired = true
        else return yield* outcome.error
      }
    }
    return { expired }
  }).pipe(Effect.scoped)
