/**
 * Executes a claim plan: validates it, verifies every stage before signing any, submits the
 * stages in the given order as soon as their dependencies have landed (independent stages
 * overlap their confirmations), runs lookup-table setup and waits for the table to warm up,
 * rebuilds the plan when a blockhash expires, never resubmits a landed stage, and reports
 * progress as events.
 *
 * This module holds the dry-run checks (`verify`, `checkFormat`, `expiredStages`) and the
 * rebuild loop of `execute` (setup, warm-up, expiry); one round of verify, sign and submit is
 * `internal/planRound`; the events and results are `PlanProgress` (re-exported here).
 *
 * @since 0.1.0
 */
import { type Claims, Plan, type Signer } from "@feeshare/domain"
import { Clock, Duration, Effect, Mailbox, Schema, Stream } from "effect"
import * as Chain from "./Chain.js"
import { type Run, runStages } from "./internal/planRound.js"
import * as Settings from "./internal/settings.js"
import { Event, type RebuildReason, type Result, type SignedStage } from "./PlanProgress.js"
import * as Signers from "./Signers.js"
import * as WireTransaction from "./WireTransaction.js"

/**
 * The events and results of an execution, defined in `PlanProgress` (where the rounds of
 * `internal/planRound` import them from).
 *
 * @since 0.1.0
 */
export { Event, type LandedStage, type RebuildReason, type Result, type SignedStage } from "./PlanProgress.js"

/**
 * More blockhash expiries or setup rounds than `maxRebuilds` allows.
 *
 * @since 0.1.0
 * @category errors
 */
export class RebuildLimitReached extends Schema.TaggedError<RebuildLimitReached>()("RebuildLimitReached", {
  rebuilds: Schema.Number,
  message: Schema.String
}) {}

/**
 * The lookup table was still warming up (empty plan, `setup_required`) at the deadline.
 *
 * @since 0.1.0
 * @category errors
 */
export class SetupTimedOut extends Schema.TaggedError<SetupTimedOut>()("SetupTimedOut", {
  waitedMillis: Schema.Number,
  message: Schema.String
}) {}

/**
 * Everything `execute` can fail with, besides the errors of `rebuild`.
 *
 * @since 0.1.0
 * @category errors
 */
export type ExecuteError =
  | Plan.InvalidPlan
  | WireTransaction.Refusal
  | Signer.SignerError
  | Chain.PreflightFailed
  | Chain.TransactionFailed
  | Chain.ChainUnavailable
  | RebuildLimitReached
  | SetupTimedOut

/**
 * @since 0.1.0
 * @category models
 */
export interface Options<E, R> {
  /** Asks the service for the plan again (after setup, while warming up, after expiry). */
  readonly rebuild: () => Effect.Effect<Plan.TransactionPlan, E, R>
  /** Default `confirmed`. */
  readonly commitment?: Chain.Commitment | undefined
  readonly onEvent?: ((event: Event) => Effect.Effect<void>) | undefined
  /** Rebuilds after setup or expiry (warm-up polls are bounded by the deadline). Default 5. */
  readonly maxRebuilds?: number | undefined
  /** Wait between warm-up polls. Default 2 seconds. */
  readonly warmupInterval?: Duration.DurationInput | undefined
  /** Give up warming up after this long. Default 2 minutes. */
  readonly warmupDeadline?: Duration.DurationInput | undefined
  /** See `Chain.sendAndConfirm`. Default 2 seconds. */
  readonly rebroadcastInterval?: Duration.DurationInput | undefined
  /**
   * The `transactionFormat` the plan was requested in (`v0` when the request left it out):
   * every stage of every plan must be in it, or the plan is refused before any signature.
   */
  readonly format?: Claims.TransactionFormat | undefined
  /**
   * Called once per round with every stage just signed, before any of them is sent (a durable
   * caller journals the signed bytes here). A failure or defect stops the run: nothing of the
   * round is sent.
   */
  readonly beforeSend?: ((signed: ReadonlyArray<SignedStage>) => Effect.Effect<void>) | undefined
}

