// A fleet of OS processes sharing one account's budget through a real Redis, against the
// sandbox (a separate process) limiting the account to 60 requests per 10 s sliding window.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type RedisServer,
  type SandboxProcess,
  startFleetWorker,
  startRedis,
  startSandbox
} from "../support/processes.js"

const limit = 60
const windowMillis = 10_000

interface Line {
  readonly event: string
  readonly at: number
  readonly status?: number
  readonly failures?: ReadonlyArray<{ readonly tag: string; readonly message: string }>
}

const isLine = (u: unknown): u is Line =>
  typeof u === "object" && u !== null && "event" in u && typeof u.event === "string" && "at" in u &&
  typeof u.at === "number"

/** The most entries of `times` (ascending) in any window `(t - windowMillis, t]`. */
const busiestWindow = (times: ReadonlyArray<number>): number => {
  let most = 0
  let first = 0
  for (let last = 0; last < times.length; last++) {
    while (times[first]! <= times[last]! - windowMillis) first++
    most = Math.max(most, last - first + 1)
  }
  return most
}

let redis: RedisServer
let sandbox: SandboxProcess

beforeAll(async () => {
  ;[redis, sandbox] = await Promise.all([
    startRedis(),
    startSandbox(["--rate-limit", String(limit), "--rate-window-millis", String(windowMillis)])
  ])
})

afterAll(async () => {
  await Promise.all([redis?.stop(), sandbox?.stop()])
})

describe("a fleet sharing one budget through Redis", () => {
  it("4 processes × 50 calls, limit 60 per 10 s: no 429, never more than 60 sent in any window, every call completes", async () => {
    const workers = Array.from({ length: 4 }, () =>
      startFleetWorker({
        FEESHARE_BASE_URL: sandbox.baseUrl,
        FEESHARE_API_KEY: sandbox.apiKey,
        FEESHARE_REDIS_URL: redis.url,
        CALLS: "50",
        CONCURRENCY: "4",
        BUDGET_LIMIT: String(limit),
        BUDGET_WINDOW_MILLIS: String(windowMillis),
        BUDGET_KEY: "fleet-test"
      }))
    const codes = await Promise.all(workers.map((worker) => worker.exited))
    const lines = workers.flatMap((worker) => worker.lines.filter(isLine))
    expect(lines.filter((line) => line.event === "crashed")).toEqual([])
    expect(codes).toEqual([0, 0, 0, 0])
    const done = lines.filter((line) => line.event === "done")
    expect(done).toHaveLength(4)
    expect(done.flatMap((line) => line.failures ?? [])).toEqual([])
    const statuses = lines.filter((line) => line.event === "response").map((line) => line.status)
    expect(statuses).toHaveLength(200)
    expect(statuses.filter((status) => status === 429)).toEqual([])
    expect(statuses.every((status) => status === 200)).toBe(true)
    const sends = lines.filter((line) => line.event === "send").map((line) => line.at).sort((a, b) => a - b)
    expect(sends).toHaveLength(200)
    expect(busiestWindow(sends)).toBeLessThanOrEqual(limit)
    // the window slides: 200 calls at 60 per window take more than three windows
    expect(sends.at(-1)! - sends[0]!).toBeGreaterThan(3 * windowMillis)
  })
})
