import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { build } from "@feeshare/solana/StageBuilder"
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE
} from "@solana/kit"
import { Effect, Layer } from "effect"
import { request as httpRequest } from "node:http"
import { TOKEN_PROGRAM, transferSol } from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as Options from "../src/Options.js"
import * as Rpc from "../src/Rpc.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import * as Fake from "./support/FakeMarket.js"

/**
 * `/rpc` as the sandbox mounts it (behind the API's middleware), on a real localhost server,
 * over a ledger whose clock moves only by `advance`.
 */
const TestServer = Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer)

const rpcUrl = Effect.map(Server.SandboxInfo, (info) => info.rpcUrl)

const kit = Effect.map(rpcUrl, (url) => createSolanaRpc(url))

interface RpcError {
  readonly jsonrpc: string
  readonly id: unknown
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown }
}

/** The HTTP status and the parsed body of a POST to `/rpc`. */
const post = (body: unknown) =>
  Effect.flatMap(rpcUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })
      return { status: response.status, json: (await response.json()) as unknown }
    }))

const postJson = (body: unknown) => Effect.map(post(body), (reply) => reply.json)

/** A single JSON-RPC error answered with HTTP 200, as a Solana RPC node answers bad input. */
const rpcError = (body: unknown) =>
  Effect.map(post(body), (reply) => {
    assert.strictEqual(reply.status, 200)
    assert.isNotArray(reply.json)
    const answer = reply.json as RpcError
    assert.notProperty(answer, "success")
    assert.notProperty(answer, "result")
    assert.strictEqual(answer.jsonrpc, "2.0")
    return answer
  })

/**
 * A POST that never ends its body: the answer must come while the client is still sending
 * (the request is dropped once it has).
 */
const unfinishedPost = (headers: Record<string, string>, chunks: ReadonlyArray<Uint8Array>) =>
  Effect.flatMap(
    rpcUrl,
    (url) =>
      Effect.async<{ readonly status: number; readonly headers: Record<string, unknown>; readonly text: string }>(
        (resume) => {
          let answered = false
          const request = httpRequest(url, { method: "POST", headers }, (response) => {
            let text = ""
            response.setEncoding("utf8")
            response.on("data", (chunk: string) => {
              text += chunk
            })
            response.on("end", () => {
              answered = true
              request.destroy()
              resume(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, text }))
            })
          })
          request.on("error", (error) => {
            if (!answered) resume(Effect.die(error))
          })
          for (const chunk of chunks) request.write(chunk)
          return Effect.sync(() => request.destroy())
        }
      )
  )

