/**
 * The HTTP server against a hostile client: oversized and stalled bodies, oversized heads,
 * bodies that are not JSON or nest without end, echoed values, and the set-up routes when the
 * sandbox is reachable from other machines.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { connect } from "node:net"
import * as AdminToken from "../src/AdminToken.js"
import * as SandboxApi from "../src/SandboxApi.js"
import * as Server from "../src/Server.js"
import { endpoint, fetchReply, sandbox } from "./support/http.js"

/** Writes `head` (and then `body`, unless it is `undefined`) on a raw socket; the whole answer once the server closes. */
const rawExchange = (port: number, head: string, body?: string) =>
  Effect.async<string>((resume) => {
    let answer = ""
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head)
      if (body !== undefined) socket.write(body)
    })
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()))
    // the server may close while the client still writes: what it answered is what counts
    socket.on("error", () => {})
    socket.on("close", () => resume(Effect.succeed(answer)))
    return Effect.sync(() => socket.destroy())
  })

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))

const init = endpoint("agentAuth", "init").path

const post = (path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  Effect.flatMap(Server.SandboxInfo, (info) => fetchReply(`${info.rootUrl}${path}`, { method: "POST", body, headers }))

describe("Server against a hostile client", () => {
  it.live("a body over the limit is 413, whether its length is declared or not, without reading the rest", () =>
    Effect.gen(function*() {
      const { port } = yield* Server.SandboxInfo
      // declares 100 MB and sends a few bytes: the answer comes at once, from the headers alone
      const declared = yield* rawExchange(
        port,
        `POST ${init} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a`
      )
      assert.strictEqual(statusOf(declared), 413, declared)
      assert.deepStrictEqual(bodyOf(declared), {
        success: false,
        error: "Request body too large: the limit is 4096 bytes"
      })
      assert.match(declared, /\r\nconnection: close\r\n/i)
      // chunked, no length: cut while reading
      const chunk = `${(8192).toString(16)}\r\n${"a".repeat(8192)}\r\n`
      const chunked = yield* rawExchange(
        port,
        `POST ${init} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        `${chunk.repeat(4)}0\r\n\r\n`
      )
      assert.strictEqual(statusOf(chunked), 413, chunked)
      // under the limit, the same route still answers
      const fine = yield* post(init, JSON.stringify({ address: "11111111111111111111111111111111" }))
      assert.strictEqual(fine.status, 200, fine.text)
    }).pipe(Effect.provide(sandbox({ maxBodyBytes: 4096 }))))

  it.effect("a bad value is not echoed whole: the message is capped", () =>
    Effect.gen(function*() {
      const reply = yield* post(init, JSON.stringify({ address: "x".repeat(500_000) }))
      assert.strictEqual(reply.status, 400)
      const message = (reply.json as { error: string }).error
      assert.isAtMost(message.length, 600)
      assert.include(message, "address")
    }).pipe(Effect.provide(sandbox())))

  it.effect("JSON nested 3000 deep is a 400 naming the limit, not a 500", () =>
    Effect.gen(function*() {
      for (
        const body of ["[".repeat(3000) + "]".repeat(3000), `{"address":${"{\"a\":".repeat(3000)}1${"}".repeat(3001)}`]
      ) {
        const reply = yield* post(init, body)
        assert.deepStrictEqual([reply.status, reply.json], [400, {
          success: false,
          error: "agentAuth.init: JSON nested deeper than 32 levels"
        }])
      }
      // brackets inside strings do not count
      const inString = yield* post(init, JSON.stringify({ address: "[".repeat(100) }))
      assert.strictEqual(inString.status, 400)
      assert.include((inString.json as { error: string }).error, "address must be")
    }).pipe(Effect.provide(sandbox())))

  it.effect("a body that is not JSON (multipart, form, text) is a 400 naming the Content-Type", () =>
    Effect.gen(function*() {
      const multipart = "--x\r\nContent-Disposition: form-data; name=\"address\"\r\n\r\nb\r\n--x--\r\n"
      for (
        const contentType of ["multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain"]
      ) {
        const reply = yield* post(init, multipart, { "content-type": contentType })
        assert.deepStrictEqual([reply.status, reply.json], [400, {
          success: false,
          error: `Content-Type must be application/json, got ${contentType}`
        }])
      }
      const withCharset = yield* post(init, JSON.stringify({ address: "11111111111111111111111111111111" }), {
        "content-type": "application/json; charset=utf-8"
      })
      assert.strictEqual(withCharset.status, 200, withCharset.text)
    }).pipe(Effect.provide(sandbox())))

  it.live("a head over the limit is 431, a stalled body 408: both envelopes, both closing the connection", () =>
    Effect.gen(function*() {
      const { port } = yield* Server.SandboxInfo
      const big = yield* rawExchange(
        port,
        `GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(8192)}\r\n\r\n`
      )
      assert.strictEqual(statusOf(big), 431, big)
      assert.deepStrictEqual(bodyOf(big), { success: false, error: "Request header fields too large" })
      // promises 100 bytes, sends 3, then nothing: the server gives up after the request timeout
      const stalled = yield* rawExchange(
        port,
        `POST ${init} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a`
      )
      assert.strictEqual(statusOf(stalled), 408, stalled)
      assert.deepStrictEqual(bodyOf(stalled), {
        success: false,
        error: "Request timeout: the request was not received in time"
      })
    }).pipe(Effect.provide(sandbox({ maxHeaderBytes: 4096, requestTimeoutMillis: 300, headersTimeoutMillis: 200 }))))

  it.effect("off loopback, the set-up routes need the admin token; the service's routes do not", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const token = Option.getOrThrow(info.adminToken)
      assert.match(Redacted.value(token), /^sbx_admin_[A-Za-z0-9_-]{32}$/)
      const url = `${info.rootUrl}${SandboxApi.prefix}/evm/fixtures`
      const refused = yield* fetchReply(url)
      assert.strictEqual(refused.status, 401)
      assert.include((refused.json as { error: string }).error, "admin token")
      assert.strictEqual((yield* fetchReply(url, { headers: { authorization: "Bearer nope" } })).status, 401)
      const allowed = yield* fetchReply(url, { headers: { authorization: `Bearer ${Redacted.value(token)}` } })
      assert.strictEqual(allowed.status, 200, allowed.text)
      assert.strictEqual((yield* fetchReply(`${info.rootUrl}/ping`)).status, 200)
    }).pipe(Effect.provide(sandbox({ host: "0.0.0.0" }))))

  it.effect("an explicit admin token is used as given", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const reply = yield* fetchReply(`${info.rootUrl}${SandboxApi.prefix}/evm/fixtures`, {
        headers: { authorization: "Bearer 0123456789abcdef-given" }
      })
      assert.strictEqual(reply.status, 200, reply.text)
    }).pipe(Effect.provide(sandbox({ host: "0.0.0.0", adminToken: "0123456789abcdef-given" }))))

  it.effect("on loopback the set-up routes need no token", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      assert.isTrue(Option.isNone(info.adminToken))
      assert.strictEqual((yield* fetchReply(`${info.rootUrl}${SandboxApi.prefix}/evm/fixtures`)).status, 200)
      assert.isTrue(
        AdminToken.isLoopback("127.0.0.1") && AdminToken.isLoopback("::1") && AdminToken.isLoopback("localhost")
      )
      assert.isFalse(
        AdminToken.isLoopback("0.0.0.0") || AdminToken.isLoopback("::") || AdminToken.isLoopback("192.168.1.2")
      )
    }).pipe(Effect.provide(sandbox())))
})
