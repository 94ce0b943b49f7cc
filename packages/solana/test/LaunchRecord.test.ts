/**
 * The in-memory launch records: what is saved is what is loaded, and with `maxRecords` the
 * records saved longest ago go first (a save refreshes a record's place).
 */
import { assert, describe, it } from "@effect/vitest"
import type { LaunchToken } from "@feeshare/domain"
import { Effect, FastCheck, Option } from "effect"
import * as LaunchRecord from "../src/LaunchRecord.js"

const wallet = "11111111111111111111111111111111"
const keyOf = (n: number) => n.toString(16).padStart(64, "0")
const record = (n: number, configKey?: string): LaunchToken.LaunchRecord => ({
  version: 1,
  key: keyOf(n),
  wallet,
  ...(configKey === undefined ? {} : { configKey })
})

describe("LaunchRecord.memory", () => {
  it.prop(
    "keeps the maxRecords saved most recently, each as last saved",
    [FastCheck.array(FastCheck.integer({ min: 0, max: 9 }), { maxLength: 40 }), FastCheck.integer({ min: 1, max: 5 })],
    ([saves, limit]) =>
      Effect.gen(function*() {
        const store = LaunchRecord.memory({ maxRecords: limit })
        for (const [i, n] of saves.entries()) yield* store.save(record(n, i % 2 === 0 ? wallet : undefined))
        // the expected survivors: distinct keys by their last save, newest `limit`
        const lastSave = new Map<number, number>()
        saves.forEach((n, i) => lastSave.set(n, i))
        const kept = [...lastSave.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit)
        for (let n = 0; n <= 9; n++) {
          const loaded = yield* store.load(keyOf(n))
          const expected = kept.find(([key]) => key === n)
          assert.strictEqual(Option.isSome(loaded), expected !== undefined, `record ${n}`)
          if (expected !== undefined && Option.isSome(loaded)) {
            assert.deepStrictEqual(loaded.value, record(n, expected[1] % 2 === 0 ? wallet : undefined))
          }
        }
      }).pipe(Effect.runSync)
  )

  it.effect("without maxRecords it keeps every record", () =>
    Effect.gen(function*() {
      const store = LaunchRecord.memory()
      for (let n = 0; n < 200; n++) yield* store.save(record(n))
      for (let n = 0; n < 200; n++) assert.isTrue(Option.isSome(yield* store.load(keyOf(n))))
    }))
})