/**
 * Refuses a plan with a stage whose `format` is not the one requested.
 *
 * @since 0.1.0
 * @category verification
 */
export const checkFormat = (
  plan: Pick<Plan.TransactionPlan, "transactions">,
  format: Claims.TransactionFormat
): Effect.Effect<void, WireTransaction.FormatMismatch> => {
  const stage = plan.transactions.find((candidate) => candidate.format !== format)
  return stage === undefined
    ? Effect.void
    : Effect.fail(
      new WireTransaction.FormatMismatch({
        stage: stage.id,
        message: `${stage.id}: the stage is ${stage.format} but the plan was requested as ${format}`
      })
    )
}

/**
 * What `verify` found: every stage passed every check made before a signature.
 *
 * @since 0.1.0
 * @category models
 */
export interface Verification {
  readonly stages: ReadonlyArray<{
    readonly id: string
    readonly kind: Plan.StageKind
    readonly format: Claims.TransactionFormat
    readonly requiredSigners: ReadonlyArray<string>
    readonly lastValidBlockHeight: bigint
  }>
}

/**
 * Every check `execute` makes before it signs, and nothing else: the plan's rules
 * (`Plan.validate`), the requested format, and each stage's bytes against its metadata with
 * the local signers. A dry run: nothing is signed or sent.
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (
  plan: Plan.TransactionPlan,
  options: { readonly format?: Claims.TransactionFormat | undefined } = {}
): Effect.Effect<Verification, Plan.InvalidPlan | WireTransaction.Refusal, Signers.Signers> =>
  Effect.gen(function*() {
    yield* Plan.validate(plan)
    if (options.format !== undefined) yield* checkFormat(plan, options.format)
    const signers = yield* Signers.Signers
    yield* Effect.forEach(
      plan.transactions,
      (stage) => WireTransaction.verifyStage(stage, Signers.forTransaction(signers, stage.requiredSigners)),
      { concurrency: 8, discard: true }
    )
    return {
      stages: plan.transactions.map((stage) => ({
        id: stage.id,
        kind: stage.kind,
        format: stage.format,
        requiredSigners: stage.requiredSigners,
        lastValidBlockHeight: stage.lifetime.lastValidBlockHeight
      }))
    }
  })

/**
 * The stages whose blockhash has expired at the chain's current block height (they would be
 * rebuilt before sending).
 *
 * @since 0.1.0
 * @category verification
 */
export const expiredStages = (
  plan: Pick<Plan.TransactionPlan, "transactions">,
  commitment: Chain.Commitment = "confirmed"
): Effect.Effect<ReadonlyArray<string>, Chain.ChainUnavailable, Chain.Chain> =>
  Effect.map(
    Effect.flatMap(Chain.Chain, (chain) => chain.blockHeight(commitment)),
    (height) =>
      plan.transactions.filter((stage) => stage.lifetime.lastValidBlockHeight < height).map((stage) => stage.id)
  )

/**
 * Executes a plan with the local `Signers` on the `Chain` (see the module description).
 * Succeeds with every landed stage; fails with the first refusal (before anything is
 * signed), an on-chain failure, or a bound reached.
 *
 * @since 0.1.0
 * @category execution
 */
