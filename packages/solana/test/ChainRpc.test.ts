import { assert, describe, it } from "@effect/vitest"
import { WireTransaction as Wire } from "@feeshare/domain"
import { generateKeyPairSigner, type KeyPairSigner, lamports } from "@solana/kit"
import { Chunk, Duration, Effect, Fiber, Layer, Option, TestClock } from "effect"
import { LiteSVM } from "litesvm"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Chain from "../src/Chain.js"
import * as ChainRpc from "../src/ChainRpc.js"
import * as LocalSigner from "../src/LocalSigner.js"
import * as PlanExecutor from "../src/PlanExecutor.js"
import * as Signers from "../src/Signers.js"
import { signatureOf } from "./helpers/FakeChain.js"
import * as RpcServer from "./helpers/RpcServer.js"
import { buildLegacy, buildStage, plan as planOf, transfer } from "./helpers/StageBuilder.js"

const setup = Effect.gen(function*() {
  const svm = new LiteSVM()
  const [payer, dest] = yield* Effect.promise(() => Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]))
  svm.airdrop(payer.address, lamports(1_000_000_000n))
  const rpc = yield* RpcServer.make(svm)
  return { svm, payer, dest, rpc }
})

const signedTransfer = (svm: LiteSVM, payer: KeyPairSigner, to: string, amount: bigint, lastValidBlockHeight: bigint) =>
  Effect.promise(async (): Promise<Chain.Sendable> => {
    const text = await buildLegacy({
      feePayer: payer.address,
      signNow: [payer],
      instructions: [transfer(payer.address, to, amount)],
      blockhash: svm.latestBlockhash()
    })
    const bytes = Wire.toBytes(text, "base58")!
    return { bytes, signature: signatureOf(bytes), lastValidBlockHeight: Option.some(lastValidBlockHeight) }
  })

const chainAt = (url: string) => Layer.succeed(Chain.Chain, ChainRpc.make(url, { pollInterval: "10 millis" }))

describe("ChainRpc + Chain.sendAndConfirm over HTTP JSON-RPC", () => {
  it.live("sends with preflight, polls, and returns the slot once landed", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const tx = yield* signedTransfer(svm, payer, dest.address, 5_000_000n, 5_000n)
      const landed = yield* Chain.sendAndConfirm(tx, { commitment: "finalized", rebroadcastInterval: "10 seconds" })
        .pipe(
          Effect.provide(chainAt(rpc.url))
        )
      assert.strictEqual(landed.signature, tx.signature)
      assert.strictEqual(landed.slot, svm.getClock().slot)
      assert.strictEqual(svm.getBalance(dest.address), 5_000_000n)
      const sends = rpc.calls.filter((c) => c.method === "sendTransaction")
      assert.deepStrictEqual(sends, [{ method: "sendTransaction", skipPreflight: false }])
    }).pipe(Effect.scoped))

  it.live("a preflight failure surfaces the simulation's error and logs", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const tx = yield* signedTransfer(svm, payer, dest.address, 5_000_000_000n, 5_000n)
      const error = yield* Chain.sendAndConfirm(tx).pipe(Effect.provide(chainAt(rpc.url)), Effect.flip)
      assert.strictEqual(error._tag, "PreflightFailed")
      if (error._tag === "PreflightFailed") {
        assert.isAbove(error.logs.length, 0)
        assert.isTrue(error.logs.some((line) => line.includes("insufficient lamports")))
      }
    }).pipe(Effect.scoped))

  it.live("an on-chain failure (preflight skipped) is TransactionFailed with the decoded error and logs", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const tx = yield* signedTransfer(svm, payer, dest.address, 5_000_000_000n, 5_000n)
      const error = yield* Chain.sendAndConfirm(tx, { skipPreflight: true }).pipe(
        Effect.provide(chainAt(rpc.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "TransactionFailed")
      if (error._tag === "TransactionFailed") {
        assert.strictEqual(error.error, "InstructionError(0, Custom(1))")
        assert.isTrue(error.logs.some((line) => line.includes("insufficient lamports")))
      }
    }).pipe(Effect.scoped))

  it.live("a dropped transaction is rebroadcast until its block height passes, then BlockhashExpired", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      rpc.knobs.drop = true
      const lastValid = BigInt(rpc.height() + 20)
      const tx = yield* signedTransfer(svm, payer, dest.address, 1_000_000n, lastValid)
      const error = yield* Chain.sendAndConfirm(tx, { rebroadcastInterval: "30 millis" }).pipe(
        Effect.provide(chainAt(rpc.url)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "BlockhashExpired")
      if (error._tag === "BlockhashExpired") {
        assert.isAbove(Number(error.blockHeight), Number(lastValid))
        assert.strictEqual(error.lastValidBlockHeight, lastValid)
      }
      const sends = rpc.calls.filter((c) => c.method === "sendTransaction")
      assert.strictEqual(sends[0]!.skipPreflight, false)
      assert.isAbove(sends.length, 1, "rebroadcast at least once")
      assert.isTrue(sends.slice(1).every((c) => c.skipPreflight === true))
      assert.isNull(svm.getBalance(dest.address))
    }).pipe(Effect.scoped))

  it.live("an already expired transaction is never sent", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const tx = yield* signedTransfer(svm, payer, dest.address, 1_000_000n, 10n)
      const error = yield* Chain.sendAndConfirm(tx).pipe(Effect.provide(chainAt(rpc.url)), Effect.flip)
      assert.strictEqual(error._tag, "BlockhashExpired")
      assert.isFalse(rpc.calls.some((c) => c.method === "sendTransaction"))
    }).pipe(Effect.scoped))
})

