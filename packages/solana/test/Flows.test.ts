import { assert, describe, it } from "@effect/vitest"
import { type Address, generateKeyPairSigner, type KeyPairSigner, lamports } from "@solana/kit"
import { Effect, Layer } from "effect"
import { LiteSVM } from "litesvm"
import * as Chain from "../src/Chain.js"
import * as Flows from "../src/Flows.js"
import * as LocalSigner from "../src/LocalSigner.js"
import * as Signers from "../src/Signers.js"
import * as LiteSvmChain from "./helpers/LiteSvmChain.js"
import { buildLegacy, randomBlockhash, transfer } from "./helpers/StageBuilder.js"

interface World {
  readonly svm: LiteSVM
  readonly wallet: KeyPairSigner
  readonly to: ReadonlyArray<Address>
  readonly chain: LiteSvmChain.LiteSvmChain
}

const world = Effect.promise(async (): Promise<World> => {
  const svm = new LiteSVM()
  const wallet = await generateKeyPairSigner()
  svm.airdrop(wallet.address, lamports(10_000_000_000n))
  const to: Array<Address> = []
  for (let i = 0; i < 4; i++) to.push((await generateKeyPairSigner()).address)
  return { svm, wallet, to, chain: LiteSvmChain.make(svm) }
})

const provide = (w: World) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Layer.succeed(Chain.Chain, w.chain.service)),
    Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(w.wallet)))
  )

const entry = (w: World, to: Address, amount: bigint, blockhash = w.svm.latestBlockhash()) =>
  Effect.promise(async () => ({
    blockhash: { blockhash, lastValidBlockHeight: 10_000 },
    transaction: await buildLegacy({
      feePayer: w.wallet.address,
      signNow: [],
      instructions: [transfer(w.wallet.address, to, amount)],
      blockhash
    })
  }))

describe("Flows on LiteSVM", () => {
  it.effect("fee-share update: entries land in order, each after the previous", () =>
    Effect.gen(function*() {
      const w = yield* world
      const entries = {
        transactions: [
          yield* entry(w, w.to[0]!, 1_000_000n),
          yield* entry(w, w.to[1]!, 2_000_000n),
          yield* entry(w, w.to[2]!, 3_000_000n)
        ]
      }
      const landed = yield* Flows.feeShareUpdate(entries).pipe(provide(w))
      assert.strictEqual(landed.length, 3)
      assert.isTrue(landed[0]!.slot < landed[1]!.slot && landed[1]!.slot < landed[2]!.slot)
      assert.deepStrictEqual(w.chain.sends.map((s) => s.signature), landed.map((l) => l.signature))
      assert.strictEqual(w.svm.getBalance(w.to[2]!), 3_000_000n)
    }))

  it.effect("partner claim: the last entry lands after all the others", () =>
    Effect.gen(function*() {
      const w = yield* world
      const entries = {
        transactions: [
          yield* entry(w, w.to[0]!, 1_000_000n),
          yield* entry(w, w.to[1]!, 1_000_000n),
          yield* entry(w, w.to[3]!, 9_000_000n)
        ]
      }
      const landed = yield* Flows.partnerClaim(entries).pipe(provide(w))
      const last = landed[2]!
      assert.isTrue(landed.slice(0, 2).every((l) => l.slot < last.slot))
      assert.strictEqual(w.chain.sends[w.chain.sends.length - 1]!.signature, last.signature)
      assert.strictEqual(w.svm.getBalance(w.to[3]!), 9_000_000n)
    }))

  it.effect("a refused entry stops the flow before anything is signed or sent", () =>
    Effect.gen(function*() {
      const w = yield* world
      const good = yield* entry(w, w.to[0]!, 1_000_000n)
      const stale = {
        ...(yield* entry(w, w.to[1]!, 1_000_000n)),
        blockhash: { blockhash: randomBlockhash(), lastValidBlockHeight: 10_000 }
      }
      const error = yield* Flows.feeShareUpdate({ transactions: [good, stale] }).pipe(provide(w), Effect.flip)
      assert.strictEqual(error._tag, "LifetimeMismatch")
      assert.strictEqual(w.chain.sends.length, 0)
    }))

  it.effect("launch (co-signed after the mint) and swap land", () =>
    Effect.gen(function*() {
      const w = yield* world
      const mint = yield* Effect.promise(() => generateKeyPairSigner())
      const launchTx = yield* Effect.promise(() =>
        buildLegacy({
          feePayer: w.wallet.address,
          signNow: [mint],
          instructions: [
            transfer(w.wallet.address, w.to[0]!, 4_000_000n),
            transfer(mint.address, w.wallet.address, 0n)
          ],
          blockhash: w.svm.latestBlockhash()
        })
      )
      const launched = yield* Flows.launch(launchTx, { mint: mint.address }).pipe(provide(w))
      assert.strictEqual(w.svm.getBalance(w.to[0]!), 4_000_000n)
      const swapTx = yield* Effect.promise(() =>
        buildLegacy({
          feePayer: w.wallet.address,
          signNow: [],
          instructions: [transfer(w.wallet.address, w.to[1]!, 6_000_000n)],
          blockhash: w.svm.latestBlockhash(),
          computeUnitLimit: 50_000
        })
      )
      const swapped = yield* Flows.swap({
        swapTransaction: swapTx,
        computeUnitLimit: 50_000,
        lastValidBlockHeight: 10_000,
        prioritizationFeeLamports: 0
      }).pipe(provide(w))
      assert.isTrue(swapped.slot > launched.slot)
      assert.strictEqual(w.svm.getBalance(w.to[1]!), 6_000_000n)
    }))
})
