/**
 * The keeper's request budget: the shared one (`--redis-url`) and the config's `rateBudget`,
 * merged by one named rule.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as KeeperBudget from "../src/internal/keeperBudget.js"

const shared = { limit: 4500, window: Duration.hours(1), key: "account" }

describe("KeeperBudget.merge", () => {
  it("shared and in the file: the shared budget (its key, its store) with the file's limit and window", () => {
    assert.deepStrictEqual(KeeperBudget.merge(shared, { limit: 100, windowSeconds: 60 }), {
      limit: 100,
      window: Duration.seconds(60),
      key: "account"
    })
  })

  it("shared only: the shared budget as it is", () => {
    assert.strictEqual(KeeperBudget.merge(shared, undefined), shared)
  })

  it("in the file only: the file's limit and window", () => {
    assert.deepStrictEqual(KeeperBudget.merge(undefined, { limit: 100, windowSeconds: 60 }), {
      limit: 100,
      window: Duration.seconds(60)
    })
  })

  it("neither: no budget", () => {
    assert.isUndefined(KeeperBudget.merge(undefined, undefined))
  })
})
