/**
 * The journal's migrations: SQLite journals made by keepers from before migrations
 * (`test/fixtures`) open, migrate (once), keep every row and claim; three runners starting at
 * once against one fresh PostgreSQL database migrate it once, and create the cluster's tables
 * without one of them dying.
 */
import { ShardingConfig } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, Redacted } from "effect"
import { copyFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Cluster from "../src/Cluster.js"
import * as Journal from "../src/Journal.js"
import * as Keeper from "../src/Keeper.js"
import * as Migrations from "../src/Migrations.js"
import { keeper, keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "./support/fixture.js"
import { postgres, query } from "./support/runners.js"

const fixtures = fileURLToPath(new URL("fixtures/", import.meta.url))

interface Written {
  readonly stages: ReadonlyArray<Journal.StageRow>
  readonly runs: ReadonlyArray<Journal.RunRow>
  readonly owners: ReadonlyArray<Journal.OwnerRow>
}

/** The rows `makeJournal.ts` wrote into a fixture (bigints were written as `"123n"`). */
const written = (name: string): Written =>
  JSON.parse(
    readFileSync(join(fixtures, `${name}.json`), "utf8"),
    (_, value: unknown) => typeof value === "string" && /^\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value
  ) as Written

/** A copy of a fixture in a fresh directory (the committed file is never opened). */
const copy = (name: string) => {
  const file = join(temporaryDirectory("keeper-migrate-"), "keeper.db")
  copyFileSync(join(fixtures, `${name}.db`), file)
  return file
}

const applied = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly migration_id: number }>`SELECT migration_id FROM keeper_migrations ORDER BY migration_id`
).pipe(Effect.map((rows) => rows.map((row) => Number(row.migration_id))))

const fixtureCases = [
  // the keeper before migrations: the schema of migration 1, without its record
  { name: "journal-3f2faca", hasRunStart: true },
  // the first keeper: stages without row ids, runs without runner and start, no owners
  { name: "journal-d7c93e0", hasRunStart: false }
] as const

