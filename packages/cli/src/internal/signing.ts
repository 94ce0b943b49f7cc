/**
 * The Solana part of the CLI (loaded only by the commands that sign): keys, verification,
 * dry runs, and execution with progress lines.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type { Claims, FeeShare, LaunchToken as Inputs, Plan, Signer, Trade } from "@feeshare/domain"
import * as BundleRelay from "@feeshare/solana/BundleRelay"
import * as Chain from "@feeshare/solana/Chain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as Flows from "@feeshare/solana/Flows"
import * as LaunchRecord from "@feeshare/solana/LaunchRecord"
import * as LaunchRecordFile from "@feeshare/solana/LaunchRecordFile"
import * as LaunchToken from "@feeshare/solana/LaunchToken"
import * as LedgerReads from "@feeshare/solana/LedgerReads"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as LookupTableSetup from "@feeshare/solana/LookupTableSetup"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as TokenAccount from "@feeshare/solana/TokenAccount"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Progress from "../Progress.js"
import * as Permissions from "./permissions.js"

export const loadSigner = (path: string) =>
  Effect.zipRight(Permissions.warnIfShared(path, "the key file"), LocalSigner.fromKeygenFile(path))

export const generate = LocalSigner.generate

/** How a plan or a flow is run: where to send, how to report progress. */
export interface Run {
  /** One endpoint, or several (each transaction is sent to all of them). */
  readonly rpcUrl: string | ReadonlyArray<string>
  readonly onLine: (line: string) => Effect.Effect<void>
  /** Tells what was in flight when the run was interrupted. */
  readonly onInterrupted: (inFlight: Progress.InFlight) => Effect.Effect<void>
  /** Status polls of the RPC (default 400 ms; the demo uses less). */
  readonly pollMillis?: number | undefined
  /** Warm-up polls of a lookup table (default 2 s). */
  readonly warmupMillis?: number | undefined
  /** On a terminal: a plan's progress as a live table instead of one line per event. */
  readonly live?: Progress.Live | undefined
}

const environment = (signer: Signer.Signer.Service, run: Run) =>
  Layer.merge(
    Signers.layer(signer),
    ChainRpc.layer(run.rpcUrl, run.pollMillis === undefined ? {} : { pollInterval: `${run.pollMillis} millis` })
  )

/**
 * `--dry-run`: every check the real run makes before signing (the plan's rules, the requested
 * format, every stage against its metadata), then the stages whose blockhash has already
 * passed, or why that could not be checked. Nothing is signed or sent.
 */
export const verifyPlan = (
  plan: Plan.TransactionPlan,
  format: Claims.TransactionFormat,
  signer: Signer.Signer.Service,
  run: Run
) =>
  Effect.gen(function*() {
    const verification = yield* PlanExecutor.verify(plan, { format }).pipe(Effect.provide(Signers.layer(signer)))
    const expired = yield* PlanExecutor.expiredStages(plan).pipe(
      Effect.map((stages): ReadonlyArray<string> | string => stages),
      Effect.catchTag("ChainUnavailable", (error) => Effect.succeed(error.message)),
      Effect.provide(environment(signer, run))
    )
    return { verification, expired }
  })

/** Executes a claim plan with a progress line per event; returns the landed stages. */
export const executePlan = <E, R>(
  plan: Plan.TransactionPlan,
  format: Claims.TransactionFormat,
  rebuild: () => Effect.Effect<Plan.TransactionPlan, E, R>,
  signer: Signer.Signer.Service,
  run: Run
) => {
  const kinds = new Map<string, string>()
  const remember = (next: Plan.TransactionPlan) => {
    for (const stage of next.transactions) kinds.set(stage.id, stage.kind)
    return next
  }
  remember(plan)
  const inFlight = new Progress.InFlight()
  const live = run.live
  const show = (event: PlanExecutor.Event) =>
    live === undefined
      ? run.onLine(Progress.line(event, kinds))
      : Effect.sync(() => {
        live.table.event(event, kinds)
        live.render()
      })
  const executed = PlanExecutor.execute(plan, {
    rebuild: () => Effect.map(rebuild(), remember),
    onEvent: (event) => Effect.zipRight(Effect.sync(() => inFlight.track(event)), show(event)),
    ...(run.warmupMillis === undefined ? {} : { warmupInterval: `${run.warmupMillis} millis` }),
    rebroadcastInterval: "1 second",
    format
  }).pipe(
    Effect.provide(environment(signer, run)),
    // Ctrl-C: one line (one JSON document with --json) naming what may still land
    Effect.onInterrupt(() => run.onInterrupted(inFlight))
  )
  // the table's clocks and waits move between events too: redrawn four times a second
  return live === undefined ? executed : Effect.scoped(
    Effect.zipRight(
      Effect.forkScoped(Effect.repeat(Effect.sync(live.render), Schedule.spaced("250 millis"))),
      executed
    )
  ).pipe(Effect.ensuring(Effect.sync(live.render)))
}

/**
 * Runs `effect` and measures what it paid into `owner`'s account of `asset` (read from the
 * first RPC endpoint, before and after).
 */
