/**
 * `feeshare mcp --http 0`: streamable HTTP on loopback, the official client with the bearer
 * token printed at start; requests without the token or from a foreign Origin are refused.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { sandboxLayer, serverArgs, serverEnv, tsx } from "./support/fixture.js"

/** Starts the server; answers its URL and token once both lines are on stderr (killed with the scope). */
const start = Effect.flatMap(SandboxInfo, (info) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly token: string; readonly stop: () => void }>((resume) => {
      const child = spawn(tsx, serverArgs(info, ["--read-only", "--http", "0"]), {
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
  })
})
