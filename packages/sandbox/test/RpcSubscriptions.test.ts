import { assert, describe, it } from "@effect/vitest"
import {
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED
} from "@solana/kit"
import { Effect, Fiber, Queue, type Scope } from "effect"
import { WebSocket } from "ws"
import { transferSol } from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as RpcSubscriptions from "../src/RpcSubscriptions.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import * as Fake from "./support/FakeMarket.js"

/** The sandbox over a ledger whose clock moves only by `advance`. */
const TestServer = Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer)

const kit = Effect.map(Server.SandboxInfo, (info) => ({
  rpc: createSolanaRpc(info.rpcUrl),
  rpcSubscriptions: createSolanaRpcSubscriptions(info.rpcSubscriptionsUrl)
}))

const waitFor = (predicate: (stats: RpcSubscriptions.Stats) => boolean) =>
  Effect.flatMap(RpcSubscriptions.RpcSubscriptions, (service) => service.waitFor(predicate))

const stats = Effect.flatMap(RpcSubscriptions.RpcSubscriptions, (service) => service.stats)

const idle = waitFor((stats) => stats.connections === 0 && stats.subscriptions === 0)

/** A transfer built and signed with Kit, on the latest blockhash, from a funded payer. */
const signedTransfer = (amount: bigint) =>
  Effect.gen(function*() {
    const { rpc } = yield* kit
    const payer = yield* Effect.promise(() => generateKeyPairSigner())
    const destination = yield* Effect.promise(() => generateKeyPairSigner())
    yield* Effect.promise(() => rpc.requestAirdrop(payer.address, lamports(1_000_000_000n)).send())
    const { value: blockhash } = yield* Effect.promise(() => rpc.getLatestBlockhash().send())
    const transaction = yield* Effect.promise(() =>
      signTransactionMessageWithSigners(pipe(
        createTransactionMessage({ version: 0 }),
        (message) => setTransactionMessageFeePayerSigner(payer, message),
        (message) => setTransactionMessageLifetimeUsingBlockhash(blockhash, message),
        (message) =>
          appendTransactionMessageInstruction(transferSol(payer.address, destination.address, amount), message)
      ))
    )
    assertIsTransactionWithBlockhashLifetime(transaction)
    return { transaction, destination: destination.address, lastValidBlockHeight: blockhash.lastValidBlockHeight }
  })

interface Client {
  readonly send: (message: unknown) => Effect.Effect<void>
  readonly sendText: (text: string) => Effect.Effect<void>
  /** The next message, parsed. */
  readonly next: Effect.Effect<unknown>
  /** The close code, once the server closed the connection. */
  readonly closed: Effect.Effect<number>
  readonly close: Effect.Effect<void>
}

/** A plain WebSocket client of the sandbox's subscriptions, closed with the scope. */
const connect: Effect.Effect<Client, never, Server.SandboxInfo | Scope.Scope> = Effect.gen(function*() {
  const info = yield* Server.SandboxInfo
  const messages = yield* Queue.unbounded<unknown>()
  const closes = yield* Queue.unbounded<number>()
  const socket = yield* Effect.acquireRelease(
    Effect.async<WebSocket>((resume) => {
      const socket = new WebSocket(info.rpcSubscriptionsUrl)
      socket.on("message", (data) => Queue.unsafeOffer(messages, JSON.parse(String(data))))
      socket.on("close", (code) => Queue.unsafeOffer(closes, code))
      socket.on("error", (error) => resume(Effect.die(error)))
      socket.on("open", () => resume(Effect.succeed(socket)))
    }),
    (socket) => Effect.sync(() => socket.terminate())
  )
  const sendText = (text: string) =>
    Effect.async<void>((resume) => socket.send(text, (error) => resume(error ? Effect.die(error) : Effect.void)))
  return {
    send: (message) => sendText(JSON.stringify(message)),
    sendText,
    next: Queue.take(messages),
    closed: Queue.take(closes),
    close: Effect.sync(() => socket.close())
  }
})

/** Sends a request and answers its reply. */
const call = (client: Client, id: number, method: string, params?: unknown) =>
  Effect.zipRight(
    client.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }),
    client.next
  )

const subscriptionId = (reply: unknown): number => {
  const result = (reply as { result?: unknown }).result
  assert.isNumber(result)
  return result as number
}

