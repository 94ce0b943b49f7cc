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
import type { SqlError } from "@effect/sql/SqlError"
import { WorkflowEngine } from "@effect/workflow"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import { type Claims, ClaimTransactions } from "@feeshare/domain"
import type * as Chain from "@feeshare/solana/Chain"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { Clock, Effect, Layer, Metric, Option, Schema } from "effect"
import { chmodSync, closeSync, existsSync, openSync } from "node:fs"
import { ClaimWorkflow, ClaimWorkflowLive, request } from "./Claim.js"
import * as Item from "./Item.js"
import * as Journal from "./Journal.js"
import * as JournalWrites from "./JournalWrites.js"
import * as KeeperConfig from "./KeeperConfig.js"
import * as Metrics from "./Metrics.js"
import * as Outcome from "./Outcome.js"
import * as Placement from "./Placement.js"
import { reconcile } from "./Reconcile.js"
import { make as makeSettings, type Options, passSchedule, Settings } from "./Settings.js"
import * as Sweep from "./Sweep.js"

/** @since 0.1.0 */
export { claimPosition, ClaimWorkflow, ClaimWorkflowLive, FeeCapReached, Outcome } from "./Claim.js"
/** @since 0.1.0 */
export { reconcile } from "./Reconcile.js"
/** @since 0.1.0 */
export { type Hooks, intervals, type Options, passSchedule, Settings } from "./Settings.js"

/**
 * One position in a pass's report.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PositionReport = Schema.Struct({
  ...Outcome.Outcome.fields,
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
 * One vault sweep or deployer claim in a pass's report.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SweepReport = Schema.Struct({
  ...Outcome.Outcome.fields,
  kind: Item.Kind,
  /** The item's subject (`Item.ts`): `vault:<kind>:<quoteMint>` or `deployer:<quoteMint>`. */
  subject: Schema.String,
  quoteMint: Schema.String,
  /** What the listing said is owed, in the quote mint's smallest unit. */
  claimable: Schema.BigInt,
  key: Schema.NullOr(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export interface SweepReport extends Schema.Schema.Type<typeof SweepReport> {}

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
  /** Partner/deployer vault claimables as listed at the start of the pass. */
  vaults: Schema.Array(
    Schema.Struct({ kind: Schema.String, quoteMint: Schema.String, claimableAmount: Schema.String })
  ),
  /** The vault sweeps and the deployer claim of the pass. */
  sweeps: Schema.Array(SweepReport),
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

/** Dry run of one position: every check made before a signature; nothing signed or sent. */
const dryRun = (wallet: KeeperConfig.Wallet, mint: string, claimable: number, format: Claims.TransactionFormat) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const plan = yield* client.claims.createPlan(
      request(wallet.signer.publicKey, mint, format, wallet.rules.plan(mint))
    )
    yield* PlanExecutor.verify(plan, { format }).pipe(Effect.provide(Signers.layer(wallet.signer)))
    return Outcome.make({ outcome: "dry-run", lamports: BigInt(claimable) })
  }).pipe(Effect.catchAll((error) => Effect.succeed(Outcome.fromError(error))))

/**
 * Runs the claim workflow of a position beside its wallet (`Placement`: on a cluster, on the
 * runner that owns the wallet).
 */
const claim = (payload: {
  readonly wallet: string
  readonly mint: string
  readonly key: string
  readonly claimable: number
}) =>
  Effect.gen(function*() {
    const placement = yield* Placement.Placement
    const salt = yield* placement.beside(
      ClaimWorkflow,
      (placement) => ClaimWorkflow.payloadSchema.make({ ...payload, placement }),
      payload.wallet
    )
    return yield* ClaimWorkflow.execute({ ...payload, placement: salt })
  })

/** Runs the sweep workflow of a vault or of the deployer's positions beside its wallet. */
const sweep = (run: Sweep.Run) =>
  Effect.gen(function*() {
    const placement = yield* Placement.Placement
    const salt = yield* placement.beside(
      Sweep.SweepWorkflow,
      (placement) => Sweep.SweepWorkflow.payloadSchema.make({ ...run, placement }),
      run.wallet
    )
    return yield* Sweep.SweepWorkflow.execute({ ...run, placement: salt })
  })

/** `undefined` for the service's 400 "Nothing to claim". */
const orNothing = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(effect, ClaimAll.isNothingToClaim, () => Effect.succeed(undefined))

const sweepReport = (subject: string, claimable: bigint, key: string | null, result: Outcome.Outcome): SweepReport => {
  const item = Item.parse(subject)
  return {
    ...result,
    kind: item.kind,
    subject,
    quoteMint: item.kind === "position" ? "" : item.quoteMint,
    claimable,
    key
  }
}

