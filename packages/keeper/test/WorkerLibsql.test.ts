/**
 * The keeper's SQLite on a worker thread (`internal/workerLibsql.ts`) under `@effect/sql`:
 * values come back as the in-process client gives them, transactions commit or roll back, a
 * committed row is in the file for another connection, errors are `SqlError`s with libsql's
 * message, and a stopped worker fails its callers instead of leaving them waiting.
 */
import { SqlClient } from "@effect/sql"
import { LibsqlClient } from "@effect/sql-libsql"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { join } from "node:path"
import * as WorkerLibsql from "../src/internal/workerLibsql.js"
import { temporaryDirectory } from "./support/fixture.js"

const database = () => `file:${join(temporaryDirectory("keeper-worker-sql-"), "keeper.db")}`

const onWorker = (url: string) =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => WorkerLibsql.open({ url, intMode: "bigint" })),
        (opened) => Effect.promise(() => opened.shutdown())
      ),
      (opened) => LibsqlClient.layer({ liveClient: opened.client })
    )
  )

describe("SQLite on a worker thread", () => {
  it.scoped("values, transactions, durability and errors as the in-process client", () =>
    Effect.gen(function*() {
      const url = database()
      const context = yield* Layer.build(onWorker(url))
      const sql = yield* Effect.provide(SqlClient.SqlClient, context)
      yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, big INTEGER, bytes BLOB, label TEXT, ratio REAL, missing TEXT)`
      const big = 2n ** 62n + 7n
      yield* sql`INSERT INTO t (id, big, bytes, label, ratio, missing) VALUES (${1}, ${big}, ${new Uint8Array([
        0,
        255,
        7
      ])}, ${"é ✓"}, ${0.25}, ${null})`
      const [row] = yield* sql<
        { id: bigint; big: bigint; bytes: ArrayBuffer; label: string; ratio: number; missing: null }
      >`SELECT * FROM t`
      assert.strictEqual(row?.id, 1n)
      assert.strictEqual(row?.big, big)
      assert.deepStrictEqual([...new Uint8Array(row!.bytes)], [0, 255, 7])
      assert.strictEqual(row?.label, "é ✓")
      assert.strictEqual(row?.ratio, 0.25)
      assert.isNull(row?.missing)
      // values by position too (what `executeValues` reads)
      const values = yield* sql`SELECT id, label FROM t`.values
      assert.deepStrictEqual(values, [[1n, "é ✓"]])

      // a failed transaction leaves nothing; a committed one is in the file for another connection
      const failed = yield* Effect.exit(
        sql.withTransaction(
          Effect.zipRight(sql`INSERT INTO t (id, label) VALUES (${2}, ${"rolled back"})`, Effect.fail("stop" as const))
        )
      )
      assert.isTrue(Exit.isFailure(failed))
      yield* sql.withTransaction(sql`INSERT INTO t (id, label) VALUES (${3}, ${"committed"})`)
      const other = yield* Effect.provide(
        SqlClient.SqlClient,
        yield* Layer.build(LibsqlClient.layer({ url, intMode: "bigint" }))
      )
      assert.deepStrictEqual(
        (yield* other<{ id: bigint; label: string }>`SELECT id, label FROM t ORDER BY id`).map((r) => [r.id, r.label]),
        [[1n, "é ✓"], [3n, "committed"]]
      )

      // an error is a SqlError whose cause carries libsql's message
      const error = yield* Effect.flip(sql`SELECT * FROM nowhere`)
      assert.strictEqual(error._tag, "SqlError")
      assert.include(String((error.cause as Error).message), "no such table: nowhere")
    }))

  it.effect("a stopped worker fails every caller at once (no request waits on it)", () =>
    Effect.gen(function*() {
      const opened = WorkerLibsql.open({ url: database(), intMode: "bigint" })
      yield* Effect.promise(() => opened.client.execute("SELECT 1"))
      yield* Effect.promise(() => opened.shutdown())
      const error = yield* Effect.flip(Effect.tryPromise(() => opened.client.execute("SELECT 1")))
      assert.include(String(error.cause), "the SQLite worker stopped")
    }))

  it.effect("a database that cannot be opened fails its first request, naming the cause", () =>
    Effect.gen(function*() {
      const opened = WorkerLibsql.open({ url: "file:/nonexistent-directory/keeper.db", intMode: "bigint" })
      const error = yield* Effect.flip(Effect.tryPromise(() => opened.client.execute("SELECT 1")))
      assert.match(String(error.cause), /unable to open/i)
      yield* Effect.promise(() => opened.shutdown())
    }))
})
