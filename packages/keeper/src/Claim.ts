/**
 * The claim of one position as a durable workflow: the plan built, every round's signed stages
 * journaled before any is sent, the journal settled with the chain first after a crash.
 *
 * @since 0.1.0
 */
import { Workflow } from "@effect/workflow"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import { type Claims, FeeShareError, Plan, Signer } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as ClaimCost from "@feeshare/solana/ClaimCost"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Clock, Effect, Schema } from "effect"
import * as Journal from "./Journal.js"
import * as JournalWrites from "./JournalWrites.js"
import type * as KeeperConfig from "./KeeperConfig.js"
import * as OutcomeModule from "./Outcome.js"
import { reconcile } from "./Reconcile.js"
import { Settings } from "./Settings.js"
import * as Step from "./Step.js"

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
 * The claim would not pay: what its verified transactions cost the wallet (network fees, rent
 * of the accounts they create) is more than `maxCostFraction` of what it would claim.
 *
 * @since 0.1.0
 * @category errors
 */
export class CostExceedsClaim extends Schema.TaggedError<CostExceedsClaim>()("CostExceedsClaim", {
  fees: Schema.BigInt,
  rent: Schema.BigInt,
  claimable: Schema.BigInt,
  maxCostFraction: Schema.Number,
  message: Schema.String
}) {}

/**
 * The claim of one position, durable: the idempotency key is the run's key (the wallet, the
 * token mint and the round: the number of runs of that position already finished) and, on a
 * cluster, the placement number that puts the workflow on the wallet's runner
 * (`Placement.ts`; 0, the key alone, on one machine).
 *
 * @since 0.1.0
 * @category workflows
 */
export const ClaimWorkflow = Workflow.make({
  name: "FeeshareKeeperClaim",
  payload: Schema.Struct({
    wallet: Schema.String,
    mint: Schema.String,
    key: Schema.String,
    claimable: Schema.Number,
    // absent (0) in the requests of keepers from before placement
    placement: Schema.optional(Schema.Number)
  }),
  success: Outcome,
  idempotencyKey: ({ key, placement }) => placement === undefined || placement === 0 ? key : `${key}@${placement}`
})

const planFee = (plan: Plan.TransactionPlan) =>
  Effect.map(
    Effect.forEach(plan.transactions, (stage) => WireTransaction.decode(stage.transaction, stage.encoding, stage.id)),
    (decoded) => decoded.reduce((sum, one) => sum + WireTransaction.networkFee(one), 0n)
  )

/** Whether a failure is one of the verification refusals (nothing was signed). */
export const isRefusal = OutcomeModule.isRefusal

/** An `Outcome` with nothing claimed, spent or signed unless given. */
export const outcome = OutcomeModule.make

/**
 * The claim-plan request of a position, with its plan options (`KeeperConfig.PlanOptions`:
 * `lookupTables` is the request's `additionalLookupTables`).
 */
export const request = (
  wallet: string,
  mint: string,
  format: Claims.TransactionFormat,
  options: KeeperConfig.PlanOptions = {}
): Claims.ClaimPlanRequest => ({
  feeClaimer: wallet,
  tokenMint: mint,
  transactionFormat: format,
  ...(options.source === undefined ? {} : { source: options.source }),
  ...(options.quoteMint === undefined ? {} : { quoteMint: options.quoteMint }),
  ...(options.feeLimits === undefined ? {} : { feeLimits: options.feeLimits }),
  ...(options.lookupTables === undefined ? {} : { additionalLookupTables: options.lookupTables })
})

/**
 * What a plan's transactions cost `wallet` (`ClaimCost`), read from their bytes.
 *
 * @since 0.1.0
 * @category claiming
 */
export const planCost = (plan: Plan.TransactionPlan, wallet: string) =>
  Effect.map(
    Effect.forEach(plan.transactions, (stage) => WireTransaction.decode(stage.transaction, stage.encoding, stage.id)),
    (decoded) => ClaimCost.ofTransactions(decoded, wallet)
  )

/**
 * A position of a wallet, and its workflow's key.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly wallet: string
  readonly mint: string
  readonly key: string
}

/**
 * What any call of the service can fail with.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ServiceFailure = Schema.Union(
  FeeShareError.ApiFailure,
  FeeShareError.InvalidRequest,
  FeeShareError.BudgetUnavailable
)

/**
 * What settling the journal with the chain reports.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Reconciled = Schema.Struct({ landed: Schema.Number, rebroadcast: Schema.Number, dead: Schema.Number })

/**
 * The first step: settles with the chain the stages an earlier attempt of the position
 * journaled (before a crash), so that nothing is built while they can still land.
 *
 * @since 0.1.0
 * @category steps
 */
export const settleEarlier = Step.make({
  name: "settleEarlier",
  success: Reconciled,
  error: Schema.Union(Step.SqlFailure, Chain.ChainUnavailable, Chain.PreflightFailed),
  execute: (position: Position) => reconcile({ wallet: position.wallet, mint: position.mint })
})

