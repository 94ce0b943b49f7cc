/**
 * The claim of one position as a durable workflow: the plan built, every round's signed stages
 * journaled before any is sent, the journal settled with the chain first after a crash.
 *
 * @since 0.1.0
 */
import { Activity, Workflow } from "@effect/workflow"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { Claims, Plan } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Clock, Effect, Metric, Schema } from "effect"
import * as Journal from "./Journal.js"
import * as Metrics from "./Metrics.js"
import * as OutcomeModule from "./Outcome.js"
import { reconcile } from "./Reconcile.js"
import { Settings } from "./Settings.js"

/**
 * How a position's run ended (`Outcome.ts`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Outcome = OutcomeModule.Outcome

/**
 * @since 0.1.0
 * @category models
 */
export type Outcome = OutcomeModule.Outcome

/**
 * The spending would pass `maxFeesPerHourLamports`.
 *
 * @since 0.1.0
 * @category errors
 */
export class FeeCapReached extends Schema.TaggedError<FeeCapReached>()("FeeCapReached", {
  spentLamports: Schema.BigInt,
  neededLamports: Schema.BigInt,
  capLamports: Schema.BigInt,
  message: Schema.String
}) {}

/**
 * The claim of one position, durable: the idempotency key is the wallet, the token mint and
 * the round (the number of runs of that position already finished).
 *
 * @since 0.1.0
 * @category workflows
 */
export const ClaimWorkflow = Workflow.make({
  name: "FeeshareKeeperClaim",
  payload: { wallet: Schema.String, mint: Schema.String, key: Schema.String, claimable: Schema.Number },
  success: Outcome,
  idempotencyKey: ({ key }) => key
})

const planFee = (plan: Plan.TransactionPlan) =>
  Effect.map(
    Effect.forEach(plan.transactions, (stage) => WireTransaction.decode(stage.transaction, stage.encoding, stage.id)),
    (decoded) => decoded.reduce((sum, one) => sum + WireTransaction.networkFee(one), 0n)
  )

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** Whether a failure is one of the verification refusals (nothing was signed). */
export const isRefusal = OutcomeModule.isRefusal

/** An `Outcome` with nothing claimed, spent or signed unless given. */
export const outcome = OutcomeModule.make

/** The claim-plan request of a position. */
export const request = (wallet: string, mint: string, format: Claims.TransactionFormat): Claims.ClaimPlanRequest => ({
  feeClaimer: wallet,
  tokenMint: mint,
  transactionFormat: format
})

/**
 * The fee-cap step: `plan`, unless its network fees and those the journal shows for the last
 * hour would pass `maxFeesPerHourLamports` (`FeeCapReached`). No cap: every plan passes.
 *
 * @since 0.1.0
 * @category steps
 */
export const checkFeeCap = Effect.fn("Claim.checkFeeCap")(function*(plan: Plan.TransactionPlan) {
  const { options } = yield* Settings
  const cap = options.config.maxFeesPerHourLamports
  if (cap === undefined) return plan
  const journal = yield* Journal.Journal
  const now = yield* Clock.currentTimeMillis
  const spent = yield* journal.feesSince(now - 3_600_000)
  const needed = yield* planFee(plan)
  if (spent + needed > BigInt(cap)) {
    return yield* new FeeCapReached({
      spentLamports: spent,
      neededLamports: needed,
      capLamports: BigInt(cap),
      message: `the plan needs ${needed} lamports of fees; ${spent} were spent in the last hour, the cap is ${cap}`
    })
  }
  return plan
})

/**
 * The journaled execution of one position's run, as the plan executor's hooks: each round's
 * signed stages written before any is sent (`beforeSend`), each stage's fate as the executor
 * learns it (`onEvent`), and the fees paid so far. Rounds continue from those the key has
 * journaled already.
 *
 * @since 0.1.0
 * @category steps
 */
