// Abort: an aborted call rejects with `Aborted` at once, its HTTP request is cancelled (the
// server sees the connection close) and nothing is left in flight.
import { Api } from "@feeshare/domain"
import { Aborted, Closed, FeeShare, RateLimited } from "feeshare"
import { getEventListeners } from "node:events"
import { afterEach, describe, expect, it } from "vitest"
import * as TestServer from "./support/server.js"

const servers: Array<TestServer.TestServer> = []
const serve = async (mode: "hang" | "429") => {
  const server = await TestServer.start(mode)
  servers.push(server)
  return server
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${String(value)}`)
    },
    (error: unknown) => error
  )

describe("Abort", () => {
  it("aborting a call whose answer never comes rejects with Aborted and closes the connection", async () => {
    const server = await serve("hang")
    await using feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key" })
    const controller = new AbortController()
    const arrived = server.next()
    const call = rejection(feeshare.analytics.pools(undefined, { signal: controller.signal }))
    const request = await arrived
    expect(request.path).toBe(Api.AnalyticsGroup.endpoints.pools.path)
    expect(server.inFlight()).toBe(1)

    controller.abort(new Error("user pressed cancel"))
    const error = await call
    expect(error).toBeInstanceOf(Aborted)
    expect(error).toMatchObject({ tag: "Aborted", _tag: "Aborted", status: 0, name: "AbortError" })
    expect((error as Aborted).reason).toBe(controller.signal.reason)
    expect((error as Aborted).message).toContain("user pressed cancel")
    // the server saw the client go away: nothing is left in flight
    await request.closed
    expect(server.inFlight()).toBe(0)
  })

  it("an already aborted signal rejects without sending anything", async () => {
    const server = await serve("hang")
    await using feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key" })
    const error = await rejection(feeshare.identity.me({ signal: AbortSignal.abort() }))
    expect(error).toBeInstanceOf(Aborted)
    // the next call is the first the server ever sees
    expect(await feeshare.ping()).toEqual({ message: "pong" })
    expect(server.paths).toEqual(["/ping"])
  })

  it("aborting while the client waits for a rate-limit reset interrupts the wait", async () => {
    const server = await serve("429")
    await using feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key" })
    const controller = new AbortController()
    const arrived = server.next()
    const call = rejection(feeshare.identity.me({ signal: controller.signal }))
    await (await arrived).closed
    // the reset is 50 s away and within maxRateLimitWait (60 s): the client is waiting for it
    controller.abort()
    const error = await call
    expect(error).toBeInstanceOf(Aborted)
    expect(error).not.toBeInstanceOf(RateLimited)
    expect(await feeshare.ping()).toEqual({ message: "pong" })
    expect(server.paths.filter((path) => path !== "/ping")).toHaveLength(1)
    expect(server.inFlight()).toBe(0)
  })

  it("close() aborts the calls still running, and later calls reject with Closed", async () => {
    const server = await serve("hang")
    const feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key" })
    const arrived = server.next()
    const call = rejection(feeshare.evm.creationFee())
    const request = await arrived
    await feeshare.close()
    const error = await call
    expect(error).toBeInstanceOf(Aborted)
    expect((error as Aborted).reason).toBeInstanceOf(Closed)
    await request.closed
    expect(server.inFlight()).toBe(0)
    expect(await rejection(feeshare.evm.creationFee())).toBeInstanceOf(Closed)
  })

  it("await using closes the client at the end of the block", async () => {
    const server = await serve("hang")
    let escaped: FeeShare | undefined
    let pending: Promise<unknown>
    const arrived = server.next()
    {
      await using feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key" })
      escaped = feeshare
      pending = rejection(feeshare.identity.me())
      await arrived
    }
    expect(await pending).toBeInstanceOf(Aborted)
    expect(await rejection(escaped.ping())).toBeInstanceOf(Closed)
  })
})

describe("many concurrent calls", () => {
  const pong = () =>
    Promise.resolve(
      new Response(JSON.stringify({ success: true, response: [] }), { headers: { "content-type": "application/json" } })
    )

  it("1,000 concurrent calls, with and without one shared signal: no listener warning, no listener left", async () => {
    const warnings: Array<string> = []
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`)
    process.on("warning", onWarning)
    try {
      await using feeshare = new FeeShare({
        baseUrl: "http://feeshare.invalid/api/v1",
        apiKey: "key-0123456789",
        fetch: pong
      })
      const shared = new AbortController()
      const calls = Array.from(
        { length: 1_000 },
        (_, i) => feeshare.analytics.pools({ onlyMigrated: false }, i % 2 === 0 ? { signal: shared.signal } : undefined)
      )
      expect(getEventListeners(shared.signal, "abort").length).toBeLessThanOrEqual(1)
      expect((await Promise.all(calls)).every((pools) => pools.length === 0)).toBe(true)
      expect(getEventListeners(shared.signal, "abort")).toEqual([])
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off("warning", onWarning)
    }
    expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([])
  })

  it("a shared signal aborts every call that uses it, and only those", async () => {
    const server = await serve("hang")
    await using feeshare = new FeeShare({ baseUrl: server.baseUrl, apiKey: "key-0123456789" })
    const shared = new AbortController()
    const aborted = Array.from(
      { length: 20 },
      () => rejection(feeshare.analytics.pools(undefined, { signal: shared.signal }))
    )
    const other = new AbortController()
    const kept = rejection(feeshare.analytics.pools(undefined, { signal: other.signal }))
    while (server.inFlight() < 21) await server.next()
    shared.abort(new Error("shutdown"))
    for (const error of await Promise.all(aborted)) expect(error).toBeInstanceOf(Aborted)
    expect(getEventListeners(shared.signal, "abort")).toEqual([])
    expect(getEventListeners(other.signal, "abort").length).toBe(1)
    other.abort(new Error("later"))
    expect(await kept).toBeInstanceOf(Aborted)
    expect(getEventListeners(other.signal, "abort")).toEqual([])
  })
})