/**
 * Where a position's run starts: `Finished`, when an earlier attempt claimed it or nothing is
 * left to claim; else `Claim` the lamports claimable now, journaling from `round` on (the
 * rounds an earlier attempt journaled come first).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Start = Schema.Union(
  Schema.TaggedStruct("Finished", { outcome: Outcome }),
  Schema.TaggedStruct("Claim", { claimable: Schema.Number, round: Schema.Number })
)

/**
 * @since 0.1.0
 * @category models
 */
export type Start = typeof Start.Type

/**
 * The second step: what the settled journal says of earlier attempts. None: claim what the
 * pass saw. An earlier claim stage landed: that attempt's outcome. Else (nothing of it paid
 * for the claim): claim what the service says is claimable now, if anything.
 *
 * @since 0.1.0
 * @category steps
 */
export const start = Step.make({
  name: "start",
  success: Start,
  error: Schema.Union(Step.SqlFailure, ServiceFailure),
  execute: (position: Position, claimable: number) =>
    Effect.gen(function*() {
      const journal = yield* Journal.Journal
      const earlier = yield* journal.stagesOf(position.key)
      if (earlier.length === 0) return Start.members[1].make({ claimable, round: 0 })
      const claimed = earlier.find((row) => row.kind === "claim" && row.status === "landed")
      if (claimed !== undefined) {
        const fees = earlier.filter((row) => row.status === "landed" || row.status === "failed").reduce(
          (s, r) => s + r.fee,
          0n
        )
        return Start.members[0].make({
          // what the attempt that landed claimed (the journal's), else what the pass saw
          outcome: outcome({
            outcome: "claimed",
            lamports: claimed.claimable ?? BigInt(Math.trunc(claimable)),
            fees,
            signatures: [claimed.signature]
          })
        })
      }
      const client = yield* FeeShareClient
      const positions = yield* client.claims.positions({ wallet: position.wallet })
      const now = positions.find((p) => p.baseMint === position.mint)?.totalClaimableLamportsUserShare ?? 0
      return now <= 0
        ? Start.members[0].make({ outcome: outcome({ outcome: "nothing" }) })
        : Start.members[1].make({
          claimable: now,
          round: earlier.reduce((max, row) => Math.max(max, row.round + 1), 0)
        })
    })
})

/**
 * The fee-cap step: `plan`, unless its network fees and those the journal shows for the last
 * hour would pass `maxFeesPerHourLamports` (`FeeCapReached`). No cap: every plan passes.
 *
 * @since 0.1.0
 * @category steps
 */
export const checkFeeCap = Step.make({
  name: "checkFeeCap",
  success: Plan.TransactionPlan,
  error: Schema.Union(
    FeeCapReached,
    Step.SqlFailure,
    WireTransaction.MalformedTransaction,
    WireTransaction.NonCanonicalTransaction
  ),
  execute: (plan: Plan.TransactionPlan) =>
    Effect.gen(function*() {
      const { feeCap } = yield* Settings
      if (feeCap === null) return plan
      const journal = yield* Journal.Journal
      const now = yield* Clock.currentTimeMillis
      const spent = yield* journal.feesSince(now - 3_600_000)
      const needed = yield* planFee(plan)
      if (spent + needed > feeCap) {
        return yield* new FeeCapReached({
          spentLamports: spent,
          neededLamports: needed,
          capLamports: feeCap,
          message:
            `the plan needs ${needed} lamports of fees; ${spent} were spent in the last hour, the cap is ${feeCap}`
        })
      }
      return plan
    })
})

/**
 * The "claim only when it pays" step (when the wallet's `maxCostFraction` is set): `plan`,
 * unless it holds a claim stage and what its transactions cost the wallet (`ClaimCost`, read
 * from the bytes once the plan passed every verification made before signing) is more than
 * the fraction of `claimable` (`CostExceedsClaim`). A plan of setup stages only (a lookup
 * table the claim will use) passes: its claim is checked when the plan is asked again.
 *
 * @since 0.1.0
 * @category steps
 */
export const checkPays = Step.make({
  name: "checkPays",
  success: Plan.TransactionPlan,
  error: Schema.Union(
    CostExceedsClaim,
    Plan.InvalidPlan,
    WireTransaction.Refusal
  ),
  execute: (plan: Plan.TransactionPlan, wallet: string, claimable: number) =>
    Effect.gen(function*() {
      const { options, wallets } = yield* Settings
      const keeperWallet = wallets.get(wallet)
      const maxCostFraction = keeperWallet?.rules.maxCostFraction
      if (
        keeperWallet === undefined || maxCostFraction === undefined ||
        !plan.transactions.some((stage) => stage.kind === "claim")
      ) return plan
      yield* PlanExecutor.verify(plan, { format: options.config.transactionFormat }).pipe(
        Effect.provide(Signers.layer(keeperWallet.signer))
      )
      const cost = yield* planCost(plan, wallet)
      const owed = BigInt(Math.trunc(claimable))
      if (ClaimCost.pays(cost, owed, maxCostFraction)) return plan
      const skipped = OutcomeModule.skip(cost, owed, maxCostFraction)
      return yield* new CostExceedsClaim({
        ...cost,
        claimable: owed,
        maxCostFraction,
        message: skipped.message ?? ""
      })
    })
})

