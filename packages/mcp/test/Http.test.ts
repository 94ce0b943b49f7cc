/**
 * `feeshare mcp --http 0`: streamable HTTP on loopback, the official client with the bearer
 * token printed at start; requests without the token or from a foreign Origin are refused.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { execFile, spawn } from "node:child_process"
import { node, sandboxLayer, serverArgs, serverEnv } from "./support/fixture.js"

/** Starts the server; answers its URL and token once both lines are on stderr (killed with the scope). */
const start = Effect.flatMap(SandboxInfo, (info) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly token: string; readonly stop: () => void }>((resume) => {
      const child = spawn(node, serverArgs(info, ["--read-only", "--http", "0"]), {
        env: serverEnv(info),
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stderr = ""
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8")
        const url = /listening on (\S+)/.exec(stderr)?.[1]
        const token = /bearer token: ([0-9a-f]{64})/.exec(stderr)?.[1]
        if (url !== undefined && token !== undefined) resume(Effect.succeed({ url, token, stop: () => child.kill() }))
      })
      child.on("exit", (code) => resume(Effect.dieMessage(`feeshare mcp --http exited (${code}): ${stderr}`)))
    }),
    (server) => Effect.sync(() => server.stop())
  ))

const post = (url: string, headers: Record<string, string>) =>
  Effect.promise(() =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    }).then((response) => response.status)
  )

/**
 * A raw POST with the token: its status and its body as JSON (`undefined` when it is not).
 * `chunked` sends the body as a stream, without a content-length.
 */
const raw = (url: string, token: string, body: string, chunked = false) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`
      },
      ...(chunked ?
        { body: new Blob([body]).stream(), duplex: "half" } :
        { body })
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, json: json as { readonly error?: { readonly code: number } } | undefined }
  })

describe("feeshare mcp --http", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-http" }), { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.scoped("serves the official client with the token; refuses no token, a wrong token and a foreign Origin", () =>
      Effect.gen(function*() {
        const server = yield* start
        assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
        const port = new URL(server.url).port
        assert.strictEqual(yield* post(server.url, {}), 401)
        assert.strictEqual(yield* post(server.url, { authorization: `Bearer ${"0".repeat(64)}` }), 401)
        const bearer = { authorization: `Bearer ${server.token}` }
        assert.strictEqual(yield* post(server.url, { ...bearer, origin: "http://evil.example" }), 403)
        assert.strictEqual(yield* post(server.url, { ...bearer, origin: `http://attacker.example:${port}` }), 403)

        const client = new Client({ name: "feeshare-mcp-http-test", version: "0.0.0" })
        yield* Effect.acquireRelease(
          Effect.promise(() =>
            client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer } }))
          ),
          () => Effect.promise(() => client.close())
        )
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.include(tools.map((tool) => tool.name), "positions")
        const me = yield* Effect.promise(() => client.callTool({ name: "me", arguments: {} }))
        assert.isFalse(me.isError === true, JSON.stringify(me))
      }))

    it.scoped("strict JSON-RPC: bad JSON, a wrong version, a huge batch, deep nesting and a huge body each get a 4xx envelope", () =>
      Effect.gen(function*() {
        const server = yield* start
        const call = (body: string) => raw(server.url, server.token, body)
        const badJson = yield* call("{not json")
        assert.deepStrictEqual([badJson.status, badJson.json?.error?.code], [400, -32700])
        const version = yield* call(JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" }))
        assert.deepStrictEqual([version.status, version.json?.error?.code], [400, -32600])
        const missing = yield* call(JSON.stringify({ id: 1, method: "tools/list" }))
        assert.deepStrictEqual([missing.status, missing.json?.error?.code], [400, -32600])
        const batch = yield* call(
          JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: "2.0", id, method: "tools/list" })))
        )
        assert.deepStrictEqual([batch.status, batch.json?.error?.code], [400, -32600])
        const deep = yield* call(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)
        assert.deepStrictEqual([deep.status, deep.json?.error?.code], [400, -32600])
        const hugeBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x", params: { p: "a".repeat(2 << 20) } })
        // declared or counted, the 413 arrives while the client is still sending (not a reset connection)
        for (const chunked of [false, false, false, true, true]) {
          const huge = yield* raw(server.url, server.token, hugeBody, chunked)
          assert.deepStrictEqual([chunked, huge.status, huge.json?.error?.code], [chunked, 413, -32600])
        }
        // a good request still works after all that
        const good = yield* call(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }))
        assert.isBelow(good.status, 500)
        assert.notStrictEqual(good.status, 400)
      }))

    it.effect("a FEESHARE_MCP_TOKEN under 16 characters is refused at start, saying so", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const outcome = yield* Effect.async<{ readonly code: number | null; readonly stderr: string }>((resume) => {
          const child = execFile(
            node,
            serverArgs(info, ["--read-only", "--http", "0"]),
            { env: { ...serverEnv(info), FEESHARE_MCP_TOKEN: "short-token" }, timeout: 60_000 },
            (_error, _stdout, stderr) => resume(Effect.succeed({ code: child.exitCode, stderr }))
          )
        })
        assert.strictEqual(outcome.code, 2, outcome.stderr)
        assert.include(outcome.stderr, "FEESHARE_MCP_TOKEN is 11 characters")
        assert.include(outcome.stderr, "at least 16")
        assert.notInclude(outcome.stderr, "listening on")
      }))
  })
})
