/**
 * Against a sandbox serving hostile claim plans (`--tamper`): `prepare_claim` refuses the plan
 * with the verification's own tag and nothing is signed; over stdio, every line the server
 * writes on stdout is a JSON-RPC message, and rate-limit waits are told on stderr.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { connect, node, sandboxLayer, Seeded, serverArgs, serverEnv, solBalance } from "./support/fixture.js"

/** Writes JSON-RPC requests to a raw `feeshare mcp`, waits for the answer to each, returns stdout and stderr. */
const rawSession = (extra: ReadonlyArray<string>, requests: ReadonlyArray<Record<string, unknown>>) =>
  Effect.flatMap(SandboxInfo, (info) =>
    Effect.async<{ readonly stdout: string; readonly stderr: string }>((resume) => {
      const child = spawn(node, serverArgs(info, extra), { env: serverEnv(info), stdio: ["pipe", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8")
      })
      let next = 0
      const send = () => {
        const request = requests[next]
        if (request === undefined) {
          child.stdin.end()
          return
        }
        next++
        child.stdin.write(`${JSON.stringify(request)}\n`)
        // a notification has no answer: go on
        if (!("id" in request)) send()
      }
      child.stdout.on("data", (chunk: Buffer) => {
        const before = stdout.split("\n").length
        stdout += chunk.toString("utf8")
        for (let i = before; i < stdout.split("\n").length; i++) send()
      })
      child.on("close", () => resume(Effect.succeed({ stdout, stderr })))
      send()
      return Effect.sync(() => child.kill())
    }))

describe("feeshare mcp on a hostile sandbox", () => {
  // a small rate limit (6 requests in 3 seconds per user): a burst of reads makes the server wait
  layer(
    sandboxLayer({
      seed: "feeshare-mcp-tamper",
      tamper: [{ kind: "wrong-hash", plans: 1 }],
      rateLimit: 6,
      rateWindowMillis: 3000
    }),
    {
      excludeTestServices: true,
      timeout: "120 seconds"
    }
  )((it) => {
    it.scoped("a tampered plan is refused by prepare_claim with its tag; nothing is signed", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const before = yield* solBalance(seeded.demoWallet)
        const session = yield* connect(["--keypair", seeded.keygenPath])
        const refused = yield* session.call("prepare_claim", { tokenMint: seeded.tokens[0]!.mint })
        assert.isTrue(refused.isError)
        assert.strictEqual(refused.structured["error"], "MessageHashMismatch")
        assert.isUndefined(refused.structured["previewId"])
        assert.strictEqual(yield* solBalance(seeded.demoWallet), before)
        // the next plan is honest: it verifies
        const honest = yield* session.call("prepare_claim", { tokenMint: seeded.tokens[0]!.mint })
        assert.isFalse(honest.isError, honest.text)
      }))

    it.scoped("every stdout line is a JSON-RPC message; rate-limit waits go to stderr", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const { stderr, stdout } = yield* rawSession(["--keypair", seeded.keygenPath], [
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } }
          },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "tools/list" },
          {
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "positions", arguments: { wallet: seeded.demoWallet } }
          },
          {
            jsonrpc: "2.0",
            id: 4,
            method: "tools/call",
            params: { name: "prepare_claim", arguments: { tokenMint: seeded.tokens[1]!.mint } }
          },
          { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "positions", arguments: { wallet: "bad" } } },
          ...Array.from({ length: 8 }, (_, i) => ({
            jsonrpc: "2.0",
            id: 6 + i,
            method: "tools/call",
            params: { name: "lifetime_fees", arguments: { tokenMint: seeded.tokens[0]!.mint } }
          }))
        ])
        const lines = stdout.split("\n").filter((line) => line !== "")
        assert.strictEqual(lines.length, 13)
        for (const line of lines) {
          const message = JSON.parse(line) as { jsonrpc?: unknown; id?: unknown }
          assert.strictEqual(message.jsonrpc, "2.0")
        }
        assert.deepStrictEqual(
          lines.map((line) => (JSON.parse(line) as { id: unknown }).id),
          Array.from({ length: 13 }, (_, i) => i + 1)
        )
        // the reads past the limit waited (and said so on stderr), then answered
        assert.include(stderr, "waiting for the rate limit")
        for (const line of lines.slice(5)) assert.notInclude(line, "isError\":true")
      }))
  })
})
