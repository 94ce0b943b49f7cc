/**
 * The CLI never carries the API key to another origin: a redirect there fails with one line
 * naming the Location (exit code of a service error), and the other origin receives nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { feeshare, temporaryDirectory } from "./support/spawn.js"

const listen = (handler: Parameters<typeof createServer>[1]) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
      const server = createServer(handler)
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          port: (server.address() as AddressInfo).port,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })))
    }),
    (server) => Effect.sync(server.close)
  )

describe("feeshare against a redirecting server (spawned)", () => {
  it.scoped("a redirect to another origin: exit 6, one line naming the Location, nothing sent there", () =>
    Effect.gen(function*() {
      const stolen: Array<unknown> = []
      const other = yield* listen((request, response) => {
        stolen.push(request.headers["x-api-key"])
        response.end("{}")
      })
      const location = `http://localhost:${other.port}/collect`
      const server = yield* listen((_request, response) => {
        response.writeHead(307, { location }).end()
      })
      const key = "fs-cli-redirect-key-9f8e7d"
      const outcome = yield* feeshare(["pools"], {
        FEESHARE_BASE_URL: `http://127.0.0.1:${server.port}/api/v1`,
        FEESHARE_API_KEY: key,
        FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-redirect-")
      })
      assert.strictEqual(outcome.code, 6, outcome.stderr)
      assert.include(outcome.stderr, location)
      assert.notInclude(outcome.stderr, key)
      assert.strictEqual(outcome.stderr.trim().split("\n").length, 1)
      assert.deepStrictEqual(stolen, [])
    }))
})

describe("feeshare while rate limited (spawned)", () => {
  it.scoped("a visible line says how long it waits for the rate limit, then the command succeeds", () =>
    Effect.gen(function*() {
      let n = 0
      const server = yield* listen((_request, response) => {
        n++
        if (n === 1) {
          response.writeHead(429, { "content-type": "application/json", "retry-after": "1" })
          response.end(JSON.stringify({ success: false, error: "slow down" }))
          return
        }
        const body = JSON.stringify({ success: true, response: [] })
        response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        response.end(body)
      })
      const outcome = yield* feeshare(["--json", "pools"], {
        FEESHARE_BASE_URL: `http://127.0.0.1:${server.port}/api/v1`,
        FEESHARE_API_KEY: "fs-wait-key",
        FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-wait-")
      })
      assert.strictEqual(outcome.code, 0, outcome.stderr)
      assert.include(outcome.stderr, "feeshare: waiting 1 s for the rate limit to reset (analytics.pools)")
      assert.deepStrictEqual(JSON.parse(outcome.stdout), [])
    }))
})