export const journaledExecution = Effect.fn("Claim.journaledExecution")(function*(payload: {
  readonly wallet: string
  readonly mint: string
  readonly key: string
}) {
  const { options, runner } = yield* Settings
  const journal = yield* Journal.Journal
  let round = (yield* journal.stagesOf(payload.key)).reduce((max, row) => Math.max(max, row.round + 1), 0)
  const signatures = new Map<string, Journal.StageRow>()
  const landedFees: Array<bigint> = []
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
        status: "signed",
        slot: null,
        createdAt: now,
        runner
      }))
      round++
      yield* journal.recordSigned(rows)
      for (const row of rows) signatures.set(row.stage, row)
      if (options.hooks?.afterJournal !== undefined) yield* options.hooks.afterJournal(rows.map((r) => r.stage))
    }).pipe(Effect.orDie)
  const onEvent = (event: PlanExecutor.Event): Effect.Effect<void> => {
    switch (event._tag) {
      case "Submitted":
        return options.hooks?.afterSend === undefined
          ? Effect.void
          : options.hooks.afterSend(event.stage, event.signature)
      case "Landed": {
        const row = signatures.get(event.stage)
        if (row === undefined) return Effect.void
        landedFees.push(row.fee)
        return Effect.zipRight(
          Metric.incrementBy(Metrics.feesSpent, row.fee),
          journal.settle(row.signature, "landed", event.slot).pipe(Effect.orDie)
        )
      }
      case "Failed": {
        const row = signatures.get(event.stage)
        if (row === undefined) return Effect.void
        if (event.reason === "BlockhashExpired") {
          return journal.settle(row.signature, "expired", null).pipe(Effect.orDie)
        }
        if (event.reason === "TransactionFailed") {
          landedFees.push(row.fee)
          return journal.settle(row.signature, "failed", null).pipe(Effect.orDie)
        }
        return Effect.void
      }
      case "Rebuilt":
        return Metric.increment(Metrics.rebuilds)
      default:
        return Effect.void
    }
  }
  return { beforeSend, onEvent, fees: () => landedFees.reduce((s, f) => s + f, 0n) }
})

/**
 * Claims one position (the body of the workflow's activity): settles what an earlier attempt
 * journaled, then builds the plan and executes it, journaling each round's signed stages
 * before any is sent. Every failure becomes an `Outcome` with its tag.
 *
 * @since 0.1.0
 * @category claiming
 */
export const claimPosition = (payload: {
  readonly wallet: string
  readonly mint: string
  readonly key: string
  readonly claimable: number
}): Effect.Effect<Outcome, never, Settings | Journal.Journal | Chain.Chain | FeeShareClient> =>
  Effect.gen(function*() {
    const { options, rebroadcastInterval, wallets, warmupInterval } = yield* Settings
    const journal = yield* Journal.Journal
    const client = yield* FeeShareClient
    const config = options.config
    const wallet = wallets.get(payload.wallet)
    if (wallet === undefined) {
      return outcome({ outcome: "failed", tag: "UnknownWallet", message: `no key for ${payload.wallet}` })
    }
    const commitment = config.commitment

    // an earlier attempt (before a crash) may have journaled stages: settle them first
    yield* reconcile({ wallet: payload.wallet, mint: payload.mint }, { commitment, rebroadcastInterval })
    const earlier = yield* journal.stagesOf(payload.key)
    let claimable = payload.claimable
    if (earlier.length > 0) {
      const claimed = earlier.find((row) => row.kind === "claim" && row.status === "landed")
      if (claimed !== undefined) {
        const fees = earlier.filter((row) => row.status === "landed" || row.status === "failed").reduce(
          (s, r) => s + r.fee,
          0n
        )
        return outcome({ outcome: "claimed", lamports: BigInt(claimable), fees, signatures: [claimed.signature] })
      }
      // nothing of the earlier attempt paid: what is claimable now?
      const positions = yield* client.claims.positions({ wallet: payload.wallet })
      claimable = positions.find((p) => p.baseMint === payload.mint)?.totalClaimableLamportsUserShare ?? 0
      if (claimable <= 0) return outcome({ outcome: "nothing" })
    }

    const ask = request(payload.wallet, payload.mint, config.transactionFormat)
    const build = () => Effect.flatMap(client.claims.createPlan(ask), checkFeeCap)
    const journaled = yield* journaledExecution(payload)
    const run = Effect.gen(function*() {
      const plan = yield* build()
      return yield* PlanExecutor.execute(plan, {
        rebuild: build,
        commitment,
        format: config.transactionFormat,
        rebroadcastInterval,
        warmupInterval,
        beforeSend: journaled.beforeSend,
        onEvent: journaled.onEvent
      }).pipe(Effect.provide(Signers.layer(wallet.signer)))
    })
    const fees = journaled.fees
    return yield* run.pipe(
      Effect.map((result) =>
        outcome({
          outcome: "claimed",
          lamports: BigInt(claimable),
          fees: fees(),
          signatures: result.stages.map((s) => s.signature),
          rebuilds: result.rebuilds
        })
      ),
      Effect.catchAll((error) => Effect.succeed(OutcomeModule.fromError(error, fees())))
    )
  }).pipe(
    Effect.catchAll((error) => Effect.succeed(outcome({ outcome: "failed", tag: error._tag, message: error.message })))
  )

/**
 * The claim workflow's implementation: one activity, `claim`, whose result the engine
 * journals. After a crash the activity runs again; it settles the journal first.
 *
 * @since 0.1.0
 * @category layers
 */
export const ClaimWorkflowLive = ClaimWorkflow.toLayer((payload) =>
  Activity.make({ name: "claim", success: Outcome, execute: claimPosition(payload) })
)
