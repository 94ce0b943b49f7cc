/**
 * The keeper: for each wallet, reads its claimable positions (and vault claimables), picks
 * what passes the policy, and claims each position in a durable workflow
 * (`@effect/workflow`, one per wallet, position and round) that runs the plan with the plan
 * executor. Every stage's signed bytes and signature are journaled before they are sent;
 * before anything else, a pass asks the chain about every journaled signature that has no
 * known fate, sends the same bytes again while they can still land, and rebuilds nothing
 * until they can no longer land.
 *
 * @since 0.1.0
 */
import { ClusterWorkflowEngine, SingleRunner } from "@effect/cluster"
import type { SqlError } from "@effect/sql/SqlError"
import { Activity, Workflow, WorkflowEngine } from "@effect/workflow"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { Claims, Plan } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Clock, Context, Duration, Effect, Layer, Metric, Option, Schema } from "effect"
import * as Journal from "./Journal.js"
import * as Metrics from "./Metrics.js"
import * as Policy from "./Policy.js"

/**
 * Points where a test (or an operator's probe) can stop the keeper: after a round's signed
 * stages are journaled (nothing sent yet), and after a stage was sent (not yet confirmed).
 *
 * @since 0.1.0
 * @category models
 */
export interface Hooks {
  readonly afterJournal?: ((stages: ReadonlyArray<string>) => Effect.Effect<void>) | undefined
  readonly afterSend?: ((stage: string, signature: string) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly config: Policy.Config
  readonly wallets: ReadonlyArray<Policy.Wallet>
  /** Warm-up polls of a new lookup table (default 500 ms). */
  readonly warmupInterval?: Duration.DurationInput | undefined
  /** Rebroadcast of an unconfirmed transaction (default 1 second). */
  readonly rebroadcastInterval?: Duration.DurationInput | undefined
  readonly hooks?: Hooks | undefined
  /** This runner's address on a cluster, recorded with every stage and run it journals. */
  readonly runner?: string | undefined
}

/**
 * What the keeper runs with.
 *
 * @since 0.1.0
 * @category tags
 */
export class Settings extends Context.Tag("@feeshare/keeper/Settings")<Settings, {
  readonly options: Options
  readonly wallets: ReadonlyMap<string, Policy.Wallet>
}>() {}

/**
 * How a position's run ended.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Outcome = Schema.Struct({
  outcome: Schema.Literal("claimed", "nothing", "dry-run", "refused", "failed", "fee-cap"),
  tag: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String),
  lamports: Schema.BigInt,
  fees: Schema.BigInt,
  signatures: Schema.Array(Schema.String),
  rebuilds: Schema.Number
})

/**
 * @since 0.1.0
 * @category models
 */
export type Outcome = typeof Outcome.Type

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

/** 5000 lamports per signature plus the priority fee, as the runtime charges it. */
const feeOf = (decoded: WireTransaction.Decoded): bigint => {
  const base = 5_000n * BigInt(decoded.signers.length)
  const price = decoded.budget.priorityFee ?? 0n
  if (decoded.version === 1) return base + price
  const units = BigInt(decoded.budget.computeUnitLimit ?? 200_000)
  return base + (units * price + 999_999n) / 1_000_000n
}

const planFee = (plan: Plan.TransactionPlan) =>
  Effect.map(
    Effect.forEach(plan.transactions, (stage) => WireTransaction.decode(stage.transaction, stage.encoding, stage.id)),
    (decoded) => decoded.reduce((sum, one) => sum + feeOf(one), 0n)
  )

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

const sendableOf = (row: Journal.StageRow): Chain.Sendable => ({
  bytes: Uint8Array.from(Buffer.from(row.bytes, "base64")),
  signature: row.signature,
  lastValidBlockHeight: Option.some(row.lastValidBlockHeight)
})

const isRefusal = Schema.is(WireTransaction.Refusal)

/**
 * Settles every journaled stage with no known fate (all, or one wallet's position): landed,
 * failed, or, when the chain does not know it, the same bytes are sent again while they can
 * still land (`expired` once they cannot). A stage whose dependency never landed was never
 * sent (the executor sends a stage only after its dependencies landed): `abandoned`.
 *
 * @since 0.1.0
 * @category recovery
 */
export const reconcile = (
  filter?: { readonly wallet: string; readonly mint: string },
  options: { readonly commitment?: Chain.Commitment; readonly rebroadcastInterval?: Duration.DurationInput } = {}
): Effect.Effect<
  { readonly landed: number; readonly rebroadcast: number; readonly dead: number },
  SqlError | Chain.ChainUnavailable | Chain.PreflightFailed,
  Journal.Journal | Chain.Chain
> =>
  Effect.gen(function*() {
    const journal = yield* Journal.Journal
    const chain = yield* Chain.Chain
    const commitment = options.commitment ?? "confirmed"
    const rows = yield* journal.unsettled(filter)
    const counts = { landed: 0, rebroadcast: 0, dead: 0 }
    const groups = new Map<string, Array<Journal.StageRow>>()
    for (const row of rows) {
      const id = `${row.key}#${row.round}`
      groups.set(id, [...(groups.get(id) ?? []), row])
    }
    const settle = (row: Journal.StageRow, status: Journal.StageStatus, slot: bigint | null) =>
      Effect.zipRight(
        journal.settle(row.signature, status, slot),
        Effect.sync(() => {
          if (status === "landed") counts.landed++
          else counts.dead++
        })
      )
    yield* Effect.forEach([...groups.values()], (group) =>
      Effect.gen(function*() {
        const first = group[0]
        if (first === undefined) return
        const landed = new Set(
          (yield* journal.stagesOf(first.key)).filter((row) => row.round === first.round && row.status === "landed").map((
            row
          ) => row.stage)
        )
        for (const row of group) {
          const known = yield* chain.signatureStatus(row.signature, { searchHistory: true })
          let outcome: { readonly status: Journal.StageStatus; readonly slot: bigint | null }
          if (Option.isSome(known) && known.value.err !== null && known.value.err !== undefined) {
            outcome = { status: "failed", slot: known.value.slot }
          } else if (
            Option.isSome(known) && known.value.confirmationStatus !== null &&
            Chain.meets(known.value.confirmationStatus, commitment)
          ) {
            outcome = { status: "landed", slot: known.value.slot }
          } else if (Option.isNone(known) && !row.dependsOn.every((dep) => landed.has(dep))) {
            outcome = { status: "abandoned", slot: null }
          } else {
            // known but not yet at the commitment, or unknown: the same bytes, until landed or expired
            if (Option.isNone(known)) {
              counts.rebroadcast++
              yield* Metric.increment(Metrics.rebroadcasts)
              yield* Effect.logInfo("rebroadcasting a journaled transaction").pipe(
                Effect.annotateLogs({ wallet: row.wallet, mint: row.mint, stage: row.stage, signature: row.signature })
              )
            }
            const confirmOptions = { commitment, rebroadcastInterval: options.rebroadcastInterval ?? "1 second", skipPreflight: true }
            outcome = yield* Chain.submit(sendableOf(row), confirmOptions).pipe(
              Effect.flatMap((submitted) => Chain.confirm(submitted, confirmOptions)),
              Effect.map((done) => ({ status: "landed" as const, slot: done.slot })),
              Effect.catchTags({
                BlockhashExpired: () => Effect.succeed({ status: "expired" as const, slot: null }),
                TransactionFailed: (error) => Effect.succeed({ status: "failed" as const, slot: error.slot })
              })
            )
          }
          if (outcome.status === "landed") {
            landed.add(row.stage)
            yield* Metric.incrementBy(Metrics.feesSpent, row.fee)
          } else if (outcome.status === "failed") {
            yield* Metric.incrementBy(Metrics.feesSpent, row.fee)
          }
          yield* settle(row, outcome.status, outcome.slot)
        }
      }), { concurrency: 8, discard: true })
    return counts
  })

const outcome = (fields: Partial<Outcome> & Pick<Outcome, "outcome">): Outcome => ({
  tag: null,
  message: null,
  lamports: 0n,
  fees: 0n,
  signatures: [],
  rebuilds: 0,
  ...fields
})

const request = (wallet: string, mint: string, format: Claims.TransactionFormat): Claims.ClaimPlanRequest => ({
  feeClaimer: wallet,
  tokenMint: mint,
  transactionFormat: format
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
    const { options, wallets } = yield* Settings
    const journal = yield* Journal.Journal
    const client = yield* FeeShareClient
    const config = options.config
    const wallet = wallets.get(payload.wallet)
    if (wallet === undefined) return outcome({ outcome: "failed", tag: "UnknownWallet", message: `no key for ${payload.wallet}` })
    const commitment = config.commitment
    const rebroadcastInterval = options.rebroadcastInterval ?? "1 second"

    // an earlier attempt (before a crash) may have journaled stages: settle them first
    yield* reconcile({ wallet: payload.wallet, mint: payload.mint }, { commitment, rebroadcastInterval })
    const earlier = yield* journal.stagesOf(payload.key)
    let claimable = payload.claimable
    if (earlier.length > 0) {
      const claimed = earlier.find((row) => row.kind === "claim" && row.status === "landed")
      if (claimed !== undefined) {
        const fees = earlier.filter((row) => row.status === "landed" || row.status === "failed").reduce((s, r) => s + r.fee, 0n)
        return outcome({ outcome: "claimed", lamports: BigInt(claimable), fees, signatures: [claimed.signature] })
      }
      // nothing of the earlier attempt paid: what is claimable now?
      const positions = yield* client.claims.positions({ wallet: payload.wallet })
      claimable = positions.find((p) => p.baseMint === payload.mint)?.totalClaimableLamportsUserShare ?? 0
      if (claimable <= 0) return outcome({ outcome: "nothing" })
    }

    const ask = request(payload.wallet, payload.mint, config.transactionFormat)
    const cap = config.maxFeesPerHourLamports
    const checkCap = (plan: Plan.TransactionPlan) =>
      cap === undefined ? Effect.succeed(plan) : Effect.gen(function*() {
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
    const build = () => Effect.flatMap(client.claims.createPlan(ask), checkCap)

    let round = (yield* journal.stagesOf(payload.key)).reduce((max, row) => Math.max(max, row.round + 1), 0)
    const signatures = new Map<string, Journal.StageRow>()
    const landedFees: Array<bigint> = []
    const run = Effect.gen(function*() {
      const plan = yield* build()
      return yield* PlanExecutor.execute(plan, {
        rebuild: build,
        commitment,
        format: config.transactionFormat,
        rebroadcastInterval,
        warmupInterval: options.warmupInterval ?? "500 millis",
        beforeSend: (signed) =>
          Effect.gen(function*() {
            const now = yield* Clock.currentTimeMillis
            const decoded = yield* Effect.forEach(signed, ({ stage }) =>
              WireTransaction.decode(stage.transaction, stage.encoding, stage.id))
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
              fee: decoded[i] === undefined ? 0n : feeOf(decoded[i]),
              status: "signed",
              slot: null,
              createdAt: now,
              runner: options.runner ?? null
            }))
            round++
            yield* journal.recordSigned(rows)
            for (const row of rows) signatures.set(row.stage, row)
            if (options.hooks?.afterJournal !== undefined) yield* options.hooks.afterJournal(rows.map((r) => r.stage))
          }).pipe(Effect.orDie),
        onEvent: (event) => {
          switch (event._tag) {
            case "Submitted":
              return options.hooks?.afterSend === undefined ? Effect.void : options.hooks.afterSend(event.stage, event.signature)
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
              if (event.reason === "BlockhashExpired") return journal.settle(row.signature, "expired", null).pipe(Effect.orDie)
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
      }).pipe(Effect.provide(Signers.layer(wallet.signer)))
    })
    const fees = () => landedFees.reduce((s, f) => s + f, 0n)
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
      Effect.catchAll((error) =>
        Effect.succeed(outcome({
          outcome: error._tag === "FeeCapReached" ? "fee-cap" : isRefusal(error) || error._tag === "InvalidPlan" ? "refused" : "failed",
          tag: error._tag,
          message: error.message,
          fees: fees()
        }))
      )
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

/**
 * One position in a pass's report.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PositionReport = Schema.Struct({
  ...Outcome.fields,
  mint: Schema.String,
  claimable: Schema.Number,
  key: Schema.NullOr(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export interface PositionReport extends Schema.Schema.Type<typeof PositionReport> {}

/**
 * One wallet in a pass's report.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletReport = Schema.Struct({
  wallet: Schema.String,
  positions: Schema.Array(PositionReport),
  /** Positions left alone by the policy (below the minimum, not allowed, denied). */
  skipped: Schema.Number,
  /** Partner/deployer vault claimables (reported, not claimed by the keeper). */
  vaults: Schema.Array(Schema.Struct({ kind: Schema.String, quoteMint: Schema.String, claimableAmount: Schema.String })),
  error: Schema.NullOr(Schema.Struct({ tag: Schema.String, message: Schema.String }))
})

/**
 * @since 0.1.0
 * @category models
 */
export interface WalletReport extends Schema.Schema.Type<typeof WalletReport> {}

/**
 * @since 0.1.0
 * @category models
 */
export interface PassReport {
  readonly reconciled: { readonly landed: number; readonly rebroadcast: number; readonly dead: number }
  readonly wallets: ReadonlyArray<WalletReport>
}

const record = (wallet: string, mint: string, key: string, result: Outcome, startedAt: number) =>
  Effect.gen(function*() {
    const journal = yield* Journal.Journal
    const { options } = yield* Settings
    const at = yield* Clock.currentTimeMillis
    yield* journal.recordRun({
      wallet,
      mint,
      key,
      outcome: result.outcome,
      tag: result.tag,
      message: result.message,
      lamports: result.lamports,
      fees: result.fees,
      at,
      runner: options.runner ?? null,
      startedAt
    })
    if (result.outcome === "claimed") {
      yield* Metric.increment(Metrics.claimsLanded)
      yield* Metric.incrementBy(Metrics.lamportsClaimed, result.lamports)
    } else if (result.outcome === "refused") {
      yield* Metric.increment(Metrics.refusals)
    } else if (result.outcome === "failed" || result.outcome === "fee-cap") {
      yield* Metric.increment(Metrics.failures)
    }
    const log = result.outcome === "claimed" || result.outcome === "nothing" || result.outcome === "dry-run"
      ? Effect.logInfo(`position ${result.outcome}`)
      : Effect.logWarning(`position ${result.outcome}`)
    yield* log.pipe(Effect.annotateLogs({
      wallet,
      mint,
      key,
      lamports: String(result.lamports),
      fees: String(result.fees),
      ...(result.tag === null ? {} : { tag: result.tag, reason: result.message ?? "" })
    }))
  })

/** Dry run of one position: every check made before a signature; nothing signed or sent. */
const dryRun = (wallet: Policy.Wallet, mint: string, claimable: number, format: Claims.TransactionFormat) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const plan = yield* client.claims.createPlan(request(wallet.signer.publicKey, mint, format))
    yield* PlanExecutor.verify(plan, { format }).pipe(Effect.provide(Signers.layer(wallet.signer)))
    return outcome({ outcome: "dry-run", lamports: BigInt(claimable) })
  }).pipe(
    Effect.catchAll((error) =>
      Effect.succeed(outcome({
        outcome: isRefusal(error) || error._tag === "InvalidPlan" ? "refused" : "failed",
        tag: error._tag,
        message: error.message
      }))
    )
  )

