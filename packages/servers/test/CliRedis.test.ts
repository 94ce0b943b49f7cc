// `feeshare --redis-url`: the CLI's calls count in the shared budget; Redis gone is exit 7
// (network) naming the option, and the URL's password is never printed.
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { feeshare, type RedisServer, type SandboxProcess, startRedis, startSandbox } from "../support/processes.js"

const password = "cli-redis-secret"
let redis: RedisServer
let sandbox: SandboxProcess

beforeAll(async () => {
  ;[redis, sandbox] = await Promise.all([startRedis({ password }), startSandbox([])])
})

afterAll(async () => {
  await Promise.all([redis?.stop(), sandbox?.stop()])
})

describe("feeshare --redis-url", () => {
  it("counts the run's requests in the shared budget (FEESHARE_REDIS_URL works the same)", async () => {
    const env = { FEESHARE_BASE_URL: sandbox.baseUrl, FEESHARE_API_KEY: sandbox.apiKey }
    const flag = await feeshare(["limits", "--json", "--redis-url", redis.url, "--budget-key", "cli"], env)
    expect(flag.stderr).toBe("")
    expect(flag.code).toBe(0)
    const fromEnv = await feeshare(["pools", "--json", "--budget-key", "cli"], {
      ...env,
      FEESHARE_REDIS_URL: redis.url
    })
    expect(fromEnv.code).toBe(0)
    const inspect = new Redis(redis.url)
    expect(await inspect.zcard("feeshare:budget:account:cli:log")).toBe(2)
    inspect.disconnect()
  })

  it("Redis gone: exit 7 (network), BudgetUnavailable naming --redis-url, no password printed", async () => {
    const doomed = await startRedis({ password })
    await doomed.kill()
    const outcome = await feeshare(["pools", "--redis-url", doomed.url, "--budget-key", "cli"], {
      FEESHARE_BASE_URL: sandbox.baseUrl,
      FEESHARE_API_KEY: sandbox.apiKey
    })
    expect(outcome.code).toBe(7)
    expect(outcome.stderr).toContain("BudgetUnavailable")
    expect(outcome.stderr).toContain("--redis-url")
    expect(outcome.stdout + outcome.stderr).not.toContain(password)
  })
})
