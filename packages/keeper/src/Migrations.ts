/**
 * The journal's schema, through `@effect/sql`'s `Migrator` (as `@effect/cluster`'s SQL storage
 * does), on SQLite and PostgreSQL, recorded in `keeper_migrations`.
 *
 * A database made before migrations has no `keeper_migrations` table, so every migration runs
 * on it once: each therefore leaves alone what is already there. Two shapes of journal exist
 * from before: the first keeper's (SQLite only: stages keyed by signature with no row id, runs
 * without `runner` and `started_at`, no owners) and the one that followed (the schema of
 * migration 1).
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { firstStartSchedule } from "./Settings.js"

/**
 * Where the applied migrations are recorded.
 *
 * @since 0.1.0
 * @category constants
 */
export const table = "keeper_migrations"

const stagesColumns = (sql: SqlClient.SqlClient) =>
  sql`(
    id ${
    sql.onDialectOrElse({
      pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
      orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
    })
  },
    signature TEXT NOT NULL UNIQUE,
    key TEXT NOT NULL,
    wallet TEXT NOT NULL,
    mint TEXT NOT NULL,
    round INTEGER NOT NULL,
    stage TEXT NOT NULL,
    kind TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    bytes TEXT NOT NULL,
    last_valid_block_height TEXT NOT NULL,
    fee TEXT NOT NULL,
    status TEXT NOT NULL,
    slot TEXT,
    created_at BIGINT NOT NULL,
    runner TEXT
  )`

/** The journal: stages, runs, owners (SQLite or PostgreSQL: only the row id's type differs). */
const createJournal = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  yield* sql`CREATE TABLE IF NOT EXISTS keeper_stages ${stagesColumns(sql)}`
  yield* sql`CREATE INDEX IF NOT EXISTS keeper_stages_key ON keeper_stages (key)`
  yield* sql`CREATE INDEX IF NOT EXISTS keeper_stages_status ON keeper_stages (status, wallet, mint)`
  yield* sql`CREATE TABLE IF NOT EXISTS keeper_runs (
    id ${id},
    wallet TEXT NOT NULL,
    mint TEXT NOT NULL,
    key TEXT NOT NULL,
    outcome TEXT NOT NULL,
    tag TEXT,
    message TEXT,
    lamports TEXT NOT NULL,
    fees TEXT NOT NULL,
    at BIGINT NOT NULL,
    runner TEXT,
    started_at BIGINT
  )`
  yield* sql`CREATE INDEX IF NOT EXISTS keeper_runs_position ON keeper_runs (wallet, mint)`
  yield* sql`CREATE TABLE IF NOT EXISTS keeper_owners (
    wallet TEXT PRIMARY KEY,
    runner TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    finished_at BIGINT
  )`
})

const sqliteColumns = (sql: SqlClient.SqlClient, name: string) =>
  Effect.map(
    sql<{ readonly name: string }>`SELECT name FROM pragma_table_info(${name})`,
    (rows) => new Set(rows.map((row) => row.name))
  )

/**
 * The first keeper's journal (SQLite) brought to migration 1's schema: stages get a row id (in
 * the order they were written), runs their `runner` and `started_at`. Nothing else has that
 * shape, so on any other database this changes nothing.
 */
const upgradeFirstJournal = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () => Effect.void,
    orElse: () =>
      Effect.gen(function*() {
        const stages = yield* sqliteColumns(sql, "keeper_stages")
        if (!stages.has("id")) {
          const copied = sql.literal(
            "signature, key, wallet, mint, round, stage, kind, depends_on, bytes, last_valid_block_height, fee, status, slot, created_at"
          )
          yield* sql`CREATE TABLE keeper_stages_migrated ${stagesColumns(sql)}`
          yield* sql`INSERT INTO keeper_stages_migrated (${copied})
            SELECT ${copied} FROM keeper_stages ORDER BY rowid`
          yield* sql`DROP TABLE keeper_stages`
          yield* sql`ALTER TABLE keeper_stages_migrated RENAME TO keeper_stages`
          yield* sql`CREATE INDEX IF NOT EXISTS keeper_stages_key ON keeper_stages (key)`
          yield* sql`CREATE INDEX IF NOT EXISTS keeper_stages_status ON keeper_stages (status, wallet, mint)`
        }
        const runs = yield* sqliteColumns(sql, "keeper_runs")
        if (!runs.has("runner")) yield* sql`ALTER TABLE keeper_runs ADD COLUMN runner TEXT`
        if (!runs.has("started_at")) yield* sql`ALTER TABLE keeper_runs ADD COLUMN started_at BIGINT`
      })
  })
})

/**
 * Stages get what their run claims (`claimable`, in the smallest unit of what is claimed; null
 * on stages journaled before): a run resumed after a crash reports what the attempt that landed
 * claimed, from the journal alone.
 */
const stagesClaimable = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () => Effect.asVoid(sql`ALTER TABLE keeper_stages ADD COLUMN IF NOT EXISTS claimable TEXT`),
    orElse: () =>
      Effect.flatMap(
        sqliteColumns(sql, "keeper_stages"),
        (columns) =>
          columns.has("claimable")
            ? Effect.void
            : Effect.asVoid(sql`ALTER TABLE keeper_stages ADD COLUMN claimable TEXT`)
      )
  })
})

/**
 * The journal's migrations, in order.
 *
 * @since 0.1.0
 * @category migrations
 */
export const loader: Migrator.Loader = Migrator.fromRecord({
  "0001_create_journal": createJournal,
  "0002_upgrade_first_journal": upgradeFirstJournal,
  "0003_stages_claimable": stagesClaimable
})

/**
 * Brings the journal's schema up to date; returns the migrations it ran (none when another
 * runner ran them, or they ran before).
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = Migrator.make({})({ loader, table })
  return yield* sql.onDialectOrElse({
    // runners starting at once race to create `keeper_migrations` (the loser's `CREATE TABLE`
    // fails: it tries again); once it exists, the migrator's table lock lets one of them
    // migrate and the others find nothing to do
    pg: () => Effect.retry(run, { schedule: firstStartSchedule, while: (error) => error._tag === "SqlError" }),
    orElse: () => run
  })
}).pipe(Effect.withSpan("Migrations.migrate"))
