/**
 * DNS rebinding and cross-site pages against the real server: a foreign `Host` or `Origin`
 * is refused on every path (API, set-up routes, the explorer, `/rpc` and its WebSocket), a
 * `POST` that is not declared JSON is refused, and off loopback `/rpc`'s faucet needs the
 * admin token as `/sandbox/airdrop` does.
 */
import { assert, describe, it } from "@effect/vitest"
import { createSolanaRpc, generateKeyPairSigner, lamports } from "@solana/kit"
import { Effect, Option, Redacted } from "effect"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import * as Rpc from "../src/Rpc.js"
import * as Sandbox from "../src/Sandbox.js"
import * as SandboxApi from "../src/SandboxApi.js"
import * as Server from "../src/Server.js"
import * as Fake from "./support/FakeMarket.js"
import { endpoint } from "./support/http.js"

interface Answer {
  readonly status: number
  readonly text: string
}

/** A request with the headers exactly as given (`Host` included), on the sandbox's port. */
const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  Effect.flatMap(Server.SandboxInfo, (info) =>
    Effect.async<Answer>((resume) => {
      const request = httpRequest(
        { host: "127.0.0.1", port: info.port, method, path, headers, setHost: false },
        (response) => {
          let text = ""
          response.setEncoding("utf8")
          response.on("data", (chunk: string) => (text += chunk))
          response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, text })))
        }
      )
      request.on("error", (error) => resume(Effect.die(error)))
      request.end(body)
      return Effect.sync(() => request.destroy())
    }))

const json = { "content-type": "application/json" }

const mfaEnable = `${SandboxApi.prefix}/mfa/enable`

const airdrop = (to: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "requestAirdrop", params: [to, 1_000_000] })

/** The first line of the answer to a WebSocket upgrade of `/rpc` with `headers`. */
const upgrade = (headers: string) =>
  Effect.flatMap(Server.SandboxInfo, (info) =>
    Effect.async<string>((resume) => {
      let answer = ""
      const socket = connect(info.port, "127.0.0.1", () =>
        socket.write(
          `GET ${Rpc.path} HTTP/1.1\r\n${headers}Connection: Upgrade\r\nUpgrade: websocket\r\n` +
            `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`
        ))
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString()
        if (answer.includes("\r\n")) {
          socket.destroy()
          resume(Effect.succeed(answer.slice(0, answer.indexOf("\r\n"))))
        }
      })
      socket.on("error", () => {})
      socket.on("close", () => resume(Effect.succeed(answer)))
      return Effect.sync(() => socket.destroy())
    }))

