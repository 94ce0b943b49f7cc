/**
 * What the CLI prints is clean whatever it is given or answered: a URL's userinfo (a key in
 * `--base-url http://u:KEY@…`) never reaches stderr, nor do a hostile server's escape codes.
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

describe("feeshare's output hygiene (spawned)", () => {
  it.scoped("a base URL with userinfo prints without it", () =>
    Effect.gen(function*() {
      const server = yield* listen((_request, response) => {
        response.writeHead(200, { "content-type": "application/json" }).end(`{"success":true,"response":[]}`)
      })
      const outcome = yield* feeshare(
        ["pools", "--base-url", `http://u:SECRETKEY-in-url-77@127.0.0.1:${server.port}/api/v1`],
        { FEESHARE_API_KEY: "fs-cli-hygiene-key", FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-hygiene-") }
      )
      assert.notStrictEqual(outcome.code, 0, outcome.stderr)
      assert.include(outcome.stderr, `127.0.0.1:${server.port}`)
      assert.notInclude(outcome.stderr + outcome.stdout, "SECRETKEY-in-url-77")
      assert.notInclude(outcome.stderr, "u:")
    }))

  it.scoped("ESC and BEL from a hostile server are stripped from stderr", () =>
    Effect.gen(function*() {
      const server = yield* listen((_request, response) => {
        response.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({ success: false, error: "\u001b[2J\u001b[31mspoofed: all good\u0007\r\u009b0m" })
        )
      })
      const outcome = yield* feeshare(["pools"], {
        FEESHARE_BASE_URL: `http://127.0.0.1:${server.port}/api/v1`,
        FEESHARE_API_KEY: "fs-cli-hygiene-key",
        FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-hygiene-")
      })
      assert.notStrictEqual(outcome.code, 0, outcome.stderr)
      assert.include(outcome.stderr, "spoofed: all good")

      assert.notMatch(outcome.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    }))
})
