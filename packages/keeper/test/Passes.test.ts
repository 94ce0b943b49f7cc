/**
 * `Keeper.runForever` under the TestClock: the first pass at once, the next one
 * `intervalSeconds` after the last ended, and not a moment before. The keeper has no wallets
 * here (a pass settles the journal, on a fresh SQLite file, and reports); the service and the
 * chain are never asked.
 */
import { FetchHttpClient } from "@effect/platform"
import { LibsqlClient } from "@effect/sql-libsql"
import { assert, describe, it } from "@effect/vitest"
import { WorkflowEngine } from "@effect/workflow"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import { Clock, Effect, Layer, Queue, TestClock } from "effect"
import { join } from "node:path"
import * as Journal from "../src/Journal.js"
import * as Keeper from "../src/Keeper.js"
import * as KeeperConfig from "../src/KeeperConfig.js"
import { temporaryDirectory } from "./support/fixture.js"

const unreachable = "http://127.0.0.1:9"

const keeperLayer = (intervalSeconds: number) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const config = yield* KeeperConfig.decode({ wallets: [{ keypair: "unused.json" }], intervalSeconds })
    return Keeper.layer({ config, wallets: [] }).pipe(
      Layer.provideMerge(
        Journal.layer.pipe(
          Layer.provide(
            LibsqlClient.layer({
              url: `file:${join(temporaryDirectory("keeper-passes-"), "keeper.db")}`,
              intMode: "bigint"
            })
          )
        )
      ),
      Layer.provideMerge(WorkflowEngine.layerMemory),
      Layer.provideMerge(ChainRpc.layer(unreachable)),
      Layer.provideMerge(FeeShareClient.layer({ baseUrl: unreachable }).pipe(Layer.provide(FetchHttpClient.layer)))
    )
  })).pipe(Layer.orDie)

describe("Keeper.runForever (TestClock)", () => {
  it.scoped("passes intervalSeconds apart: the next pass runs once the interval has passed, not before", () =>
    Effect.gen(function*() {
      // each pass reports the test clock's time when it ended
      const passes = yield* Queue.unbounded<number>()
      yield* Keeper.runForever(() => Effect.flatMap(Clock.currentTimeMillis, (now) => Queue.offer(passes, now))).pipe(
        Effect.provide(keeperLayer(60)),
        Effect.forkScoped
      )
      assert.strictEqual(yield* Queue.take(passes), 0, "the first pass at once")

      yield* TestClock.adjust("59 seconds")
      assert.strictEqual(yield* Queue.size(passes), 0, "no pass before the interval")
      yield* TestClock.adjust("1 second")
      // had it run before 60 s, it would report that time
      assert.strictEqual(yield* Queue.take(passes), 60_000, "the next pass once the interval passed")

      yield* TestClock.adjust("60 seconds")
      assert.strictEqual(yield* Queue.take(passes), 120_000)
      assert.strictEqual(yield* Queue.size(passes), 0)
    }))
})