/** A JSON-RPC endpoint that misbehaves: never answers, or answers 429 with a Retry-After. */
const hostileRpc = (mode: "stall" | "429") =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly hits: () => number; readonly server: Server }>((resume) => {
      let hits = 0
      const server = createServer((_request, response) => {
        hits++
        if (mode === "429") {
          response.writeHead(429, { "content-type": "application/json", "retry-after": "7" })
          response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: 429, message: "too many requests" }, id: 1 }))
        }
        // "stall": the connection stays open and nothing is written
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          hits: () => hits,
          server
        })))
    }),
    ({ server }) =>
      Effect.sync(() => {
        server.closeAllConnections()
        server.close()
      })
  )

describe("ChainRpc against hostile endpoints", () => {
  it.live("a node that never answers fails the call at its deadline, naming the endpoint", () =>
    Effect.gen(function*() {
      const stalling = yield* hostileRpc("stall")
      const error = yield* Effect.flip(ChainRpc.make(stalling.url, { timeout: "150 millis" }).blockHeight("confirmed"))
      assert.strictEqual(error._tag, "ChainUnavailable")
      assert.include(error.message, "no answer within")
      assert.strictEqual(error.endpoint, new URL(stalling.url).host)
    }).pipe(Effect.scoped))

  it.live("a 429 carries its Retry-After", () =>
    Effect.gen(function*() {
      const limited = yield* hostileRpc("429")
      const error = yield* Effect.flip(ChainRpc.make(limited.url).blockHeight("confirmed"))
      assert.strictEqual(error._tag, "ChainUnavailable")
      assert.strictEqual(error.retryAfterMillis, 7_000)
    }).pipe(Effect.scoped))

  it.effect("the confirmation loop waits the Retry-After a node asks for, and gives up on absurd ones", () =>
    Effect.gen(function*() {
      let calls = 0
      const answers = (retryAfterMillis: number) =>
        Layer.succeed(Chain.Chain, {
          send: () => Effect.succeed("sig"),
          signatureStatus: () => Effect.succeed(Option.none()),
          logs: () => Effect.succeed([]),
          pollInterval: Duration.millis(10),
          lastValidBlockHeight: () => Effect.succeed(151n),
          blockHeight: () =>
            Effect.suspend(() => {
              calls++
              return calls === 1
                ? Effect.fail(
                  new Chain.ChainUnavailable({ method: "getBlockHeight", message: "429", retryAfterMillis })
                )
                : Effect.succeed(1n)
            })
        })
      const tx: Chain.Sendable = { bytes: new Uint8Array(1), signature: "sig", lastValidBlockHeight: Option.some(100n) }
      const fiber = yield* Effect.fork(Chain.submit(tx).pipe(Effect.provide(answers(7_000))))
      // a real signal: the retry's 7 s sleep is registered on the TestClock
      while (!Chunk.some(yield* TestClock.sleeps(), (wake) => wake === 7_000)) yield* Effect.yieldNow()
      yield* TestClock.adjust("6 seconds")
      assert.strictEqual(calls, 1)
      yield* TestClock.adjust("1 second")
      assert.isFalse((yield* Fiber.join(fiber)).alreadyKnown)
      assert.strictEqual(calls, 2)

      calls = 0
      const error = yield* Effect.flip(Chain.submit(tx).pipe(Effect.provide(answers(3_600_000))))
      assert.strictEqual(error._tag, "ChainUnavailable")
      assert.strictEqual(calls, 1)
    }))

  it.live("several endpoints: reads skip a stalling one, sends go to every endpoint", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const stalling = yield* hostileRpc("stall")
      const chain = ChainRpc.make([stalling.url, rpc.url], { timeout: "150 millis", pollInterval: "10 millis" })
      assert.isTrue((yield* chain.blockHeight("confirmed")) > 0n)
      const tx = yield* signedTransfer(svm, payer, dest.address, 1_000_000n, 5_000n)
      const landed = yield* Chain.sendAndConfirm(tx, { rebroadcastInterval: "10 seconds" }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain))
      )
      assert.isTrue(landed.slot >= 0n)
      assert.isTrue(rpc.calls.some((c) => c.method === "sendTransaction"))
      assert.isAtLeast(stalling.hits(), 2, "the stalling endpoint was read once and sent to once")
    }).pipe(Effect.scoped))

  it.live("several endpoints: a plan's progress events name the endpoint that failed, and the plan lands", () =>
    Effect.gen(function*() {
      const { dest, payer, rpc, svm } = yield* setup
      const limited = yield* hostileRpc("429")
      const server = yield* Effect.promise(() => generateKeyPairSigner())
      svm.airdrop(server.address, lamports(1_000_000_000n))
      const stage = yield* Effect.promise(() =>
        buildStage({
          id: "claim",
          dependsOn: [],
          format: "v0",
          feePayer: server,
          instructions: [transfer(payer.address, dest.address, 1_000_000n)],
          lifetime: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 5_000n }
        })
      )
      const events: Array<PlanExecutor.Event> = []
      const chain = ChainRpc.make([limited.url, rpc.url], { pollInterval: "10 millis" })
      const result = yield* PlanExecutor.execute(planOf([stage]), {
        rebuild: () => Effect.dieMessage("no rebuild expected"),
        onEvent: (event) => Effect.sync(() => events.push(event))
      }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(payer)))
      )
      assert.strictEqual(result.stages.length, 1)
      const failed = events.filter((event) => event._tag === "EndpointFailed")
      assert.isAbove(failed.length, 0)
      const host = new URL(limited.url).host
      assert.isTrue(failed.every((event) => event.endpoint === host), "only the 429-ing endpoint is named")
      assert.isTrue(failed.some((event) => event.method === "sendTransaction"))
      assert.strictEqual(events.at(-1)?._tag, "Completed")
    }).pipe(Effect.scoped))
})
