/**
 * The `Chain` port of @feeshare/solana over the ledger, and the plan executor running a
 * market claim plan through `setup_required`, the warm-up and the ready plan. These run on
 * the live clock with a fast block clock (20 ms slots): the ledger's slots and the
 * executor's polls interleave as they would against a real node.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Chain from "@feeshare/solana/Chain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { build } from "@feeshare/solana/StageBuilder"
import { type Address, generateKeyPairSigner, getSignatureFromTransaction } from "@solana/kit"
import { Effect, Layer, Option } from "effect"
import * as Programs from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as LedgerChain from "../src/LedgerChain.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import { signAndSend, tokenBalance } from "./support/ledgerWallet.js"

const SOL = 1_000_000_000n

const live = (overrides: Partial<Options.Options> = {}) => {
  const options = Options.make({ slotMillis: 20, seed: "ledger-chain", ...overrides })
  return Layer.mergeAll(MarketLive.layer(options), LedgerChain.layer(options)).pipe(
    Layer.provideMerge(Ledger.layer(options))
  )
}

const transfer = (lamports: bigint) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger.Ledger
    const payer = yield* Effect.promise(() => generateKeyPairSigner())
    const destination = yield* Effect.promise(() => generateKeyPairSigner())
    yield* ledger.airdrop(payer.address, 10n * SOL)
    const clock = yield* ledger.clock
    const built = yield* Effect.promise(() =>
      build({
        format: "v1",
        feePayer: payer.address,
        instructions: [Programs.transferSol(payer.address, destination.address, lamports)],
        lifetime: { blockhash: clock.blockhash, lastValidBlockHeight: clock.lastValidBlockHeight },
        signers: [payer],
        budget: { computeUnitLimit: 10_000, loadedAccountsDataSizeLimit: 65_536, priorityFee: 0n }
      })
    )
    const sendable: Chain.Sendable = {
      bytes: built.wire,
      signature: getSignatureFromTransaction(built.transaction),
      lastValidBlockHeight: Option.some(clock.lastValidBlockHeight)
    }
    return { sendable, destination: destination.address }
  })

describe("LedgerChain", () => {
  it.live("sendAndConfirm lands a transaction and waits for `confirmed` as the slots pass", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const { destination, sendable } = yield* transfer(1_000_000n)
      const landed = yield* Chain.sendAndConfirm(sendable, { commitment: "confirmed" })
      assert.strictEqual(landed.signature, sendable.signature)
      const [status] = yield* ledger.statuses([landed.signature], true)
      assert.strictEqual(status?.slot, landed.slot)
      assert.isTrue((yield* ledger.clock).slot > landed.slot, "confirmed means a later slot exists")
      assert.strictEqual(yield* ledger.balance(destination), 1_000_000n)
    }).pipe(Effect.provide(live())))

  it.live("a failing simulation is PreflightFailed with the logs", () =>
    Effect.gen(function*() {
      const { sendable } = yield* transfer(100n * SOL)
      const error = yield* Effect.flip(Chain.sendAndConfirm(sendable))
      assert.strictEqual(error._tag, "PreflightFailed")
      if (error._tag === "PreflightFailed") {
        assert.strictEqual(error.signature, sendable.signature)
        assert.isTrue(error.logs.some((line) => line.includes("insufficient lamports")))
      }
    }).pipe(Effect.provide(live())))

  it.live("a dropped transaction expires: BlockhashExpired once the block height passes", () =>
    Effect.gen(function*() {
      const { sendable } = yield* transfer(1_000_000n)
      const error = yield* Effect.flip(Chain.sendAndConfirm(sendable, { rebroadcastInterval: "20 millis" }))
      assert.strictEqual(error._tag, "BlockhashExpired")
    }).pipe(Effect.provide(live({ dropRate: 1, blockhashValidity: 5 }))))

  it.live("the plan executor claims through setup_required, the warm-up and the ready plan", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const creator = yield* Effect.promise(() => generateKeyPairSigner())
      yield* ledger.airdrop(creator.address, 100n * SOL)
      const created = yield* market.createToken({ creator: creator.address })
      const launch = yield* market.launch({
        ipfs: "ipfs://executor",
        tokenMint: created.mint,
        wallet: creator.address,
        configKey: created.configKey,
        initialBuyLamports: Number(2n * SOL)
      })
      yield* signAndSend(launch, "base58", [creator])
      const owed = BigInt((yield* market.positions(creator.address))[0]?.totalClaimableLamportsUserShare ?? 0)
      assert.isTrue(owed > 0n)

      const request = { feeClaimer: creator.address, tokenMint: created.mint, transactionFormat: "v0" as const }
      const first = yield* market.createPlan(request)
      assert.strictEqual(first.readiness.status, "setup_required")
      const events: Array<string> = []
      const result = yield* PlanExecutor.execute(first, {
        rebuild: () => market.createPlan(request),
        warmupInterval: "20 millis",
        rebroadcastInterval: "40 millis",
        onEvent: (event) => Effect.sync(() => void events.push(event._tag))
      }).pipe(Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(creator))))

      assert.deepStrictEqual(result.stages.map((s) => s.id), [
        "lookup-table-create",
        "lookup-table-extend",
        "payout-account",
        "claim"
      ])
      assert.isTrue(events.includes("Rebuilt"))
      const ata = yield* Effect.promise(() =>
        Programs.associatedTokenAddress(creator.address as Address, Programs.NATIVE_MINT)
      )
      assert.strictEqual(yield* tokenBalance(ata), owed)
      assert.deepStrictEqual(yield* market.positions(creator.address), [])
    }).pipe(Effect.provide(live())))
})
