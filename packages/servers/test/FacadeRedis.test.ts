// The Promise facade with `feeshare/redis`: the budget shared through Redis, the connection
// released by close(), and BudgetUnavailable as the facade's class when Redis is gone.
import { BudgetUnavailable, FeeShare, isFeeShareError } from "feeshare"
import { redisStore } from "feeshare/redis"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, type SandboxProcess, startRedis, startSandbox } from "../support/processes.js"

let redis: RedisServer
let sandbox: SandboxProcess

beforeAll(async () => {
  ;[redis, sandbox] = await Promise.all([startRedis(), startSandbox([])])
})

afterAll(async () => {
  await Promise.all([redis?.stop(), sandbox?.stop()])
})

/** The client connections Redis holds, other than the inspecting one. */
const connections = async (inspect: Redis): Promise<number> => {
  const list: unknown = await inspect.call("CLIENT", "LIST")
  return String(list).trim().split("\n").length - 1
}

describe("feeshare/redis", () => {
  it("two facades share one budget; close() releases each connection", async () => {
    const inspect = new Redis(redis.url)
    const before = await connections(inspect)
    const make = () =>
      new FeeShare({
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        maxRateLimitWait: 0,
        budget: { limit: 3, window: "1 hour", key: "facade", store: redisStore({ url: redis.url }) }
      })
    const first = make()
    const second = make()
    await first.analytics.pools()
    await second.analytics.pools()
    await first.analytics.pools()
    // the fourth, from either, would exceed the shared 3 per hour: refused before sending
    const refused = await second.analytics.pools().catch((error: unknown) => error)
    expect(isFeeShareError(refused)).toBe(true)
    expect(refused).toMatchObject({ tag: "RateLimited", status: 0 })
    expect(await connections(inspect)).toBe(before + 2)
    await first.close()
    await second.close()
    expect(await connections(inspect)).toBe(before)
    inspect.disconnect()
  })

  it("Redis gone (fail closed): the call rejects with the facade's BudgetUnavailable; nothing was sent", async () => {
    const doomed = await startRedis()
    await using feeshare = new FeeShare({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      budget: {
        limit: 100,
        window: "1 hour",
        key: "gone",
        store: redisStore({ url: doomed.url, timeout: "300 millis" })
      }
    })
    await feeshare.analytics.pools()
    await doomed.kill()
    const error = await feeshare.analytics.pools().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BudgetUnavailable)
    expect(error).toMatchObject({ tag: "BudgetUnavailable", status: 0, operation: "analytics.pools" })
  })
})