const nested = (depth: number, inner: string) => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`

/** Kit upcasts every number of a response to bigint at runtime, whatever its types say. */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v)))

const signedTransfer = (format: "legacy" | "v0" | "v1", amount: bigint) =>
  Effect.gen(function*() {
    const rpc = yield* kit
    const payer = yield* Effect.promise(() => generateKeyPairSigner())
    const destination = yield* Effect.promise(() => generateKeyPairSigner())
    yield* Effect.promise(() => rpc.requestAirdrop(payer.address, lamports(5_000_000_000n)).send())
    const { value: blockhash } = yield* Effect.promise(() => rpc.getLatestBlockhash().send())
    const built = yield* Effect.promise(() =>
      build({
        format,
        feePayer: payer.address,
        instructions: [transferSol(payer.address, destination.address, amount)],
        lifetime: blockhash,
        signers: [payer],
        budget: { computeUnitLimit: 10_000, loadedAccountsDataSizeLimit: 65_536, priorityFee: 2_000n }
      })
    )
    return { built, payer: payer.address, destination: destination.address }
  })

describe("Rpc", () => {
  it.effect("a defect while answering is -32603 Internal error, without its text or stack", () =>
    Effect.gen(function*() {
      const broken = Layer.effect(
        Ledger.Ledger,
        Effect.map(Ledger.Ledger, (ledger) => ({ ...ledger, balance: () => Effect.die(new Error("secret detail")) }))
      ).pipe(Layer.provide(Ledger.layer(Options.make({ slotMillis: 0 }))))
      const request = HttpServerRequest.fromWeb(
        new Request("http://localhost/rpc", {
          method: "POST",
          body: JSON.stringify([
            { jsonrpc: "2.0", id: 1, method: "getBalance", params: ["11111111111111111111111111111111"] },
            { jsonrpc: "2.0", id: 2, method: "getHealth" }
          ])
        })
      )
      const response = yield* Rpc.app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.provide(broken)
      )
      const web = HttpServerResponse.toWeb(response)
      assert.strictEqual(web.status, 200)
      const text = yield* Effect.promise(() => web.text())
      assert.notInclude(text, "secret detail")
      assert.deepStrictEqual(JSON.parse(text), [
        { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } },
        { jsonrpc: "2.0", id: 2, result: "ok" }
      ])
    }))

  it.layer(TestServer)((it) => {
    it.effect("the clock methods agree with the ledger", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const ledger = yield* Ledger.Ledger
        yield* ledger.advance(3)
        const clock = yield* ledger.clock
        const [slot, height, latest, epoch] = yield* Effect.promise(() =>
          Promise.all([
            rpc.getSlot().send(),
            rpc.getBlockHeight().send(),
            rpc.getLatestBlockhash().send(),
            rpc.getEpochInfo().send()
          ])
        )
        assert.strictEqual(slot, clock.slot)
        assert.strictEqual(height, clock.blockHeight)
        assert.strictEqual(latest.value.blockhash, clock.blockhash)
        assert.strictEqual(latest.value.lastValidBlockHeight, clock.blockHeight + 150n)
        assert.strictEqual(epoch.absoluteSlot, clock.slot)
        assert.strictEqual(epoch.blockHeight, clock.blockHeight)
      }))

    it.effect("sendTransaction (base64) lands; statuses, balances and getTransaction report it", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const ledger = yield* Ledger.Ledger
        const { built, destination } = yield* signedTransfer("v1", 1_500_000n)
        const signature = yield* Effect.promise(() =>
          rpc.sendTransaction(getBase64EncodedWireTransaction(built.transaction), { encoding: "base64" }).send()
        )
        const { value: [status] } = yield* Effect.promise(() => rpc.getSignatureStatuses([signature]).send())
        assert.strictEqual(status?.confirmationStatus, "processed")
        assert.isNull(status?.err)
        yield* ledger.advance(1)
        const { value: [confirmed] } = yield* Effect.promise(() => rpc.getSignatureStatuses([signature]).send())
        assert.strictEqual(confirmed?.confirmationStatus, "confirmed")
        const balance = yield* Effect.promise(() => rpc.getBalance(destination).send())
        assert.strictEqual(balance.value, 1_500_000n)
        const transaction = yield* Effect.promise(() =>
          rpc.getTransaction(signature, { encoding: "base64", maxSupportedTransactionVersion: 1 }).send()
        )
        assert.strictEqual(transaction?.meta?.fee, 5_000n + 2_000n)
        assert.strictEqual(transaction?.transaction[0], built.base64)
        const payerIndex = 0
        assert.strictEqual(
          (transaction?.meta?.preBalances[payerIndex] ?? 0n) - (transaction?.meta?.postBalances[payerIndex] ?? 0n),
          1_500_000n + 7_000n
        )
        // a v1 transaction needs maxSupportedTransactionVersion, as on a real RPC
        const refused = yield* postJson({
          jsonrpc: "2.0",
          id: 1,
          method: "getTransaction",
          params: [signature, { encoding: "base64" }]
        })
        assert.strictEqual((refused as { error: { code: number } }).error.code, -32015)
      }))

    it.effect("sendTransaction accepts base58 (the default encoding)", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const { built, destination } = yield* signedTransfer("legacy", 2_000_000n)
        const reply = yield* postJson({ jsonrpc: "2.0", id: 7, method: "sendTransaction", params: [built.base58] })
        const signature = (reply as { result: string }).result
        const { value: [status] } = yield* Effect.promise(() =>
          rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send()
        )
        assert.isNotNull(status)
        assert.strictEqual((yield* Effect.promise(() => rpc.getBalance(destination).send())).value, 2_000_000n)
      }))

    it.effect("a failing transaction: Kit sees a preflight failure with the logs; simulate reports the same", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const { built } = yield* signedTransfer("v0", 50_000_000_000n)
        const wire = getBase64EncodedWireTransaction(built.transaction)
        const simulation = yield* Effect.promise(() => rpc.simulateTransaction(wire, { encoding: "base64" }).send())
        assert.deepStrictEqual(plain(simulation.value.err), { InstructionError: [3, { Custom: 1 }] })
        assert.isTrue(simulation.value.logs?.some((line) => line.includes("insufficient lamports")))
        const error = yield* Effect.promise(() =>
          rpc.sendTransaction(wire, { encoding: "base64" }).send().then(() => undefined, (e: unknown) => e)
        )
        assert.isTrue(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
        if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
          assert.isTrue(error.context.logs?.some((line) => line.includes("insufficient lamports")))
        }
      }))

    it.effect("accounts: getAccountInfo of a program and of nothing; rent; airdrop", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const program = yield* Effect.promise(() => rpc.getAccountInfo(TOKEN_PROGRAM, { encoding: "base64" }).send())
        assert.isTrue(program.value?.executable)
        const nobody = yield* Effect.promise(() => generateKeyPairSigner())
        const missing = yield* Effect.promise(() => rpc.getAccountInfo(nobody.address, { encoding: "base64" }).send())
        assert.isNull(missing.value)
        assert.strictEqual(yield* Effect.promise(() => rpc.getMinimumBalanceForRentExemption(0n).send()), 890_880n)
        yield* Effect.promise(() => rpc.requestAirdrop(nobody.address, lamports(1_000_000_000n)).send())
        const funded = yield* Effect.promise(() =>
          rpc.getMultipleAccounts([nobody.address, address(TOKEN_PROGRAM)], { encoding: "base64" }).send()
        )
        assert.strictEqual(funded.value[0]?.lamports, 1_000_000_000n)
      }))

    it.effect("JSON-RPC envelope: batches, unknown methods, bad params, parse errors", () =>
      Effect.gen(function*() {
        const batch = yield* postJson([
          { jsonrpc: "2.0", id: 1, method: "getHealth" },
          { jsonrpc: "2.0", id: 2, method: "noSuchMethod" },
          { jsonrpc: "2.0", id: 3, method: "getBalance", params: [42] }
        ])
        const [health, unknown, bad] = batch as ReadonlyArray<
          { jsonrpc: string; id: number; result?: unknown; error?: { code: number } }
        >
        assert.deepStrictEqual(health, { jsonrpc: "2.0", id: 1, result: "ok" })
        assert.strictEqual(unknown?.error?.code, -32601)
        assert.strictEqual(bad?.error?.code, -32602)
        const parse = yield* postJson("{not json")
        assert.strictEqual((parse as { error: { code: number } }).error.code, -32700)
      }))

    it.effect("invalid params: -32602 with HTTP 200 (never the API's 500 envelope), naming the parameter", () =>
      Effect.gen(function*() {
        const balance = yield* rpcError({ jsonrpc: "2.0", id: 1, method: "getBalance", params: ["not-an-address"] })
        assert.deepStrictEqual(balance, {
          jsonrpc: "2.0",
          id: 1,
          error: { code: -32602, message: "Invalid params: params[0] expected base58-encoded 32-byte public key" }
        })
        for (
          const [method, params] of [
            ["getAccountInfo", ["not-an-address"]],
            ["getMultipleAccounts", [["not-an-address"]]],
            ["requestAirdrop", ["not-an-address", 1]],
            ["getTransaction", ["not-a-signature"]],
            ["getSignatureStatuses", [["not-a-signature"]]],
            ["getBalance", { address: "x" }],
            ["getBalance", undefined],
            ["getAccountInfo", [TOKEN_PROGRAM, { encoding: "hex" }]],
            ["sendTransaction", ["0OIl"]]
          ] as const
        ) {
          const answer = yield* rpcError({ jsonrpc: "2.0", id: method, method, params })
          assert.strictEqual(answer.id, method)
          assert.strictEqual(answer.error.code, -32602, method)
          assert.match(answer.error.message, /^Invalid params: /)
        }
        const tooMany = yield* rpcError({
          jsonrpc: "2.0",
          id: 1,
          method: "getMultipleAccounts",
          params: [Array.from({ length: 101 }, () => TOKEN_PROGRAM)]
        })
        assert.deepStrictEqual(tooMany.error, { code: -32602, message: "Invalid params: at most 100 addresses" })
        // a huge value is neither echoed nor decoded
        const huge = "1".repeat(500_000)
        const long = yield* rpcError({ jsonrpc: "2.0", id: 1, method: "sendTransaction", params: [huge] })
        assert.deepStrictEqual(long.error, {
          code: -32602,
          message: "Invalid params: base58 transaction too large: 500000 characters (at most 5594)"
        })
        const echoed = yield* rpcError({ jsonrpc: "2.0", id: 1, method: "getBalance", params: [huge] })
        assert.strictEqual(echoed.error.code, -32602)
        assert.isBelow(echoed.error.message.length, 250)
      }))

    it.effect("parse errors: -32700 with id null and HTTP 200", () =>
      Effect.gen(function*() {
        const parseError = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }
        assert.deepStrictEqual(yield* rpcError("{not json"), parseError)
        assert.deepStrictEqual(yield* rpcError(""), parseError)
        assert.deepStrictEqual(yield* rpcError("{\"jsonrpc\":\"2.0\",\"id\":1,"), parseError)
      }))

    it.effect("invalid requests: -32600 with the request's id when it is a valid one", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [unknown, unknown, string]> = [
          [5, null, "Invalid request: expected a request object"],
          ["\"text\"", null, "Invalid request: expected a request object"],
          [null, null, "Invalid request: expected a request object"],
          [{ id: 1, method: "getSlot" }, 1, "Invalid request: jsonrpc is missing"],
          [{ jsonrpc: "1.0", id: 2, method: "getSlot" }, 2, "Invalid request: jsonrpc expected \"2.0\""],
          [{ jsonrpc: "2.0", id: "a", method: 5 }, "a", "Invalid request: method expected a string"],
          [{ jsonrpc: "2.0", id: 3 }, 3, "Invalid request: method is missing"],
          [
            { jsonrpc: "2.0", id: 4, method: "getSlot", params: "x" },
            4,
            "Invalid request: params expected an array or an object"
          ],
          [
            { jsonrpc: "2.0", id: { no: 1 }, method: "getSlot" },
            null,
            "Invalid request: id expected string | number | null"
          ],
          [[], null, "Invalid request: empty batch"]
        ]
        for (const [body, id, message] of cases) {
          assert.deepStrictEqual(yield* rpcError(body), { jsonrpc: "2.0", id, error: { code: -32600, message } })
        }
      }))

    it.effect("an unknown method: -32601 Method not found, without repeating the name", () =>
      Effect.gen(function*() {
        const method = `x${"y".repeat(10_000)}`
        assert.deepStrictEqual(yield* rpcError({ jsonrpc: "2.0", id: 9, method }), {
          jsonrpc: "2.0",
          id: 9,
          error: { code: -32601, message: "Method not found" }
        })
      }))

    it.effect("a batch: each entry is answered on its own, in order; bad entries do not fail good ones", () =>
      Effect.gen(function*() {
        const reply = yield* post([
          { jsonrpc: "2.0", id: 1, method: "getHealth" },
          { jsonrpc: "2.0", id: 2, method: "getBalance", params: ["not-an-address"] },
          42,
          { jsonrpc: "2.0", id: 4, method: "noSuchMethod" },
          { jsonrpc: "2.0", id: 5, method: "getBalance", params: [TOKEN_PROGRAM] },
          { jsonrpc: "2.0", id: 6, method: 6 }
        ])
        assert.strictEqual(reply.status, 200)
        const answers = reply.json as ReadonlyArray<{ id: unknown; result?: unknown; error?: { code: number } }>
        assert.deepStrictEqual(answers.map((answer) => answer.id), [1, 2, null, 4, 5, 6])
        assert.deepStrictEqual(answers.map((answer) => answer.error?.code), [
          undefined,
          -32602,
          -32600,
          -32601,
          undefined,
          -32600
        ])
        assert.strictEqual(answers[0]?.result, "ok")
        assert.isNumber((answers[4]?.result as { value: number }).value)
      }))

    it.effect(`a batch holds at most ${Rpc.maxBatchSize} requests; a larger one is a single -32600`, () =>
      Effect.gen(function*() {
        const batch = (size: number) =>
          Array.from({ length: size }, (_, id) => ({ jsonrpc: "2.0", id, method: "getHealth" }))
        const full = yield* postJson(batch(Rpc.maxBatchSize))
        assert.lengthOf(full as ReadonlyArray<unknown>, Rpc.maxBatchSize)
        assert.deepStrictEqual(yield* rpcError(batch(Rpc.maxBatchSize + 1)), {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: a batch holds at most 100 requests, got 101" }
        })
      }))

    it.effect("a body over the cap is a prompt 413 with a JSON-RPC error, before the client has sent it", () =>
      Effect.gen(function*() {
        const tooLarge = {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `Invalid request: the body is larger than ${Rpc.maxBodyBytes} bytes` }
        }
        // declared: 100 MB announced, 1 KiB sent, the rest never comes
        const declared = yield* unfinishedPost(
          { "content-type": "application/json", "content-length": String(100_000_000) },
          [new Uint8Array(1024).fill(0x20)]
        )
        assert.strictEqual(declared.status, 413)
        assert.strictEqual(declared.headers["connection"], "close")
        assert.deepStrictEqual(JSON.parse(declared.text), tooLarge)
        // undeclared (chunked): counted while reading, answered once past the cap
        const chunk = new Uint8Array(64 * 1024).fill(0x20)
        const counted = yield* unfinishedPost(
          { "content-type": "application/json", "transfer-encoding": "chunked" },
          Array.from({ length: (2 * Rpc.maxBodyBytes) / chunk.length }, () => chunk)
        )
        assert.strictEqual(counted.status, 413)
        assert.deepStrictEqual(JSON.parse(counted.text), tooLarge)
        // the server still answers
        assert.deepStrictEqual(yield* postJson({ jsonrpc: "2.0", id: 1, method: "getHealth" }), {
          jsonrpc: "2.0",
          id: 1,
          result: "ok"
        })
      }))

    it.effect("deep nesting is a clean JSON-RPC error, never a 500 or a RangeError", () =>
      Effect.gen(function*() {
        const batch = yield* post(nested(3000, ""))
        assert.strictEqual(batch.status, 200)
        assert.deepStrictEqual(batch.json, [{
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: expected a request object" }
        }])
        const params = yield* rpcError(
          `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":${nested(200_000, "")}}`
        )
        assert.deepStrictEqual(params.error, { code: -32602, message: "Invalid params: params[0] expected a string" })
        const id = yield* rpcError(`{"jsonrpc":"2.0","id":${nested(200_000, "1")},"method":"getHealth"}`)
        assert.deepStrictEqual(id, {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: id expected string | number | null" }
        })
        const config = yield* rpcError(
          `{"jsonrpc":"2.0","id":1,"method":"getAccountInfo","params":["${TOKEN_PROGRAM}",` +
            `{"encoding":${nested(200_000, "")}}]}`
        )
        assert.strictEqual(config.error.code, -32602)
      }))
  })
})