describe("Journal migrations", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-migrations" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    for (const { hasRunStart, name } of fixtureCases) {
      it.effect(`${name}: opens, migrates once, loses no row, and claims`, () =>
        Effect.gen(function*() {
          const file = copy(name)
          const before = written(name)
          const expectedRuns = before.runs.map((run) => ({ ...run, startedAt: hasRunStart ? run.startedAt : null }))

          // opened as a keeper opens it: every migration runs, every row is there
          const opened = yield* Effect.gen(function*() {
            const journal = yield* Journal.Journal
            return {
              applied: yield* applied,
              stages: yield* Effect.forEach(before.runs, (run) => journal.stagesOf(run.key)),
              runs: yield* journal.runs,
              owners: yield* journal.owners,
              unsettled: yield* journal.unsettled(),
              counts: yield* Effect.forEach(before.runs, (run) => journal.runCount(run.wallet, run.mint))
            }
          }).pipe(Effect.provide(Keeper.layerStorage(file)))
          assert.deepStrictEqual(opened.applied, [1, 2, 3])
          assert.deepStrictEqual(opened.runs, expectedRuns)
          assert.deepStrictEqual(opened.owners, before.owners)
          assert.deepStrictEqual(opened.unsettled, [])
          assert.deepStrictEqual(opened.counts, before.runs.map(() => 2))
          // every stage, in the order it was written (the first keeper's have row ids now), and
          // none knows what its run claimed: that was not kept then
          const keys = [...new Set(before.runs.map((run) => run.key))]
          assert.deepStrictEqual(
            opened.stages.flat(),
            keys.flatMap((key) =>
              before.stages.filter((stage) => stage.key === key).map((stage) => ({ ...stage, claimable: null }))
            )
          )

          // opened again: nothing to migrate
          const again = yield* Effect.all([Migrations.migrate, applied]).pipe(
            Effect.provide(Keeper.layerJournal(file))
          )
          assert.deepStrictEqual(again, [[], [1, 2, 3]])

          // and a keeper claims on it, next to the rows it kept
          const dir = temporaryDirectory("keeper-migrate-keys-")
          const wallet = yield* keyFile(dir, "w0")
          const [mint] = yield* positions({ wallets: [wallet], tokens: 1, claimersPerToken: 1, buySol: () => 1n })
          const owedBefore = (yield* owed([wallet])).get(wallet.signer.publicKey)?.get(mint!) ?? 0
          assert.isAbove(owedBefore, 0)
          const keeperLayer = yield* keeper([wallet], { database: file, transactionFormat: "v1" })
          const [report, runs] = yield* Effect.all([
            Keeper.pass,
            Effect.flatMap(Journal.Journal, (journal) => journal.runs)
          ]).pipe(Effect.provide(keeperLayer))
          assert.deepStrictEqual(
            report.wallets.flatMap((w) => w.positions.map((p) => [p.mint, p.outcome, p.lamports])),
            [[mint, "claimed", BigInt(owedBefore)]]
          )
          assert.deepStrictEqual(runs.slice(0, expectedRuns.length), expectedRuns)
          assert.deepStrictEqual(
            runs.slice(expectedRuns.length).map((run) => [run.wallet, run.mint, run.key, run.outcome]),
            [[wallet.signer.publicKey, mint, `${wallet.signer.publicKey}/${mint}/0`, "claimed"]]
          )
        }))
    }

    it.effect("PostgreSQL: three runners starting at once migrate a fresh database once", () =>
      Effect.gen(function*() {
        const { client, server } = yield* postgres
        // three runners: a pool each, as three processes would have
        const runner = (n: number) =>
          Effect.all([Migrations.migrate, Journal.make]).pipe(
            Effect.map(([ran]) => ran),
            Effect.provide(PgClient.layer({ url: Redacted.make(server.url), applicationName: `runner ${n}` }))
          )
        const ran = yield* Effect.all([runner(1), runner(2), runner(3)], { concurrency: "unbounded" }).pipe(
          Effect.provide(Logger.minimumLogLevel(LogLevel.Warning))
        )
        // each migration ran on exactly one of them
        assert.deepStrictEqual(
          ran.flat().map(([id]) => id).sort(),
          [1, 2, 3],
          JSON.stringify(ran)
        )
        const rows = yield* query<{ migration_id: number }>(
          client,
          "SELECT migration_id FROM keeper_migrations ORDER BY migration_id"
        )
        assert.deepStrictEqual(rows.map((row) => row.migration_id), [1, 2, 3])
        const tables = yield* query<{ name: string }>(
          client,
          "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'keeper_%' ORDER BY table_name"
        )
        assert.deepStrictEqual(tables.map((t) => t.name), [
          "keeper_migrations",
          "keeper_owners",
          "keeper_runs",
          "keeper_stages"
        ])
      }).pipe(Effect.scoped))

    it.effect("PostgreSQL: three runners starting at once create the cluster's tables, none of them dies", () =>
      Effect.gen(function*() {
        const { client, server } = yield* postgres
        // each of a round's three builds its own pool, as three processes would; a round starts
        // on an empty database, so every round races to create the tables
        const runner = (n: number) =>
          Effect.scoped(Layer.build(Cluster.layerStorage)).pipe(
            Effect.provide(ShardingConfig.layer()),
            Effect.provide(PgClient.layer({ url: Redacted.make(server.url), applicationName: `runner ${n}` }))
          )
        for (let round = 0; round < 5; round++) {
          yield* query(client, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
          const exits = yield* Effect.all([runner(1), runner(2), runner(3)], { concurrency: "unbounded" }).pipe(
            Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
            Effect.exit
          )
          assert.isTrue(
            Exit.isSuccess(exits),
            `round ${round}: ${Exit.isFailure(exits) ? Cause.pretty(exits.cause) : ""}`
          )
          const tables = yield* query<{ name: string }>(
            client,
            "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'cluster_%' ORDER BY table_name"
          )
          assert.deepStrictEqual(tables.map((t) => t.name), [
            "cluster_messages",
            "cluster_migrations",
            "cluster_replies",
            "cluster_runners"
          ])
        }
      }).pipe(Effect.scoped))
  })
})
