/**
 * The keeper's database holds signed transactions and wallet addresses: the SQLite file and
 * its WAL and SHM files are readable by their owner only, whatever the umask.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Journal from "../src/Journal.js"
import * as Keeper from "../src/Keeper.js"

const modeOf = (path: string) => statSync(path).mode & 0o777

/** A database path in a temporary directory, removed with the scope. */
const databaseFile = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "feeshare-keeper-files-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => join(dir, "keeper.db")))

describe("the keeper's database files", () => {
  it.scoped("are created 0600: the database, its WAL and its SHM", () =>
    Effect.gen(function*() {
      const file = yield* databaseFile
      const previous = process.umask(0o022)
      yield* Effect.addFinalizer(() => Effect.sync(() => process.umask(previous)))
      yield* Effect.gen(function*() {
        yield* Journal.Journal
        for (const path of [file, `${file}-wal`, `${file}-shm`]) {
          assert.isTrue(existsSync(path), path)
          assert.strictEqual(modeOf(path).toString(8), "600", path)
        }
      }).pipe(Effect.provide(Keeper.layerStorage(file)))
    }))

  it.scoped("an existing database readable by others is made 0600 before it is opened", () =>
    Effect.gen(function*() {
      const file = yield* databaseFile
      writeFileSync(file, "")
      chmodSync(file, 0o644)
      yield* Effect.gen(function*() {
        yield* Journal.Journal
        assert.strictEqual(modeOf(file).toString(8), "600")
      }).pipe(Effect.provide(Keeper.layerStorage(file)))
    }))
})
