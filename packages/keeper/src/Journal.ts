/**
 * The keeper's journal (SQLite on one machine; on a cluster, PostgreSQL beside the workflow
 * engine): every signed stage (bytes and signature, and what its run claims, written before the
 * stage is sent) with its fate on the chain, and every run's outcome. Signed transactions are
 * public; no secret is ever written here.
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import type { MigrationError } from "@effect/sql/Migrator"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer } from "effect"
import * as Migrations from "./Migrations.js"
import type { Outcome } from "./Outcome.js"

/**
 * What became of a journaled stage: `signed` (may still land: reconcile it first), `landed`,
 * `failed` (landed with an error, fee paid), `expired` (can no longer land), `abandoned`
 * (never sent: a stage it depends on never landed).
 *
 * @since 0.1.0
 * @category models
 */
export type StageStatus = "signed" | "landed" | "failed" | "expired" | "abandoned"

/**
 * @since 0.1.0
 * @category models
 */
export interface StageRow {
  readonly key: string
  readonly wallet: string
  readonly mint: string
  readonly round: number
  readonly stage: string
  readonly kind: string
  readonly dependsOn: ReadonlyArray<string>
  readonly signature: string
  /** base64 wire transaction. */
  readonly bytes: string
  readonly lastValidBlockHeight: bigint
  readonly fee: bigint
  /**
   * What the run claims, in the smallest unit of what is claimed (lamports for a position):
   * what a run resumed after a crash reports when this stage landed. Null on stages journaled
   * before it was kept.
   */
  readonly claimable: bigint | null
  readonly status: StageStatus
  readonly slot: bigint | null
  readonly createdAt: number
  /** The runner that signed and journaled the stage (its address on a cluster; null on one machine). */
  readonly runner: string | null
}

/**
 * How a run for one position ended: the kind of the claim's `Outcome`.
 *
 * @since 0.1.0
 * @category models
 */
export type RunOutcome = Outcome["outcome"]

/**
 * @since 0.1.0
 * @category models
 */
export interface RunRow {
  readonly wallet: string
  readonly mint: string
  readonly key: string
  readonly outcome: RunOutcome
  /** The error's tag for `refused`/`failed`/`fee-cap`. */
  readonly tag: string | null
  readonly message: string | null
  readonly lamports: bigint
  readonly fees: bigint
  readonly at: number
  /** The runner that recorded the run (its address on a cluster; null on one machine). */
  readonly runner: string | null
  /** When the run began (null when not recorded). */
  readonly startedAt: number | null
}

/**
 * A wallet's current owner on a cluster: the runner whose pass of it began last, and when its
 * last pass began and ended.
 *
 * @since 0.1.0
 * @category models
 */
export interface OwnerRow {
  readonly wallet: string
  readonly runner: string
  readonly startedAt: number
  readonly finishedAt: number | null
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Journal extends Context.Tag("@feeshare/keeper/Journal")<Journal, Journal.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Journal {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Writes signed stages (all or none: one statement) before any of them is sent. */
    readonly recordSigned: (rows: ReadonlyArray<Omit<StageRow, "status" | "slot">>) => Effect.Effect<void, SqlError>
    readonly settle: (signature: string, status: StageStatus, slot: bigint | null) => Effect.Effect<void, SqlError>
    /** Several stages' fates, all or none (one statement). */
    readonly settleMany: (
      fates: ReadonlyArray<{ readonly signature: string; readonly status: StageStatus; readonly slot: bigint | null }>
    ) => Effect.Effect<void, SqlError>
    /** Stages still `signed`, oldest first (all, or of one wallet and mint). */
    readonly unsettled: (
      filter?: { readonly wallet: string; readonly mint: string }
    ) => Effect.Effect<ReadonlyArray<StageRow>, SqlError>
    readonly stagesOf: (key: string) => Effect.Effect<ReadonlyArray<StageRow>, SqlError>
    /** Fees of the stages that landed (with or without error) since `sinceMillis`. */
    readonly feesSince: (sinceMillis: number) => Effect.Effect<bigint, SqlError>
    readonly recordRun: (row: RunRow) => Effect.Effect<void, SqlError>
    /** Finished runs of a wallet and mint (the round of the next workflow's key). */
    readonly runCount: (wallet: string, mint: string) => Effect.Effect<number, SqlError>
    /** Finished runs of each of a wallet's mints, in one read (mints with none are absent). */
    readonly runCounts: (wallet: string) => Effect.Effect<ReadonlyMap<string, number>, SqlError>
    readonly runs: Effect.Effect<ReadonlyArray<RunRow>, SqlError>
    /** Runs of a wallet that journaled stages but recorded no outcome (cut short by a crash). */
    readonly unrecorded: (
      wallet: string
    ) => Effect.Effect<ReadonlyArray<{ readonly key: string; readonly mint: string }>, SqlError>
    /** A pass of `wallet` by `runner` began (`finishedAt` null) or ended. */
    readonly recordOwner: (row: OwnerRow) => Effect.Effect<void, SqlError>
    readonly owners: Effect.Effect<ReadonlyArray<OwnerRow>, SqlError>
  }
}