/**
 * One wallet's pass: its positions and vaults, then a claim workflow per position the policy
 * selects (one after another), each outcome recorded. Failures become the report's `error`.
 *
 * @since 0.1.0
 * @category claiming
 */
export const walletPass = (wallet: Policy.Wallet): Effect.Effect<
  WalletReport,
  never,
  Settings | Journal.Journal | Chain.Chain | FeeShareClient | WorkflowEngine.WorkflowEngine
> =>
  Effect.gen(function*() {
    const { options } = yield* Settings
    const client = yield* FeeShareClient
    const journal = yield* Journal.Journal
    const address = wallet.signer.publicKey
    const reports: Array<PositionReport> = []
    // runs cut short by a crash (here or on a runner that died): the engine resumes or has
    // finished their workflow; the same key attaches to it, and its outcome is recorded now
    if (!options.config.dryRun) {
      for (const { key, mint } of yield* journal.unrecorded(address)) {
        const startedAt = yield* Clock.currentTimeMillis
        const result = yield* ClaimWorkflow.execute({ wallet: address, mint, key, claimable: 0 })
        yield* record(address, mint, key, result, startedAt)
        reports.push({ ...result, mint, claimable: Number(result.lamports), key })
      }
    }
    const positions = yield* client.claims.positions({ wallet: address })
    const { vaults } = yield* client.claims.vaults({ wallet: address })
    const chosen = positions.filter((p, i) =>
      // one run per token mint
      positions.findIndex((q) => q.baseMint === p.baseMint) === i &&
      Policy.selects(wallet.rules, p.baseMint, p.totalClaimableLamportsUserShare)
    )
    for (const position of chosen) {
      const mint = position.baseMint
      const claimable = position.totalClaimableLamportsUserShare
      const key = `${address}/${mint}/${yield* journal.runCount(address, mint)}`
      const startedAt = yield* Clock.currentTimeMillis
      const result = options.config.dryRun
        ? yield* dryRun(wallet, mint, claimable, options.config.transactionFormat)
        : yield* ClaimWorkflow.execute({ wallet: address, mint, key, claimable })
      yield* record(address, mint, key, result, startedAt)
      reports.push({ ...result, mint, claimable, key })
    }
    const report: WalletReport = {
      wallet: address,
      positions: reports,
      skipped: positions.filter((p) => p.totalClaimableLamportsUserShare > 0).length - chosen.length,
      vaults: vaults.map((v) => ({ kind: v.kind, quoteMint: v.quoteMint, claimableAmount: String(v.claimableAmount) })),
      error: null
    }
    return report
  }).pipe(
    Effect.catchAll((error) =>
      Effect.gen(function*() {
        yield* Metric.increment(Metrics.failures)
        yield* Effect.logWarning("wallet pass failed").pipe(
          Effect.annotateLogs({ wallet: wallet.signer.publicKey, tag: error._tag, reason: error.message })
        )
        const report: WalletReport = {
          wallet: wallet.signer.publicKey,
          positions: [],
          skipped: 0,
          vaults: [],
          error: { tag: error._tag, message: error.message }
        }
        return report
      })
    ),
    Effect.withLogSpan("wallet")
  )