/**
 * One wallet's pass: its positions, vaults and deployer positions, then a claim workflow per
 * position the policy selects, then a sweep workflow per vault and one for the deployer's
 * positions (`ClaimAll.itemsOf`: the deployer's vault in the deployer's quote mint is the
 * deployer claim's), one after another, each outcome recorded. A sweep in wrapped SOL below
 * `minClaimableLamports` is left alone. Failures become the report's `error`.
 *
 * @since 0.1.0
 * @category claiming
 */
export const walletPass = (wallet: KeeperConfig.Wallet): Effect.Effect<
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
    const sweeps: Array<SweepReport> = []
    // runs cut short by a crash (here or on a runner that died) run again under the same key: on
    // one machine the run settles its journaled stages and finds its outcome in the journal; on a
    // cluster the key attaches to the workflow the engine resumed or finished. Recorded now.
    if (!options.config.dryRun) {
      for (const { key, mint } of yield* journal.unrecorded(address)) {
        const startedAt = yield* Clock.currentTimeMillis
        if (Item.kindOf(mint) === "position") {
          const result = yield* claim({ wallet: address, mint, key, claimable: 0 })
          yield* JournalWrites.recordRun.run({ wallet: address, mint, key, startedAt }, result)
          reports.push({ ...result, mint, claimable: Number(result.lamports), key })
        } else {
          const result = yield* sweep({ wallet: address, subject: mint, key, claimable: 0n })
          yield* JournalWrites.recordRun.run({ wallet: address, mint, key, startedAt }, result)
          sweeps.push(sweepReport(mint, result.lamports, key, result))
        }
      }
    }
    const kinds = wallet.rules.kinds
    // the wallet's claimables, read once per pass: its positions, vaults and deployer positions
    // at the same time, and the finished runs of each of its items (the round of each workflow's key);
    // a kind the wallet does not claim is not read
    const [positions, listed, deployer, rounds] = yield* Effect.all([
      kinds.has("position") ? client.claims.positions({ wallet: address }) : Effect.succeed([]),
      kinds.has("vault") ? orNothing(client.claims.vaults({ wallet: address })) : Effect.succeed(undefined),
      kinds.has("deployer")
        ? orNothing(client.claims.deployerPositions({ wallet: address })).pipe(
          // the deployer's listing failing leaves this pass without a deployer claim, not without claims
          Effect.catchAll((error) =>
            Effect.as(
              Effect.logWarning("deployer positions unavailable").pipe(
                Effect.annotateLogs({ wallet: address, tag: error._tag, reason: error.message })
              ),
              undefined
            )
          )
        )
        : Effect.succeed(undefined),
      journal.runCounts(address)
    ], { concurrency: "unbounded" })
    const vaults = listed?.vaults ?? []
    const chosen = positions.filter((p, i) =>
      // one run per token mint
      positions.findIndex((q) => q.baseMint === p.baseMint) === i &&
      KeeperConfig.selects(wallet.rules, p.baseMint, p.totalClaimableLamportsUserShare)
    )
    for (const position of chosen) {
      const mint = position.baseMint
      const claimable = position.totalClaimableLamportsUserShare
      const key = `${address}/${mint}/${rounds.get(mint) ?? 0}`
      const startedAt = yield* Clock.currentTimeMillis
      const result = options.config.dryRun
        ? yield* dryRun(wallet, mint, claimable, options.config.transactionFormat)
        : yield* claim({ wallet: address, mint, key, claimable })
      yield* JournalWrites.recordRun.run({ wallet: address, mint, key, startedAt }, result)
      reports.push({ ...result, mint, claimable, key })
    }
    const items = ClaimAll.itemsOf([], vaults, deployer).filter((item) =>
      kinds.has(item.kind) &&
      (item.asset !== ClaimTransactions.wrappedSolMint || item.amount >= BigInt(wallet.rules.minClaimableLamports))
    )
    for (const item of items) {
      const subject = item.kind === "deployer"
        ? Item.deployerSubject(item.asset)
        : Item.vaultSubject(item.subject.startsWith("partner") ? "partner" : "deployer", item.asset)
      // one run per subject (a vault listed twice is swept once)
      if (sweeps.some((done) => done.subject === subject)) continue
      const key = `${address}/${subject}/${rounds.get(subject) ?? 0}`
      const startedAt = yield* Clock.currentTimeMillis
      const result = options.config.dryRun
        ? yield* Sweep.dryRun(wallet.signer, subject, item.amount)
        : yield* sweep({ wallet: address, subject, key, claimable: item.amount })
      yield* JournalWrites.recordRun.run({ wallet: address, mint: subject, key, startedAt }, result)
      sweeps.push(sweepReport(subject, item.amount, key, result))
    }
    const report: WalletReport = {
      wallet: address,
      positions: reports,
      skipped: positions.filter((p) => p.totalClaimableLamportsUserShare > 0).length - chosen.length,
      vaults: vaults.map((v) => ({ kind: v.kind, quoteMint: v.quoteMint, claimableAmount: String(v.claimableAmount) })),
      sweeps,
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
          sweeps: [],
          error: { tag: error._tag, message: error.message }
        }
        return report
      })
    ),
    Effect.withLogSpan("wallet")
  )