describe("Rebinding-proof sandbox", () => {
  it.effect("Host: attacker.example is a 403 everywhere: no TOTP secret, no explorer state, no ping", () =>
    Effect.gen(function*() {
      const wallet = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const hostile = { ...json, host: "attacker.example" }
      const mfa = yield* send("POST", mfaEnable, hostile, JSON.stringify({ wallet }))
      assert.strictEqual(mfa.status, 403, mfa.text)
      assert.notInclude(mfa.text, "secret")
      assert.include(mfa.text, "Forbidden host")
      for (const path of ["/explorer/state", "/ping", "/", endpoint("identity", "me").path]) {
        const reply = yield* send("GET", path, { host: "attacker.example:8899" })
        assert.strictEqual(reply.status, 403, `${path}: ${reply.text}`)
      }
      const rpc = yield* send("POST", Rpc.path, hostile, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }))
      assert.strictEqual(rpc.status, 403, rpc.text)
      // its own names pass
      for (const host of ["127.0.0.1", "localhost:1234", "[::1]:1"]) {
        assert.strictEqual((yield* send("GET", "/ping", { host })).status, 200, host)
      }
      assert.strictEqual(
        (yield* send("POST", mfaEnable, { ...json, host: "localhost" }, JSON.stringify({ wallet }))).status,
        200
      )
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer))))

  it.effect("a text/plain (or undeclared) /rpc post is refused: a page cannot reach the faucet", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const to = (yield* Effect.promise(() => generateKeyPairSigner())).address
      for (const headers of [{ "content-type": "text/plain" }, {}]) {
        const reply = yield* send("POST", Rpc.path, { ...headers, host: "127.0.0.1" }, airdrop(to))
        assert.strictEqual(reply.status, 400, reply.text)
        assert.include(reply.text, "Content-Type must be application/json")
      }
      const plainApi = yield* send(
        "POST",
        endpoint("agentAuth", "init").path,
        { "content-type": "text/plain", host: "127.0.0.1" },
        JSON.stringify({ address: to })
      )
      assert.strictEqual(plainApi.status, 400, plainApi.text)
      const rpc = createSolanaRpc(info.rpcUrl)
      assert.strictEqual((yield* Effect.promise(() => rpc.getBalance(to).send())).value, 0n)
      // Kit's client sends JSON: it still works
      yield* Effect.promise(() => rpc.requestAirdrop(to, lamports(1_000_000n)).send())
      assert.strictEqual((yield* Effect.promise(() => rpc.getBalance(to).send())).value, 1_000_000n)
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer))))

  it.effect("a foreign Origin is refused (API, set-up routes, /rpc, WebSocket); the sandbox's own passes", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const to = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const host = { host: `127.0.0.1:${info.port}` }
      for (const origin of ["http://attacker.example", "null", "https://evil.test:8899"]) {
        const rpc = yield* send("POST", Rpc.path, { ...json, ...host, origin }, airdrop(to))
        assert.strictEqual(rpc.status, 403, `${origin}: ${rpc.text}`)
        const mfa = yield* send("POST", mfaEnable, { ...json, ...host, origin }, JSON.stringify({ wallet: to }))
        assert.strictEqual(mfa.status, 403, `${origin}: ${mfa.text}`)
        const ws = yield* upgrade(`Host: 127.0.0.1\r\nOrigin: ${origin}\r\n`)
        assert.strictEqual(ws, "HTTP/1.1 403 Forbidden")
      }
      const own = yield* send("POST", Rpc.path, { ...json, ...host, origin: info.rootUrl }, airdrop(to))
      assert.strictEqual(own.status, 200, own.text)
      assert.notInclude(own.text, "error")
      assert.strictEqual(
        yield* upgrade(`Host: 127.0.0.1\r\nOrigin: ${info.rootUrl}\r\n`),
        "HTTP/1.1 101 Switching Protocols"
      )
      assert.strictEqual(yield* upgrade("Host: attacker.example\r\n"), "HTTP/1.1 403 Forbidden")
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer))))

  it.effect("off loopback /rpc's requestAirdrop needs the admin token, as /sandbox/airdrop does", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const token = Redacted.value(Option.getOrThrow(info.adminToken))
      const to = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const host = { ...json, host: "127.0.0.1" }
      const refused = yield* send("POST", Rpc.path, host, airdrop(to))
      assert.strictEqual(refused.status, 200, refused.text)
      assert.deepStrictEqual(JSON.parse(refused.text), {
        jsonrpc: "2.0",
        id: 1,
        error: { code: Rpc.adminTokenRequired.code, message: Rpc.adminTokenRequired.message }
      })
      const wrong = yield* send("POST", Rpc.path, { ...host, authorization: "Bearer nope" }, airdrop(to))
      assert.include(wrong.text, "admin token")
      // other methods need no token
      const health = yield* send("POST", Rpc.path, host, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "getHealth" }))
      assert.include(health.text, `"result":"ok"`)
      const allowed = yield* send("POST", Rpc.path, { ...host, authorization: `Bearer ${token}` }, airdrop(to))
      assert.include(allowed.text, `"result"`)
      assert.notInclude(allowed.text, "error")
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0, host: "0.0.0.0" }, Fake.layer))))
})
