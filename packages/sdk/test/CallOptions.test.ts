// Per-call overrides (timeout, retry, maxRateLimitWait), withResponse, and logging (logLevel,
// FEESHARE_LOG, a custom logger that never sees the API key or a secret key), against the
// sandbox. Requests are counted by a pass-through `fetch` given to the facade (the real one
// underneath).
import { PublicKey } from "@feeshare/domain"
import { Keypair } from "@solana/web3.js"
import { Effect } from "effect"
import { FeeShare, InvalidRequest, RateLimited, ServerError, Timeout } from "feeshare"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import * as Logging from "../src/internal/logging.js"
import { type Running, start } from "./support/sandbox.js"

const sandboxes: Array<Running> = []
const sandbox = async (options: Parameters<typeof start>[0]) => {
  const running = await start({ slotMillis: 0, seed: "sdk-call-options", ...options })
  sandboxes.push(running)
  return running
}
afterAll(async () => {
  await Promise.all(sandboxes.map((running) => running.close()))
})

const environment = process.env.FEESHARE_LOG
afterEach(() => {
  if (environment === undefined) delete process.env.FEESHARE_LOG
  else process.env.FEESHARE_LOG = environment
})

/** A facade on `running` whose requests are counted. */
const counted = (running: Running, options: Omit<ConstructorParameters<typeof FeeShare>[0], "baseUrl"> = {}) => {
  let sent = 0
  const feeshare = new FeeShare({
    baseUrl: running.baseUrl,
    apiKey: running.apiKey,
    fetch: (input, init) => {
      sent++
      return globalThis.fetch(input, init)
    },
    ...options
  })
  return { feeshare, sent: () => sent }
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then((value) => {
    throw new Error(`expected a rejection, got ${String(value)}`)
  }, (error: unknown) => error)

/** A logger keeping every line as text, with its level. */
const recording = () => {
  const lines: Array<string> = []
  const at = (level: string) => (message: string, fields: Readonly<Record<string, unknown>>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`)
  }
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } }
}

describe("CallOptions overrides", () => {
  it("timeout: the call's own limit rejects with Timeout; the next call keeps the client's", async () => {
    const running = await sandbox({ latencyMillis: 300 })
    await using client = counted(running, { retry: { maxAttempts: 1 } }).feeshare
    const error = await rejection(client.analytics.pools(undefined, { timeout: 30 }))
    expect(error).toBeInstanceOf(Timeout)
    expect((error as Timeout).message).toBe("no response within 30 ms")
    await expect(client.analytics.pools()).resolves.toBeInstanceOf(Array)
  })

  it("retry: the call's own number of attempts", async () => {
    const running = await sandbox({ errorRates: { 503: 1 } })
    const { feeshare, sent } = counted(running, { retry: { maxAttempts: 3, baseDelay: "1 millis" } })
    await using client = feeshare
    expect(await rejection(client.analytics.pools(undefined, { retry: { maxAttempts: 1 } }))).toBeInstanceOf(
      ServerError
    )
    expect(sent()).toBe(1)
    await rejection(client.analytics.pools())
    expect(sent()).toBe(4)
    await rejection(client.evm.creationFee({ retry: { maxAttempts: 2 } }))
    expect(sent()).toBe(6)
  })

  it("maxRateLimitWait: the call may wait for the reset where the client refuses at once", async () => {
    const running = await sandbox({ rateLimit: 1, rateWindowMillis: 1000 })
    const { feeshare, sent } = counted(running, { maxRateLimitWait: 0 })
    await using client = feeshare
    await client.analytics.pools()
    const refused = await rejection(client.analytics.pools())
    expect(refused).toBeInstanceOf(RateLimited)
    expect(sent()).toBe(1)
    await expect(client.analytics.pools(undefined, { maxRateLimitWait: "5 seconds" })).resolves.toBeInstanceOf(Array)
    expect(sent()).toBe(2)
  })

  it("a bad override rejects with InvalidRequest naming the field; nothing is sent", async () => {
    const running = await sandbox({})
    const { feeshare, sent } = counted(running)
    await using client = feeshare
    const error = await rejection(client.analytics.pools(undefined, { retry: { maxAttempts: 0 } }))
    expect(error).toBeInstanceOf(InvalidRequest)
    expect((error as InvalidRequest).field).toBe("retry.maxAttempts")
    expect(sent()).toBe(0)
  })
})

describe("withResponse", () => {
  it("gives the data with the status, headers and rate-limit snapshot of its answer", async () => {
    const running = await sandbox({})
    await using client = counted(running).feeshare
    const response = await client.withResponse(() => client.analytics.pools())
    expect(response.status).toBe(200)
    expect(response.data).toEqual(await client.analytics.pools())
    expect(response.rateLimit?.limit).toBe(5000)
    expect(response.headers["x-ratelimit-limit"]).toBe("5000")
    expect(JSON.stringify(response.headers)).not.toContain(running.apiKey)
  })

  it("rejects with InvalidRequest when the call is not an operation of the service", async () => {
    const running = await sandbox({})
    await using client = counted(running).feeshare
    expect(await rejection(client.withResponse(() => Promise.resolve(1)))).toBeInstanceOf(InvalidRequest)
    const plan = await rejection(
      client.withResponse(() =>
        client.signAndSend.swap({
          swapTransaction: "1111",
          computeUnitLimit: 1,
          lastValidBlockHeight: 1,
          prioritizationFeeLamports: 0
        })
      )
    )
    expect(plan).toBeInstanceOf(InvalidRequest)
  })
})

describe("logging", () => {
  it("at debug, a line per call (operation, status, duration); never the API key or a secret key", async () => {
    const running = await sandbox({ errorRates: { 500: 0.5 } })
    const { lines, logger } = recording()
    const wallet = Keypair.generate()
    await using client = counted(running, { logLevel: "debug", logger, retry: { baseDelay: "1 millis" } }).feeshare
    for (let i = 0; i < 6; i++) await client.analytics.pools().catch(() => undefined)
    await client.login(wallet.secretKey, "logged").catch(() => undefined)
    expect(
      lines.some((line) => line.startsWith("debug answered") && line.includes("\"operation\":\"analytics.pools\""))
    ).toBe(true)
    expect(lines.some((line) => line.includes("analytics.poolsMillis"))).toBe(true)
    const secrets = [
      running.apiKey,
      PublicKey.base58.encode(wallet.secretKey),
      Buffer.from(wallet.secretKey).toString("base64"),
      Buffer.from(wallet.secretKey).toString("hex"),
      JSON.stringify(Array.from(wallet.secretKey)).slice(1, -1)
    ]
    for (const line of lines) for (const secret of secrets) expect(line).not.toContain(secret)
  })

  it("the logger's text and fields are redacted of the API key, whatever put it there", async () => {
    const { lines, logger } = recording()
    const key = "fs_live_0123456789abcdef"
    const layer = Logging.layer({ logLevel: "info", env: undefined, logger, apiKey: key })
    await Effect.runPromise(
      Effect.logWarning(`echoed ${key}!`).pipe(
        Effect.annotateLogs({ header: `x-api-key: ${key}` }),
        Effect.provide(layer)
      )
    )
    expect(lines).toEqual([`warn echoed [redacted]! {"header":"x-api-key: [redacted]"}`])
  })

  it("warn by default, FEESHARE_LOG when set, logLevel over both; a bad level names its source", async () => {
    const running = await sandbox({})
    const quiet = recording()
    await using byDefault = counted(running, { logger: quiet.logger }).feeshare
    await byDefault.analytics.pools()
    expect(quiet.lines).toEqual([])

    process.env.FEESHARE_LOG = "debug"
    const verbose = recording()
    await using fromEnv = counted(running, { logger: verbose.logger }).feeshare
    await fromEnv.analytics.pools()
    expect(verbose.lines.some((line) => line.startsWith("debug answered"))).toBe(true)

    const overridden = recording()
    await using byOption = counted(running, { logger: overridden.logger, logLevel: "off" }).feeshare
    await byOption.analytics.pools()
    expect(overridden.lines).toEqual([])

    process.env.FEESHARE_LOG = "loud"
    await using bad = counted(running).feeshare
    const error = await rejection(bad.analytics.pools())
    expect(error).toBeInstanceOf(InvalidRequest)
    expect((error as InvalidRequest).field).toBe("FEESHARE_LOG")
  })
})