/**
 * The claim and sweep workflows on an engine in memory, built for one pass and gone with it: it
 * holds that pass's runs, never more (an engine kept for the life of the process would keep
 * every run it ever executed). A run the pass does not finish is the journal's: the next pass
 * settles it (`walletPass`).
 */
const passEngine = Layer.merge(ClaimWorkflowLive, Sweep.SweepWorkflowLive).pipe(
  Layer.provideMerge(WorkflowEngine.layerMemory)
)

/**
 * One pass of one machine: settle the journal with the chain, then every wallet (`concurrency`
 * at a time), each claim and sweep a workflow on an engine in memory made for this pass. (A
 * cluster's runners pass their wallets with `walletPass`, on the cluster's engine.)
 *
 * @since 0.1.0
 * @category claiming
 */
export const pass: Effect.Effect<
  PassReport,
  SqlError | Chain.ChainUnavailable | Chain.PreflightFailed,
  Settings | Journal.Journal | Chain.Chain | FeeShareClient
> = Effect.gen(function*() {
  const { options, wallets } = yield* Settings
  const reconciled = options.config.dryRun ? { landed: 0, rebroadcast: 0, dead: 0 } : yield* reconcile()
  const reports = yield* Effect.forEach([...wallets.values()], walletPass, { concurrency: options.config.concurrency })
  return { reconciled, wallets: reports }
}).pipe(Effect.provide(passEngine), Effect.withSpan("Keeper.pass"))

/**
 * Passes forever, `intervalSeconds` apart; `onPass` sees each report.
 *
 * @since 0.1.0
 * @category claiming
 */
export const runForever = <R>(onPass: (report: PassReport) => Effect.Effect<void, never, R>) =>
  Effect.gen(function*() {
    const { options } = yield* Settings
    const once = pass.pipe(
      Effect.tapError((error) =>
        Effect.logError("pass failed").pipe(Effect.annotateLogs({ tag: error._tag, reason: error.message }))
      ),
      Effect.option,
      Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: onPass }))
    )
    // a spaced schedule never ends: the repeat only ever ends by interruption
    return yield* Effect.zipRight(Effect.repeat(once, passSchedule(options.config)), Effect.never)
  })

/**
 * The keeper's settings, and the claim and sweep workflows registered with the engine.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options) =>
  Layer.merge(ClaimWorkflowLive, Sweep.SweepWorkflowLive).pipe(
    Layer.provideMerge(Layer.succeed(Settings, makeSettings(options)))
  )

/** The files SQLite keeps for a database: the file, its write-ahead log and shared memory, its rollback journal. */
const sqliteFiles = (file: string): ReadonlyArray<string> => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]

/**
 * Makes the database file readable by its owner only before SQLite opens it: created 0600
 * when missing (SQLite gives its WAL and SHM files the database file's mode), and any of its
 * files already there set to 0600 (they hold signed transactions and wallet addresses).
 */
const ownerOnly = (file: string) =>
  Effect.sync(() => {
    if (file === ":memory:" || file === "") return
    closeSync(openSync(file, "a", 0o600))
    for (const path of sqliteFiles(file)) {
      if (existsSync(path)) chmodSync(path, 0o600)
    }
  })

/**
 * The workflow engine and the journal of one machine: an engine in memory
 * (`WorkflowEngine.layerMemory`; `pass` runs its workflows on one of its own, made for the pass),
 * the journal on one SQLite file over `@effect/sql-libsql`, no server. On one machine the
 * journal alone is what survives a crash: every round's signed stages, with what the run
 * claims, are committed before any is sent, and a pass first settles them with the chain and
 * records the runs they belong to (`walletPass`). A persisted engine would commit each
 * workflow's request and reply as well, a second record of the same run. (A cluster persists
 * its engine: `Cluster.ts`.) The native libsql binding is imported when this layer is built,
 * never before. The file and its WAL and SHM files are readable by their owner only (0600),
 * whatever the umask.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStorage = (file: string) => Layer.merge(WorkflowEngine.layerMemory, layerJournal(file))

/**
 * The journal alone on the SQLite file: what `status` reads, and what `layerStorage` keeps.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerJournal = (file: string) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.zipRight(ownerOnly(file), Effect.promise(() => import("@effect/sql-libsql"))),
      ({ LibsqlClient }) =>
        Journal.layer.pipe(
          // 64-bit integers as bigint (slots, heights, times)
          Layer.provideMerge(LibsqlClient.layer({ url: `file:${file}`, intMode: "bigint" }))
        )
    )
  )