export const measurePaid = <A, E, R>(
  owner: string,
  asset: TokenAccount.Asset,
  run: Run,
  effect: Effect.Effect<A, E, R>
) =>
  TokenAccount.measurePaid(owner, asset, effect).pipe(
    Effect.provide(LedgerReads.layerRpc(typeof run.rpcUrl === "string" ? run.rpcUrl : run.rpcUrl[0] ?? ""))
  )

/**
 * `claims all`: everything the wallet is owed, claimed (or, with `dryRun`, verified) by
 * `ClaimAll.run` on the run's RPC; `onItem` sees every row as it changes.
 */
export const claimAll = <E, R>(
  calls: ClaimAll.Calls<E, R>,
  signer: Signer.Signer.Service,
  run: Run,
  options: ClaimAll.Options
) =>
  ClaimAll.run(calls, { rebroadcastInterval: "1 second", ...options }).pipe(
    Effect.provide(environment(signer, run))
  )

/** A landed transaction as printed. */
export interface Sent {
  readonly label: string
  readonly signature: string
  readonly slot: bigint
}

const landedLine = (run: Run, label: string, kind: string) => (landed: Chain.Landed) =>
  Effect.as(
    run.onLine(Progress.stageLine(label, kind, "landed", landed.signature, `slot ${landed.slot}`)),
    { label, signature: landed.signature, slot: landed.slot } satisfies Sent
  )

/** Verifies the launch transaction; with `send`, co-signs and sends it. */
export const launch = (
  transaction: string,
  mint: string,
  signer: Signer.Signer.Service,
  run: Run,
  send: boolean
) =>
  send
    ? Flows.launch(transaction, { mint }).pipe(
      Effect.flatMap(landedLine(run, "launch", "launch")),
      Effect.map((sent) => [sent]),
      Effect.provide(environment(signer, run))
    )
    : WireTransaction.verifyLaunch(transaction, { mint, signers: [signer] }).pipe(Effect.as([] as ReadonlyArray<Sent>))

/** Verifies the swap transaction; with `send`, signs and sends it. */
export const swap = (result: Trade.SwapResult, signer: Signer.Signer.Service, run: Run, send: boolean) =>
  send
    ? Flows.swap(result).pipe(
      Effect.flatMap(landedLine(run, "swap", "swap")),
      Effect.map((sent) => [sent]),
      Effect.provide(environment(signer, run))
    )
    : WireTransaction.verifySwap(result, [signer]).pipe(Effect.as([] as ReadonlyArray<Sent>))

const entriesFlow = (
  flow: typeof Flows.feeShareUpdate | typeof Flows.partnerClaim,
  kind: string
) =>
(entries: FeeShare.TransactionEntries, signer: Signer.Signer.Service, run: Run, send: boolean) =>
  send
    ? flow(entries).pipe(
      Effect.flatMap((landed) => Effect.forEach(landed, (one, i) => landedLine(run, `entry ${i}`, kind)(one))),
      Effect.provide(environment(signer, run))
    )
    : Effect.forEach(entries.transactions, (entry, i) => WireTransaction.verifyEntry(entry, [signer], `entry ${i}`))
      .pipe(
        Effect.as([] as ReadonlyArray<Sent>)
      )

/** Verifies the fee-share update entries; with `send`, signs them and sends them in order. */
export const feeShareUpdate = entriesFlow(Flows.feeShareUpdate, "fee_share_update")

/** Verifies the partner-claim entries; with `send`, signs and sends them (the last one last). */
export const partnerClaim = entriesFlow(Flows.partnerClaim, "partner_claim")

/** The records of launches in `directory` (files, written atomically). */
export const launchRecords = LaunchRecordFile.directory

/** Records held in memory, for one run. */
export const memoryRecords = LaunchRecord.memory

/**
 * Launches a token from nothing (`LaunchToken.run`): the wallet signs, the RPC endpoints
 * (the first also for the ledger reads of a lookup table) and the bundle relay at
 * `relayUrl` carry it.
 */
export const launchToken = <E, R>(
  request: Inputs.LaunchTokenRequest,
  services: LaunchToken.Services<E, R>,
  signer: Signer.Signer.Service,
  run: Run,
  options: {
    readonly relayUrl: string
    readonly store: LaunchRecord.Store
    readonly dryRun: boolean
    readonly onEvent: (event: LaunchToken.Event) => Effect.Effect<void>
  }
) => {
  const firstRpc = typeof run.rpcUrl === "string" ? run.rpcUrl : run.rpcUrl[0] ?? ""
  const withTables: LaunchToken.Services<
    E | Effect.Effect.Error<ReturnType<typeof LookupTableSetup.prepare>>,
    R | Effect.Effect.Context<ReturnType<typeof LookupTableSetup.prepare>>
  > = { ...services, lookupTable: (claimers, reuse) => LookupTableSetup.prepare(claimers, { reuse }) }
  return LaunchToken.run(request, withTables, {
    store: options.store,
    dryRun: options.dryRun,
    onEvent: options.onEvent,
    rebroadcastInterval: "1 second"
  }).pipe(
    Effect.provide(Layer.mergeAll(
      environment(signer, run),
      LedgerReads.layerRpc(firstRpc),
      BundleRelay.layerHttp(options.relayUrl).pipe(Layer.provide(FetchHttpClient.layer))
    ))
  )
}
