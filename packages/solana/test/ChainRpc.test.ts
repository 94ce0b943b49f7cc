import { WireTransaction as Wire } from "@feeshare/domain"
import { assert, describe, it } from "@effect/vitest"
import { generateKeyPairSigner, type KeyPairSigner, lamports } from "@solana/kit"
import { Effect, Layer, Option } from "effect"
import { LiteSVM } from "litesvm"
import * as Chain from "../src/Chain.js"
import * as ChainRpc from "../src/ChainRpc.js"
import { signatureOf } from "./helpers/FakeChain.js"
import * as RpcServer from "./helpers/RpcServer.js"
import { buildLegacy, transfer } from "./helpers/StageBuilder.js"

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
      const landed = yield* Chain.sendAndConfirm(tx, { commitment: "finalized", rebroadcastInterval: "10 seconds" }).pipe(
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