export const execute = <E, R>(
  plan: Plan.TransactionPlan,
  options: Options<E, R>
): Effect.Effect<Result, ExecuteError | E, R | Chain.Chain | Signers.Signers> =>
  Effect.gen(function*() {
    const emit = options.onEvent ?? (() => Effect.void)
    const commitment = options.commitment ?? "confirmed"
    const maxRebuilds = options.maxRebuilds ?? 5
    const warmupInterval = Duration.decode(options.warmupInterval ?? Settings.warmupPoll)
    const warmupDeadline = Duration.toMillis(options.warmupDeadline ?? Settings.warmupDeadline)
    const rebroadcastInterval = options.rebroadcastInterval ?? Settings.rebroadcast
    const beforeSend = options.beforeSend
    const run: Run = { landed: new Map(), order: [] }
    let rebuilds = 0
    let warmingSince: number | undefined
    let current = plan

    const rebuild = (reason: RebuildReason) =>
      Effect.gen(function*() {
        if (reason !== "warming_up") {
          rebuilds++
          if (rebuilds > maxRebuilds) {
            return yield* new RebuildLimitReached({
              rebuilds: maxRebuilds,
              message: `the plan was rebuilt ${maxRebuilds} times and still did not complete`
            })
          }
        }
        const next = yield* options.rebuild()
        yield* emit(Event.Rebuilt({ attempt: rebuilds, reason, stages: next.transactions.length }))
        return next
      })

    const checked = (next: Plan.TransactionPlan) =>
      Effect.zipRight(
        Plan.validate(next),
        options.format === undefined ? Effect.void : checkFormat(next, options.format)
      )
    const warmingUp = (next: Plan.TransactionPlan) =>
      next.readiness.status === Plan.setupRequired && next.transactions.length === 0
    // while its lookup table warms up the plan has nothing to send: rebuilt every
    // `warmupInterval` until it has stages, `SetupTimedOut` past `warmupDeadline`
    const warmUp = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      warmingSince ??= now
      if (now - warmingSince >= warmupDeadline) {
        return yield* new SetupTimedOut({
          waitedMillis: now - warmingSince,
          message: `the lookup table was still warming up after ${now - warmingSince} ms`
        })
      }
      yield* emit(Event.Waiting({ reason: "warming_up", delay: warmupInterval }))
      return yield* Effect.delay(rebuild("warming_up"), warmupInterval).pipe(Effect.tap(checked))
    })

    // not a repeat: each turn runs the plan's next state (warm-up, setup stages, the stages,
    // a rebuild after an expiry), and only the warm-up waits, through its own repeat
    yield* checked(current)
    while (true) {
      if (warmingUp(current)) {
        current = yield* Effect.repeat(warmUp, { until: (next) => !warmingUp(next) })
      }
      if (current.readiness.status === Plan.setupRequired) {
        const setup = {
          transactions: current.transactions.filter((stage) => stage.kind === "lookup_table_setup")
        }
        yield* Plan.validate({ ...setup, readiness: current.readiness })
        const outcome = yield* runStages(setup, run, { commitment, emit, rebroadcastInterval, beforeSend })
        current = yield* Effect.tap(rebuild(outcome.expired ? "expired" : "setup"), checked)
        continue
      }
      const outcome = yield* runStages(current, run, { commitment, emit, rebroadcastInterval, beforeSend })
      if (!outcome.expired) {
        const result: Result = { stages: [...run.order], rebuilds }
        yield* emit(Event.Completed({ result }))
        return result
      }
      current = yield* Effect.tap(rebuild("expired"), checked)
    }
  }).pipe(
    Effect.locally(Chain.endpointFailureListener, (failure) =>
      (options.onEvent ?? (() => Effect.void))(Event.EndpointFailed(failure))),
    Effect.withSpan("PlanExecutor.execute")
  )

/**
 * `execute` as a stream of events, ending with `Completed` (or failing with the error).
 *
 * @since 0.1.0
 * @category execution
 */
export const stream = <E, R>(
  plan: Plan.TransactionPlan,
  options: Omit<Options<E, R>, "onEvent">
): Stream.Stream<Event, ExecuteError | E, R | Chain.Chain | Signers.Signers> =>
  Stream.unwrapScoped(
    Effect.gen(function*() {
      const mailbox = yield* Mailbox.make<Event, ExecuteError | E>()
      yield* execute(plan, { ...options, onEvent: (event) => Effect.asVoid(mailbox.offer(event)) }).pipe(
        Mailbox.into(mailbox),
        Effect.forkScoped
      )
      return Mailbox.toStream(mailbox)
    })
  )