/**
 * One pass: settle the journal with the chain, then every wallet (`concurrency` at a time).
 *
 * @since 0.1.0
 * @category claiming
 */
export const pass: Effect.Effect<
  PassReport,
  SqlError | Chain.ChainUnavailable | Chain.PreflightFailed,
  Settings | Journal.Journal | Chain.Chain | FeeShareClient | WorkflowEngine.WorkflowEngine
> = Effect.gen(function*() {
  const { options, wallets } = yield* Settings
  const reconciled = options.config.dryRun ? { landed: 0, rebroadcast: 0, dead: 0 } : yield* reconcile(undefined, {
    commitment: options.config.commitment,
    rebroadcastInterval: options.rebroadcastInterval ?? "1 second"
  })
  const reports = yield* Effect.forEach([...wallets.values()], walletPass, { concurrency: options.config.concurrency })
  return { reconciled, wallets: reports }
}).pipe(Effect.withSpan("Keeper.pass"))

/**
 * Passes forever, `intervalSeconds` apart; `onPass` sees each report.
 *
 * @since 0.1.0
 * @category claiming
 */
export const runForever = <R>(onPass: (report: PassReport) => Effect.Effect<void, never, R>) =>
  Effect.gen(function*() {
    const { options } = yield* Settings
    while (true) {
      const report = yield* pass.pipe(
        Effect.tapError((error) => Effect.logError("pass failed").pipe(Effect.annotateLogs({ tag: error._tag, reason: error.message }))),
        Effect.option
      )
      if (Option.isSome(report)) yield* onPass(report.value)
      yield* Effect.sleep(Duration.seconds(options.config.intervalSeconds))
    }
  })