/**
 * The plan step: the service's claim plan for the position, through the fee cap and the "claim
 * only when it pays" check.
 *
 * @since 0.1.0
 * @category steps
 */
export const buildPlan = Step.make({
  name: "buildPlan",
  success: Plan.TransactionPlan,
  error: Schema.Union(ServiceFailure, checkFeeCap.error, checkPays.error),
  execute: (position: Position, claimable: number) =>
    Effect.gen(function*() {
      const { options, wallets } = yield* Settings
      const client = yield* FeeShareClient
      const plan = yield* client.claims.createPlan(
        request(
          position.wallet,
          position.mint,
          options.config.transactionFormat,
          wallets.get(position.wallet)?.rules.plan(position.mint)
        )
      )
      return yield* checkPays.run(yield* checkFeeCap.run(plan), position.wallet, claimable)
    })
})

/**
 * What executing a plan can fail with: the plan executor's errors and those of rebuilding it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExecutionFailure = Schema.Union(
  buildPlan.error,
  Plan.InvalidPlan,
  WireTransaction.Refusal,
  Signer.SignerError,
  Chain.PreflightFailed,
  Chain.TransactionFailed,
  Chain.ChainUnavailable,
  PlanExecutor.RebuildLimitReached,
  PlanExecutor.SetupTimedOut
)

/**
 * The execution step: builds the plan and runs it with the wallet's signer through the
 * journaled execution (`JournalWrites.journaledExecution`: every round's signed stages
 * journaled before any is sent), rebuilding it as the executor asks; `claimed` when it
 * completes.
 *
 * @since 0.1.0
 * @category steps
 */
export const execute = Step.make({
  name: "execute",
  success: Outcome,
  error: ExecutionFailure,
  execute: (
    position: Position,
    claimable: number,
    signer: KeeperConfig.Wallet["signer"],
    journaled: JournalWrites.JournaledExecution
  ) =>
    Effect.gen(function*() {
      const { commitment, options, rebroadcastInterval, warmupInterval } = yield* Settings
      const plan = yield* buildPlan.run(position, claimable)
      const result = yield* PlanExecutor.execute(plan, {
        rebuild: () => Effect.zipRight(journaled.flush, buildPlan.run(position, claimable)),
        commitment,
        format: options.config.transactionFormat,
        rebroadcastInterval,
        warmupInterval,
        beforeSend: journaled.beforeSend,
        onEvent: journaled.onEvent
      }).pipe(Effect.provide(Signers.layer(signer)), Effect.ensuring(journaled.flush))
      return outcome({
        outcome: "claimed",
        lamports: BigInt(claimable),
        fees: journaled.fees(),
        signatures: result.stages.map((s) => s.signature),
        rebuilds: result.rebuilds
      })
    })
})

/**
 * Claims one position (the body of the workflow's activity), step by step: `settleEarlier`,
 * `start`, then `execute` through the journaled execution. Every failure becomes an
 * `Outcome` with its tag (`Outcome.fromError`), with the fees paid by then.
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
    const { wallets } = yield* Settings
    const wallet = wallets.get(payload.wallet)
    if (wallet === undefined) {
      return outcome({ outcome: "failed", tag: "UnknownWallet", message: `no key for ${payload.wallet}` })
    }
    yield* settleEarlier.run(payload)
    const begin = yield* start.run(payload, payload.claimable)
    if (begin._tag === "Finished") return begin.outcome
    const journaled = yield* JournalWrites.journaledExecution(
      { ...payload, claimable: BigInt(Math.trunc(begin.claimable)) },
      begin.round
    )
    return yield* execute.run(payload, begin.claimable, wallet.signer, journaled).pipe(
      Effect.catchAll((error) =>
        Effect.succeed(
          error._tag === "CostExceedsClaim"
            ? { ...OutcomeModule.skip(error, error.claimable, error.maxCostFraction), fees: journaled.fees() }
            : OutcomeModule.fromError(error, journaled.fees())
        )
      )
    )
  }).pipe(Effect.catchAll((error) => Effect.succeed(OutcomeModule.fromError(error))))

/**
 * The claim workflow's implementation: the claim itself as the workflow's body (a persisted
 * engine, a cluster's, journals its result as the workflow's reply). After a crash the body runs
 * again; it settles the journal first. (An activity around the body would journal the same
 * result a second time: one more persisted request and reply per position, and nothing it could
 * replay that the journal does not already settle.)
 *
 * @since 0.1.0
 * @category layers
 */
export const ClaimWorkflowLive = ClaimWorkflow.toLayer((payload) => claimPosition(payload))