describe("RpcSubscriptions", () => {
  it.scoped("Kit's sendAndConfirmTransactionFactory rejects with its block-height-exceeded error: a blockhash already expired", () =>
    Effect.gen(function*() {
      const { rpc, rpcSubscriptions } = yield* kit
      const ledger = yield* Ledger.Ledger
      const { transaction, lastValidBlockHeight } = yield* signedTransfer(1_000_000n)
      const clock = yield* ledger.clock
      yield* ledger.advance(Number(lastValidBlockHeight - clock.blockHeight) + 1)
      const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
      // without preflight the ledger takes it, and it never lands
      const error = yield* Effect.promise(() =>
        sendAndConfirm(transaction, { commitment: "confirmed", skipPreflight: true }).then(
          () => undefined,
          (e: unknown) => e
        )
      )
      assert.isTrue(isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED), String(error))
      if (isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED)) {
        assert.strictEqual(error.context.lastValidBlockHeight, lastValidBlockHeight)
        assert.strictEqual(error.context.currentBlockHeight, lastValidBlockHeight + 1n)
      }
      // Kit's subscriptions end when it gives up
      assert.deepStrictEqual(yield* idle, { connections: 0, subscriptions: 0 })
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0, blockhashValidity: 5 }, Fake.layer))))

  it.scopedLive("Kit's sendAndConfirmTransactionFactory rejects with its block-height-exceeded error: dropped, then the slots pass", () =>
    Effect.gen(function*() {
      const { rpc, rpcSubscriptions } = yield* kit
      const { transaction, lastValidBlockHeight } = yield* signedTransfer(1_000_000n)
      const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
      // accepted (preflight passes) and dropped; the clock runs, and Kit follows it by slotNotification
      const error = yield* Effect.promise(() =>
        sendAndConfirm(transaction, { commitment: "confirmed" }).then(() => undefined, (e: unknown) => e)
      )
      assert.isTrue(isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED), String(error))
      if (isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED)) {
        assert.strictEqual(error.context.lastValidBlockHeight, lastValidBlockHeight)
        assert.isAbove(Number(error.context.currentBlockHeight), Number(lastValidBlockHeight))
      }
      assert.deepStrictEqual(yield* idle, { connections: 0, subscriptions: 0 })
    }).pipe(
      Effect.provide(Sandbox.layerWithMarket({ slotMillis: 10, blockhashValidity: 30, dropRate: 1 }, Fake.layer))
    ))

  it.scoped("stopping the sandbox drops its WebSocket connections instead of waiting for them", () =>
    Effect.gen(function*() {
      // the client belongs to the test's scope, which outlives the sandbox
      const client = yield* Effect.gen(function*() {
        const client = yield* connect
        subscriptionId(yield* call(client, 1, "slotSubscribe"))
        return client
      }).pipe(Effect.provide(Sandbox.layerWithMarket({ slotMillis: 0 }, Fake.layer)))
      assert.strictEqual(yield* client.closed, 1006)
    }))

  it.layer(TestServer)((it) => {
    it.scoped("Kit's sendAndConfirmTransactionFactory confirms a transfer signed with Kit", () =>
      Effect.gen(function*() {
        const { rpc, rpcSubscriptions } = yield* kit
        const ledger = yield* Ledger.Ledger
        const { transaction, destination } = yield* signedTransfer(1_250_000n)
        const landed = yield* Effect.makeLatch(false)
        yield* ledger.watch({ landed: () => landed.open })
        const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
        const confirming = yield* Effect.fork(
          Effect.promise(() =>
            sendAndConfirm(transaction, { commitment: "confirmed" }).then(() => "confirmed", (e: unknown) => e)
          )
        )
        // processed on landing; confirmed one slot later
        yield* landed.await
        yield* ledger.advance(1)
        assert.strictEqual(yield* Fiber.join(confirming), "confirmed")
        assert.strictEqual(yield* ledger.balance(destination), 1_250_000n)
        const [status] = yield* ledger.statuses([getSignatureFromTransaction(transaction)], false)
        assert.strictEqual(status?.confirmationStatus, "confirmed")
      }))

    it.scoped("signatureSubscribe: received, then the notification at the commitment; the subscription ends", () =>
      Effect.gen(function*() {
        const { rpc } = yield* kit
        const ledger = yield* Ledger.Ledger
        const client = yield* connect
        const { transaction } = yield* signedTransfer(1_000_000n)
        const signature = getSignatureFromTransaction(transaction)
        const id = subscriptionId(
          yield* call(client, 1, "signatureSubscribe", [signature, {
            commitment: "confirmed",
            enableReceivedNotification: true
          }])
        )
        const unrelated = subscriptionId(yield* call(client, 2, "signatureSubscribe", ["1".repeat(64)]))
        yield* Effect.promise(() =>
          rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64" }).send()
        )
        const landedAt = (yield* ledger.clock).slot
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          method: "signatureNotification",
          params: { result: { context: { slot: Number(landedAt) }, value: "receivedSignature" }, subscription: id }
        })
        // confirmed comes with the next slot
        yield* ledger.advance(1)
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          method: "signatureNotification",
          params: { result: { context: { slot: Number(landedAt) }, value: { err: null } }, subscription: id }
        })
        // notified once, then gone, as on Solana
        assert.deepStrictEqual(yield* call(client, 3, "signatureUnsubscribe", [id]), {
          jsonrpc: "2.0",
          id: 3,
          error: { code: -32602, message: "Invalid subscription id." }
        })
        // already there at subscribe time: notified right after the id
        const late = subscriptionId(
          yield* call(client, 4, "signatureSubscribe", [signature, { commitment: "processed" }])
        )
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          method: "signatureNotification",
          params: { result: { context: { slot: Number(landedAt) }, value: { err: null } }, subscription: late }
        })
        // finalized (the default) waits 32 slots
        const final = subscriptionId(yield* call(client, 5, "signatureSubscribe", [signature]))
        yield* ledger.advance(30)
        assert.deepStrictEqual(yield* call(client, 6, "slotSubscribe", []), {
          jsonrpc: "2.0",
          id: 6,
          result: final + 1
        })
        yield* ledger.advance(1)
        const slot = Number((yield* ledger.clock).slot)
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          method: "slotNotification",
          params: { result: { parent: slot - 1, root: slot - 32, slot }, subscription: final + 1 }
        })
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          method: "signatureNotification",
          params: { result: { context: { slot: Number(landedAt) }, value: { err: null } }, subscription: final }
        })
        assert.deepStrictEqual(yield* call(client, 7, "signatureUnsubscribe", [unrelated]), {
          jsonrpc: "2.0",
          id: 7,
          result: true
        })
        assert.deepStrictEqual(yield* call(client, 8, "slotUnsubscribe", [final + 1]), {
          jsonrpc: "2.0",
          id: 8,
          result: true
        })
      }))

    it.scoped("slotSubscribe: one notification per new slot, in order, until slotUnsubscribe", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger.Ledger
        const client = yield* connect
        const id = subscriptionId(yield* call(client, 1, "slotSubscribe"))
        const start = Number((yield* ledger.clock).slot)
        yield* ledger.advance(3)
        for (const slot of [start + 1, start + 2, start + 3]) {
          assert.deepStrictEqual(yield* client.next, {
            jsonrpc: "2.0",
            method: "slotNotification",
            params: { result: { parent: slot - 1, root: slot - 32, slot }, subscription: id }
          })
        }
        assert.deepStrictEqual(yield* call(client, 2, "slotUnsubscribe", [id]), { jsonrpc: "2.0", id: 2, result: true })
        yield* ledger.advance(1)
        // nothing more for the ended subscription: the next message is the next reply
        assert.deepStrictEqual(yield* call(client, 3, "slotUnsubscribe", [id]), {
          jsonrpc: "2.0",
          id: 3,
          error: { code: -32602, message: "Invalid subscription id." }
        })
      }))

    it.scoped("bad messages are JSON-RPC errors; notifications (no id) are not answered", () =>
      Effect.gen(function*() {
        const client = yield* connect
        yield* client.sendText("{not json")
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: "Parse error" }
        })
        assert.deepStrictEqual(yield* call(client, 1, "getBalance", ["11111111111111111111111111111111"]), {
          jsonrpc: "2.0",
          id: 1,
          error: { code: -32601, message: "Method not found" }
        })
        assert.deepStrictEqual(yield* call(client, 2, "signatureSubscribe", ["not-a-signature"]), {
          jsonrpc: "2.0",
          id: 2,
          error: { code: -32602, message: "Invalid params: params[0] expected a base58 signature of 64 bytes" }
        })
        assert.deepStrictEqual(
          yield* call(client, 3, "signatureSubscribe", ["1".repeat(64), { commitment: "max" }]),
          {
            jsonrpc: "2.0",
            id: 3,
            error: {
              code: -32602,
              message: "Invalid params: params[1].commitment expected \"processed\" | \"confirmed\" | \"finalized\""
            }
          }
        )
        assert.deepStrictEqual(yield* call(client, 4, "slotUnsubscribe", [123456]), {
          jsonrpc: "2.0",
          id: 4,
          error: { code: -32602, message: "Invalid subscription id." }
        })
        assert.deepStrictEqual(yield* call(client, 5, "slotUnsubscribe", ["x"]), {
          jsonrpc: "2.0",
          id: 5,
          error: { code: -32602, message: "Invalid params: params[0] expected a subscription id" }
        })
        yield* client.send({ id: 6, method: "slotSubscribe" })
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          id: 6,
          error: { code: -32600, message: "Invalid request: jsonrpc is missing" }
        })
        // Kit's keep-alive, and any request without an id, get no answer and do nothing
        yield* client.send({ jsonrpc: "2.0", method: "ping" })
        yield* client.send({ jsonrpc: "2.0", method: "slotSubscribe" })
        yield* client.send([
          { jsonrpc: "2.0", id: 7, method: "getHealth" },
          { jsonrpc: "2.0", method: "slotSubscribe" },
          42
        ])
        assert.deepStrictEqual(yield* client.next, [
          { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } },
          { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: expected a request object" } }
        ])
        yield* client.send([])
        assert.deepStrictEqual(yield* client.next, {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: empty batch" }
        })
        assert.deepStrictEqual(yield* stats, { connections: 1, subscriptions: 0 })
      }))

    it.scoped(`a connection holds at most ${RpcSubscriptions.maxSubscriptionsPerConnection} subscriptions; closing it ends them all`, () =>
      Effect.gen(function*() {
        yield* idle
        const client = yield* connect
        const batches = RpcSubscriptions.maxSubscriptionsPerConnection / 100
        for (let batch = 0; batch < batches; batch++) {
          yield* client.send(Array.from({ length: 100 }, (_, i) => ({
            jsonrpc: "2.0",
            id: batch * 100 + i,
            method: i % 2 === 0 ? "slotSubscribe" : "signatureSubscribe",
            params: i % 2 === 0 ? [] : ["1".repeat(64), { commitment: "confirmed" }]
          })))
          const replies = (yield* client.next) as ReadonlyArray<{ result?: unknown }>
          assert.isTrue(replies.every((reply) => typeof reply.result === "number"))
        }
        assert.deepStrictEqual(yield* call(client, 1, "slotSubscribe"), {
          jsonrpc: "2.0",
          id: 1,
          error: {
            code: -32603,
            message:
              `Subscription refused: a connection holds at most ${RpcSubscriptions.maxSubscriptionsPerConnection} subscriptions`
          }
        })
        assert.deepStrictEqual(yield* stats, {
          connections: 1,
          subscriptions: RpcSubscriptions.maxSubscriptionsPerConnection
        })
        yield* client.close
        yield* client.closed
        assert.deepStrictEqual(yield* idle, { connections: 0, subscriptions: 0 })
      }))

    it.scoped(`a message over ${RpcSubscriptions.maxMessageBytes} bytes closes the connection (1009)`, () =>
      Effect.gen(function*() {
        const client = yield* connect
        yield* call(client, 1, "slotSubscribe")
        yield* client.sendText(JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "slotSubscribe",
          params: ["x".repeat(RpcSubscriptions.maxMessageBytes)]
        }))
        assert.strictEqual(yield* client.closed, 1009)
        yield* idle
      }))

    it.scoped(`at most ${RpcSubscriptions.maxConnections} connections; the next upgrade is a 503`, () =>
      Effect.gen(function*() {
        yield* idle
        const info = yield* Server.SandboxInfo
        yield* Effect.forEach(Array.from({ length: RpcSubscriptions.maxConnections }), () => connect, {
          concurrency: 10
        })
        const refused = yield* Effect.async<{ readonly status: number; readonly body: string }>((resume) => {
          const socket = new WebSocket(info.rpcSubscriptionsUrl)
          socket.on("unexpected-response", (_request, response) => {
            let body = ""
            response.setEncoding("utf8")
            response.on("data", (chunk: string) => {
              body += chunk
            })
            response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
          })
          socket.on("error", () => undefined)
          socket.on("open", () => resume(Effect.die(new Error("connected past the bound"))))
          return Effect.sync(() => socket.terminate())
        })
        assert.strictEqual(refused.status, 503)
        assert.deepStrictEqual(JSON.parse(refused.body), {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32603,
            message: `Connection refused: at most ${RpcSubscriptions.maxConnections} WebSocket connections at a time`
          }
        })
        assert.deepStrictEqual(yield* stats, { connections: RpcSubscriptions.maxConnections, subscriptions: 0 })
      }))

    it.effect("HTTP /rpc is unchanged next to the upgrades; the subscriptions URL is ws://HOST:PORT/rpc", () =>
      Effect.gen(function*() {
        const info = yield* Server.SandboxInfo
        assert.strictEqual(info.rpcSubscriptionsUrl, `${info.rootUrl.replace(/^http/, "ws")}/rpc`)
        const { rpc } = yield* kit
        assert.strictEqual(yield* Effect.promise(() => rpc.getHealth().send()), "ok")
      }))
  })
})
