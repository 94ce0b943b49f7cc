/**
 * The Solana part of the CLI (loaded only by the commands that sign): keys, verification,
 * dry runs, and execution with progress lines.
 */
import type { Claims, FeeShare, Plan, Signer, Trade } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
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
