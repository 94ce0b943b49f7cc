import { assert, describe, it } from "@effect/vitest"
import { PlanExecutor } from "@feeshare/solana"
import { Duration } from "effect"
import * as Progress from "../src/Progress.js"

describe("Progress.LiveTable", () => {
  it("one row per stage with its elapsed time; the current wait: confirmation, warm-up, rate limit", () => {
    let now = 1_000
    const table = new Progress.LiveTable(() => now)
    const kinds = new Map([["setup", "lookup_table_setup"], ["claim", "claim"]])
    table.event(PlanExecutor.Event.Verified({ stage: "setup" }), kinds)
    table.event(PlanExecutor.Event.Signed({ stage: "setup", signature: "S".repeat(88) }), kinds)
    table.event(PlanExecutor.Event.Submitted({ stage: "setup", signature: "S".repeat(88) }), kinds)
    now += 1_500
    assert.strictEqual(table.wait(), "confirmation of setup (1.5 s)")
    table.event(PlanExecutor.Event.Landed({ stage: "setup", signature: "S".repeat(88), slot: 7n }), kinds)
    table.event(PlanExecutor.Event.Waiting({ reason: "warming_up", delay: Duration.seconds(2) }), kinds)
    now += 2_000
    assert.strictEqual(table.wait(), "lookup table warm-up (2.0 s)")
    table.rateLimitWait("claims.createPlan", 30_000)
    now += 10_000
    assert.strictEqual(table.wait(), "rate limit (claims.createPlan): resets in 20.0 s")
    const lines = table.lines(80)
    assert.match(lines[0]!, /^ {2}stage +kind +state +elapsed +signature$/)
    assert.match(lines[1]!, /^ {2}setup +lookup_table_setup +landed +1\.5 s +SSSSSS…SSSSSS slot 7$/)
    assert.match(lines.at(-1)!, /^ {2}13\.5 s elapsed; waiting: rate limit \(claims\.createPlan\): resets in 20\.0 s$/)
    for (const line of table.lines(30)) assert.isAtMost(line.length, 30)
    now += 20_000
    table.event(PlanExecutor.Event.Rebuilt({ attempt: 1, reason: "setup", stages: 1 }), kinds)
    table.event(PlanExecutor.Event.Verified({ stage: "claim" }), kinds)
    assert.strictEqual(table.wait(), undefined)
    assert.include(table.lines(80), "  plan rebuilt (setup landed): 1 stage(s)")
  })

  it("live: each rendering goes back over the previous one and clears it", () => {
    const written: Array<string> = []
    const live = Progress.live({ write: (text) => written.push(text), columns: 80 })
    live.table.event(PlanExecutor.Event.Verified({ stage: "claim" }), new Map([["claim", "claim"]]))
    live.render()
    live.render()
    assert.notInclude(written[0]!, "\u001b[")
    const height = written[0]!.split("\n").length - 1
    assert.isTrue(written[1]!.startsWith(`\u001b[${height}A\r\u001b[J`))
  })
})
