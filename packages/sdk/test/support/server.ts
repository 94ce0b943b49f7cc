/**
 * A plain `node:http` server that answers `/ping` and, for every other path, either keeps
 * the request open forever (to abort it) or answers 429 with a far reset. It records each
 * request and when the client closed it.
 */
import { Api, RateLimit } from "@feeshare/domain"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Arrival {
  readonly path: string
  /** Resolves when the connection of this request is closed by the client. */
  readonly closed: Promise<void>
}

export interface TestServer {
  readonly baseUrl: string
  readonly paths: ReadonlyArray<string>
  /** Requests not yet answered nor closed. */
  readonly inFlight: () => number
  /** Resolves with the next request to arrive (other than `/ping`). */
  readonly next: () => Promise<Arrival>
  readonly close: () => Promise<void>
}

export const start = async (mode: "hang" | "429"): Promise<TestServer> => {
  const paths: Array<string> = []
  const waiting: Array<(arrival: Arrival) => void> = []
  const open = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname
    paths.push(path)
    const resetAt = Math.ceil(Date.now() / 1000) + 50
    const headers = {
      "content-type": "application/json",
      ...RateLimit.toHeaders(new RateLimit.RateLimitInfo({ limit: 10, remaining: 0, resetAt }))
    }
    if (path === "/ping") {
      response.writeHead(200, headers).end(JSON.stringify({ message: "pong" }))
      return
    }
    open.add(response)
    const closed = new Promise<void>((resolve) =>
      response.on("close", () => {
        open.delete(response)
        resolve()
      })
    )
    if (mode === "429") {
      response.writeHead(429, headers).end(
        JSON.stringify({ success: false, error: "Too many requests", limit: 10, remaining: 0, resetTime: resetAt })
      )
    }
    waiting.shift()?.({ path, closed })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${Api.basePath}`,
    paths,
    inFlight: () => open.size,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