/**
 * The keeper's settings, and the claim workflow registered with the engine.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options) =>
  ClaimWorkflowLive.pipe(
    Layer.provideMerge(Layer.succeed(Settings, {
      options,
      wallets: new Map(options.wallets.map((wallet) => [wallet.signer.publicKey, wallet]))
    }))
  )

/**
 * The workflow engine and the journal on one SQLite file, no server: `@effect/cluster`'s
 * single runner over `@effect/sql-libsql`. The native libsql binding is imported when this
 * layer is built, never before.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStorage = (file: string) =>
  Layer.unwrapEffect(
    Effect.map(Effect.promise(() => import("@effect/sql-libsql")), ({ LibsqlClient }) =>
      Layer.mergeAll(
        ClusterWorkflowEngine.layer.pipe(Layer.provideMerge(SingleRunner.layer({ runnerStorage: "memory" }))),
        Journal.layer
      ).pipe(
        // 64-bit snowflake ids: without bigint integers the runner cannot read its messages
        Layer.provideMerge(LibsqlClient.layer({ url: `file:${file}`, intMode: "bigint" }))
      ))
  )

/**
 * The journal alone on the SQLite file (for `status`): no engine, no runner.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerJournal = (file: string) =>
  Layer.unwrapEffect(
    Effect.map(Effect.promise(() => import("@effect/sql-libsql")), ({ LibsqlClient }) =>
      Journal.layer.pipe(Layer.provideMerge(LibsqlClient.layer({ url: `file:${file}`, intMode: "bigint" }))))
  )