const toBigint = (value: unknown): bigint =>
  typeof value === "bigint" ? value : typeof value === "number" ? BigInt(value) : BigInt(String(value))

const toNumber = (value: unknown): number => Number(value)

interface RawStage {
  readonly key: string
  readonly wallet: string
  readonly mint: string
  readonly round: unknown
  readonly stage: string
  readonly kind: string
  readonly depends_on: string
  readonly signature: string
  readonly bytes: string
  readonly last_valid_block_height: string
  readonly fee: string
  readonly claimable: string | null
  readonly status: StageStatus
  readonly slot: string | null
  readonly created_at: unknown
  readonly runner: string | null
}

interface RawRun {
  readonly wallet: string
  readonly mint: string
  readonly key: string
  readonly outcome: RunOutcome
  readonly tag: string | null
  readonly message: string | null
  readonly lamports: string
  readonly fees: string
  readonly at: unknown
  readonly runner: string | null
  readonly started_at: unknown
}

interface RawOwner {
  readonly wallet: string
  readonly runner: string
  readonly started_at: unknown
  readonly finished_at: unknown
}

const stageOf = (raw: RawStage): StageRow => ({
  key: raw.key,
  wallet: raw.wallet,
  mint: raw.mint,
  round: toNumber(raw.round),
  stage: raw.stage,
  kind: raw.kind,
  dependsOn: JSON.parse(raw.depends_on) as ReadonlyArray<string>,
  signature: raw.signature,
  bytes: raw.bytes,
  lastValidBlockHeight: toBigint(raw.last_valid_block_height),
  fee: toBigint(raw.fee),
  claimable: raw.claimable === null ? null : toBigint(raw.claimable),
  status: raw.status,
  slot: raw.slot === null ? null : toBigint(raw.slot),
  createdAt: toNumber(raw.created_at),
  runner: raw.runner
})

const runOf = (raw: RawRun): RunRow => ({
  wallet: raw.wallet,
  mint: raw.mint,
  key: raw.key,
  outcome: raw.outcome,
  tag: raw.tag,
  message: raw.message,
  lamports: toBigint(raw.lamports),
  fees: toBigint(raw.fees),
  at: toNumber(raw.at),
  runner: raw.runner,
  startedAt: raw.started_at === null ? null : toNumber(raw.started_at)
})

const ownerOf = (raw: RawOwner): OwnerRow => ({
  wallet: raw.wallet,
  runner: raw.runner,
  startedAt: toNumber(raw.started_at),
  finishedAt: raw.finished_at === null ? null : toNumber(raw.finished_at)
})

/**
 * Migrates the journal's schema (`Migrations`) and returns the journal.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Journal.Service, SqlError | MigrationError, SqlClient.SqlClient> = Effect.gen(
  function*() {
    const sql = yield* SqlClient.SqlClient
    // SQLite: a write-ahead log (one fsync per commit instead of the rollback journal's several);
    // every commit still reaches the disk before the stage it records is sent
    yield* sql.onDialectOrElse({ sqlite: () => sql`PRAGMA journal_mode = WAL`, orElse: () => Effect.void })
    // the tables and their columns, whatever keeper made the database before
    yield* Migrations.migrate
    const caseOfSignature = (values: ReadonlyArray<readonly [signature: string, value: string | null]>) =>
      sql`CASE signature ${
        sql.join(" ", false)(values.map(([signature, value]) => sql`WHEN ${signature} THEN ${value}`))
      } END`
    const settleMany: Journal.Service["settleMany"] = (fates) =>
      fates.length === 0 ? Effect.void : sql`UPDATE keeper_stages SET
        status = ${caseOfSignature(fates.map((fate) => [fate.signature, fate.status]))},
        slot = ${caseOfSignature(fates.map((fate) => [fate.signature, fate.slot === null ? null : String(fate.slot)]))}
        WHERE ${sql.in("signature", fates.map((fate) => fate.signature))}`.pipe(Effect.asVoid)
    return Journal.of({
      // one statement each: atomic without an explicit transaction (with libsql, every
      // transaction hands its connection away and the next statement opens a new one)
      recordSigned: (rows) =>
        rows.length === 0 ? Effect.void : sql`INSERT INTO keeper_stages ${
          sql.insert(rows.map((row) => ({
            signature: row.signature,
            key: row.key,
            wallet: row.wallet,
            mint: row.mint,
            round: row.round,
            stage: row.stage,
            kind: row.kind,
            depends_on: JSON.stringify(row.dependsOn),
            bytes: row.bytes,
            last_valid_block_height: String(row.lastValidBlockHeight),
            fee: String(row.fee),
            claimable: row.claimable === null ? null : String(row.claimable),
            status: "signed",
            slot: null,
            created_at: row.createdAt,
            runner: row.runner
          })))
        } ON CONFLICT DO NOTHING`.pipe(Effect.asVoid),
      settle: (signature, status, slot) => settleMany([{ signature, status, slot }]),
      settleMany,
      unsettled: (filter) =>
        (filter === undefined
          ? sql<RawStage>`SELECT * FROM keeper_stages WHERE status = 'signed' ORDER BY id`
          : sql<
            RawStage
          >`SELECT * FROM keeper_stages WHERE status = 'signed' AND wallet = ${filter.wallet} AND mint = ${filter.mint} ORDER BY id`)
          .pipe(Effect.map((rows) => rows.map(stageOf))),
      stagesOf: (key) =>
        sql<RawStage>`SELECT * FROM keeper_stages WHERE key = ${key} ORDER BY id`.pipe(
          Effect.map((rows) => rows.map(stageOf))
        ),
      feesSince: (sinceMillis) =>
        sql<
          { readonly fee: string }
        >`SELECT fee FROM keeper_stages WHERE status IN ('landed', 'failed') AND created_at >= ${sinceMillis}`
          .pipe(Effect.map((rows) => rows.reduce((sum, row) => sum + toBigint(row.fee), 0n))),
      recordRun: (row) =>
        sql`INSERT INTO keeper_runs ${
          sql.insert({
            wallet: row.wallet,
            mint: row.mint,
            key: row.key,
            outcome: row.outcome,
            tag: row.tag,
            message: row.message,
            lamports: String(row.lamports),
            fees: String(row.fees),
            at: row.at,
            runner: row.runner,
            started_at: row.startedAt
          })
        }`.pipe(Effect.asVoid),
      runCount: (wallet, mint) =>
        sql<{ readonly n: unknown }>`SELECT COUNT(*) AS n FROM keeper_runs WHERE wallet = ${wallet} AND mint = ${mint}`
          .pipe(
            Effect.map((rows) => toNumber(rows[0]?.n ?? 0))
          ),
      runCounts: (wallet) =>
        sql<
          { readonly mint: string; readonly n: unknown }
        >`SELECT mint, COUNT(*) AS n FROM keeper_runs WHERE wallet = ${wallet} GROUP BY mint`
          .pipe(Effect.map((rows) => new Map(rows.map((row) => [row.mint, toNumber(row.n)])))),
      runs: sql<RawRun>`SELECT * FROM keeper_runs ORDER BY id`.pipe(Effect.map((rows) => rows.map(runOf))),
      unrecorded: (wallet) =>
        sql<{ readonly key: string; readonly mint: string }>`SELECT DISTINCT s.key, s.mint FROM keeper_stages s
        WHERE s.wallet = ${wallet} AND NOT EXISTS (SELECT 1 FROM keeper_runs r WHERE r.key = s.key) ORDER BY s.key`,
      recordOwner: (row) =>
        sql`INSERT INTO keeper_owners ${
          sql.insert({ wallet: row.wallet, runner: row.runner, started_at: row.startedAt, finished_at: row.finishedAt })
        } ON CONFLICT (wallet) DO UPDATE SET runner = excluded.runner, started_at = excluded.started_at, finished_at = excluded.finished_at`
          .pipe(Effect.asVoid),
      owners: sql<RawOwner>`SELECT * FROM keeper_owners ORDER BY wallet`.pipe(Effect.map((rows) => rows.map(ownerOf)))
    })
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Journal, SqlError | MigrationError, SqlClient.SqlClient> = Layer.effect(Journal, make)
