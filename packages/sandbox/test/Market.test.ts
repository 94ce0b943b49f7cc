import { assert, describe, it } from "@effect/vitest"
import { BasisPoints, type Plan } from "@feeshare/domain"
import * as LookupTable from "@feeshare/solana/LookupTable"
import {
  type Address,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type KeyPairSigner
} from "@solana/kit"
import { Effect, Either, Exit, Option } from "effect"
import * as Programs from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import {
  assertLanded,
  rejection,
  signAndSend,
  SOL,
  tokenBalance,
  verifyStage,
  wallet,
  wireBytes
} from "./support/ledgerWallet.js"

const TestMarket = (overrides: Partial<Options.Options> = {}) =>
  MarketLive.layerWithLedger(Options.make({ slotMillis: 0, seed: "market-test", ...overrides }))

/** A launched token with a 3-way fee share (creator 50%, b 30%, c 20%) and a partner. */
const launchedToken = Effect.gen(function*() {
  const market = yield* Market
  const creator = yield* wallet()
  const b = yield* wallet(SOL)
  const c = yield* wallet(SOL)
  const partner = yield* wallet(SOL)
  const tip = yield* wallet(0n)
  const created = yield* market.createToken({ creator: creator.address, symbol: "E2E" })
  const config = yield* market.createFeeShareConfig({
    mint: created.mint,
    admin: creator.address,
    partner: partner.address,
    claimers: [
      { wallet: creator.address, bps: 5_000 },
      { wallet: b.address, bps: 3_000 },
      { wallet: c.address, bps: 2_000 }
    ]
  })
  assert.strictEqual(config.claimers.length, 3)
  const launch = yield* market.launch({
    ipfs: "ipfs://sandbox-e2e",
    tokenMint: created.mint,
    wallet: creator.address,
    configKey: created.configKey,
    initialBuyLamports: Number(SOL),
    tipWallet: tip.address,
    tipLamports: 10_000_000
  })
  const before = yield* market.state
  assert.isFalse(before.tokens[0]?.launched, "nothing changes before the launch lands")
  yield* assertLanded(yield* signAndSend(launch, "base58", [creator]))
  const ledger = yield* Ledger.Ledger
  assert.strictEqual(yield* ledger.balance(tip.address), 10_000_000n)
  const creatorAta = yield* Effect.promise(() =>
    Programs.associatedTokenAddress(creator.address, created.mint as Address)
  )
  assert.isTrue((yield* tokenBalance(creatorAta)) > 0n, "the initial buy delivered tokens")
  return { market, created, creator, b, c, partner }
})

/** Quote and swap, signed by the trader and landed. Returns the fee of the trade. */
const trade = (trader: KeyPairSigner, inputMint: string, outputMint: string, amount: bigint) =>
  Effect.gen(function*() {
    const market = yield* Market
    const quote = yield* market.quote({ inputMint, outputMint, amount })
    const swap = yield* market.swap({ quoteResponse: quote, userPublicKey: trader.address })
    yield* assertLanded(yield* signAndSend(swap.swapTransaction, "base58", [trader]))
    return { quote, fee: quote.platformFee?.amount ?? 0n }
  })

/** What each claimer is owed for `fees`: the partner's 20% first, then 50/30/20. */
const owed = (fees: ReadonlyArray<bigint>) => {
  const out = [0n, 0n, 0n]
  let partner = 0n
  for (const fee of fees) {
    const share = (fee * BigInt(MarketLive.economics.partnerFeeBps)) / 10_000n
    partner += share
    BasisPoints.split(fee - share, [5_000, 3_000, 2_000]).forEach((part, i) => (out[i] = (out[i] ?? 0n) + part))
  }
  return { claimers: out, partner }
}

const landAll = (stages: ReadonlyArray<Plan.Stage>, signer: KeyPairSigner) =>
  Effect.forEach(stages, (stage) =>
    Effect.gen(function*() {
      yield* verifyStage(stage)
      yield* assertLanded(yield* signAndSend(stage.transaction, "base64", [signer]))
    }), { discard: true })

describe("Market", () => {
  it.effect("end to end: launch → swaps → v0 claim through setup_required → landed, and the books agree with the ledger", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const { b, c, created, creator, market, partner } = yield* launchedToken
      const trader = yield* wallet()
      const launchFee = yield* market.lifetimeFees(created.mint)
      assert.strictEqual(launchFee, (SOL * 100n) / 10_000n, "the initial buy paid the 1% fee")

      const buy = yield* trade(trader, Programs.NATIVE_MINT, created.mint, 2n * SOL)
      const traderAta = yield* Effect.promise(() =>
        Programs.associatedTokenAddress(trader.address, created.mint as Address)
      )
      const tokens = yield* tokenBalance(traderAta)
      assert.strictEqual(tokens, buy.quote.outAmount)
      const sell = yield* trade(trader, created.mint, Programs.NATIVE_MINT, tokens / 2n)
      const fees = [launchFee, buy.fee, sell.fee]
      const expected = owed(fees)
      assert.strictEqual(yield* market.lifetimeFees(created.mint), launchFee + buy.fee + sell.fee)

      // the pool authority holds rent + the SOL reserve + the unpaid fees, exactly
      const snapshot = (yield* market.state).tokens[0] as Record<string, unknown>
      assert.strictEqual(
        yield* ledger.balance(String(snapshot["poolAuthority"])),
        ledger.minimumBalance(0) + BigInt(String(snapshot["solReserve"])) + BigInt(String(snapshot["unpaidFees"]))
      )

      const [position] = yield* market.positions(b.address)
      assert.strictEqual(position?.baseMint, created.mint)
      assert.strictEqual(BigInt(position?.totalClaimableLamportsUserShare ?? 0), expected.claimers[1])
      assert.strictEqual(position?.userBps, 3_000)

      // v0 without a lookup table: setup_required with create → extend
      const request = { feeClaimer: b.address, tokenMint: created.mint, transactionFormat: "v0" as const }
      const setup = yield* market.createPlan(request)
      assert.strictEqual(setup.readiness.status, "setup_required")
      assert.deepStrictEqual(setup.transactions.map((s) => [s.id, s.kind, s.dependsOn]), [
        ["lookup-table-create", "lookup_table_setup", []],
        ["lookup-table-extend", "lookup_table_setup", ["lookup-table-create"]]
      ])
      yield* landAll(setup.transactions, b)

      // landed in this slot: the table warms up until the next one
      const warming = yield* market.createPlan(request)
      assert.strictEqual(warming.readiness.status, "setup_required")
      assert.deepStrictEqual(warming.transactions, [])
      yield* ledger.advance(1)

      const plan = yield* market.createPlan(request)
      assert.strictEqual(plan.readiness.status, "ready")
      assert.strictEqual(plan.contractVersion, 1)
      assert.deepStrictEqual(plan.operation, { kind: "position_claim", baseMint: created.mint, wallet: b.address })
      assert.deepStrictEqual(plan.transactions.map((s) => [s.id, s.kind, s.dependsOn, s.format]), [
        ["payout-account", "config", [], "v0"],
        ["claim", "claim", ["payout-account"], "v0"]
      ])
      const claimStage = plan.transactions[1] as Plan.Stage
      const verified = yield* verifyStage(claimStage)
      assert.strictEqual(verified.signers.length, 2, "the claimer and the sandbox's vault authority")
      assert.deepStrictEqual(verified.present, [verified.signers[1]], "pre-signed by the vault authority only")
      assert.isTrue(verified.compiled.version === 0 && (verified.compiled.addressTableLookups?.length ?? 0) > 0)

      const ata = yield* Effect.promise(() => Programs.associatedTokenAddress(b.address, Programs.NATIVE_MINT))
      const before = yield* tokenBalance(ata)
      assert.strictEqual(before, 0n)
      yield* landAll(plan.transactions, b)
      assert.strictEqual((yield* tokenBalance(ata)) - before, expected.claimers[1], "balance rose by exactly the claim")

      assert.deepStrictEqual(yield* market.positions(b.address), [])
      const stats = yield* market.claimStats(created.mint)
      const byWallet = new Map(stats.map((s) => [s.wallet, s]))
      assert.strictEqual(byWallet.get(b.address)?.totalClaimed, expected.claimers[1])
      assert.strictEqual(byWallet.get(c.address)?.totalClaimed, 0n)
      assert.isTrue(byWallet.get(creator.address)?.isCreator && byWallet.get(creator.address)?.isAdmin)
      assert.strictEqual(byWallet.get(b.address)?.royaltyBps, 3_000)
      assert.strictEqual(yield* market.lifetimeFees(created.mint), launchFee + buy.fee + sell.fee)

      const nothing = yield* rejection(market.createPlan(request))
      assert.strictEqual(nothing.status, 400)
      assert.match(nothing.message, /nothing to claim/)

      // v1: ready at once, no lookup table, budget in the message config
      const v1 = yield* market.createPlan({ feeClaimer: c.address, tokenMint: created.mint, transactionFormat: "v1" })
      assert.strictEqual(v1.readiness.status, "ready")
      const cAta = yield* Effect.promise(() => Programs.associatedTokenAddress(c.address, Programs.NATIVE_MINT))
      yield* landAll(v1.transactions, c)
      assert.strictEqual(yield* tokenBalance(cAta), expected.claimers[2])

      // partner: its vault holds 20% of every fee; settle entries first, the withdrawal last
      const { vaults } = yield* market.vaults(partner.address)
      assert.strictEqual(vaults[0]?.claimableAmount, expected.partner)
      const entries = yield* market.partnerClaim(partner.address)
      assert.isTrue(entries.transactions.length >= 2)
      const partnerBefore = yield* ledger.balance(partner.address)
      let paid = 0n
      for (const entry of entries.transactions) {
        const signature = yield* signAndSend(entry.transaction, "base58", [partner])
        yield* assertLanded(signature)
        paid += Option.getOrThrow(yield* ledger.transaction(signature)).fee
      }
      assert.strictEqual((yield* ledger.balance(partner.address)) - partnerBefore + paid, expected.partner)
      assert.deepStrictEqual(yield* market.vaults(partner.address), { vaults: [] })
      assert.strictEqual((yield* rejection(market.partnerClaim(partner.address))).status, 400)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("the market changes only when its transactions land: an expired swap changes nothing", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const { created, market } = yield* launchedToken
      const trader = yield* wallet()
      const quote = yield* market.quote({ inputMint: Programs.NATIVE_MINT, outputMint: created.mint, amount: SOL })
      const swap = yield* market.swap({ quoteResponse: quote, userPublicKey: trader.address })
      const fees = yield* market.lifetimeFees(created.mint)
      yield* ledger.advance(11)
      const exit = yield* Effect.exit(signAndSend(swap.swapTransaction, "base58", [trader]))
      assert.isTrue(Exit.isFailure(exit))
      assert.strictEqual(yield* market.lifetimeFees(created.mint), fees)
      // a dropped-by-expiry transaction sent without preflight never lands either
      const signature = yield* signAndSend(swap.swapTransaction, "base58", [trader], { skipPreflight: true })
      assert.deepStrictEqual(yield* ledger.statuses([signature], true), [null])
      assert.strictEqual(yield* market.lifetimeFees(created.mint), fees)
    }).pipe(Effect.provide(TestMarket({ blockhashValidity: 10 }))))

  it.effect("fee-share update: the admin signs; more than 7 claimers go through lookup tables; others get 400", () =>
    Effect.gen(function*() {
      const { created, creator, market } = yield* launchedToken
      const stranger = yield* wallet(SOL)
      const forbidden = yield* rejection(market.updateConfig({
        baseMint: created.mint,
        basisPointsArray: [10_000],
        claimersArray: [stranger.address],
        payer: stranger.address
      }))
      // the service refuses a payer who is not the admin with 400, not 403
      assert.strictEqual(forbidden.status, 400)

      // ten claimers: build a lookup table holding them, on the ledger, signed by the admin
      const claimers = yield* Effect.forEach(
        Array.from({ length: 10 }),
        () => Effect.promise(() => generateKeyPairSigner())
      )
      const ledger = yield* Ledger.Ledger
      const clock = yield* ledger.clock
      const [table, bump] = yield* Effect.promise(() => LookupTable.tableAddress(creator.address, clock.slot))
      const { build } = yield* Effect.promise(() => import("@feeshare/solana/StageBuilder"))
      const built = yield* Effect.promise(() =>
        build({
          format: "legacy",
          feePayer: creator.address,
          instructions: [
            LookupTable.create(table, creator.address, creator.address, clock.slot, bump),
            LookupTable.extend(table, creator.address, creator.address, claimers.map((k) => k.address))
          ],
          lifetime: { blockhash: clock.blockhash, lastValidBlockHeight: clock.lastValidBlockHeight },
          signers: [creator]
        })
      )
      yield* assertLanded(yield* ledger.send(built.wire))
      yield* ledger.advance(1)

      const update = yield* market.updateConfig({
        baseMint: created.mint,
        basisPointsArray: claimers.map(() => 1_000),
        claimersArray: claimers.map((k) => k.address),
        payer: creator.address,
        additionalLookupTables: [table]
      })
      assert.strictEqual(update.transactions.length, 1)
      const unknownTable = yield* rejection(market.updateConfig({
        baseMint: created.mint,
        basisPointsArray: claimers.map(() => 1_000),
        claimersArray: claimers.map((k) => k.address),
        payer: creator.address,
        additionalLookupTables: [claimers[0]?.address ?? ""]
      }))
      assert.strictEqual(unknownTable.status, 400)
      const statsBefore = yield* market.claimStats(created.mint)
      assert.strictEqual(statsBefore.filter((s) => s.royaltyBps > 0).length, 3, "unchanged until it lands")
      yield* assertLanded(yield* signAndSend(update.transactions[0]?.transaction ?? "", "base58", [creator]))
      const stats = yield* market.claimStats(created.mint)
      assert.strictEqual(stats.filter((s) => s.royaltyBps === 1_000).length, 10)
      assert.deepStrictEqual((yield* market.adminList(creator.address)).tokenMints, [created.mint])
    }).pipe(Effect.provide(TestMarket())))

  it.effect("pools migrate to DAMM v2 once the SOL reserve passes the threshold; rejections name the problem", () =>
    Effect.gen(function*() {
      const { created, creator, market } = yield* launchedToken
      const whale = yield* wallet(1_000n * SOL)
      assert.deepStrictEqual(yield* market.pools(true), [])
      const [before] = (yield* market.positions(creator.address)).filter((p) => p.baseMint === created.mint)
      assert.isNull(before?.dammPositionInfo, "no DAMM position before migration")
      yield* trade(whale, Programs.NATIVE_MINT, created.mint, MarketLive.economics.migrationLamports)
      const [pool] = yield* market.pools(true)
      assert.strictEqual(pool?.tokenMint, created.mint)
      assert.isNotNull(pool?.dammV2PoolKey)
      assert.isNotNull(pool?.dbcPoolKey)
      // an unknown token on lifetime-fees is the service's 400 `token launch not found`
      const unknown = yield* rejection(market.lifetimeFees(whale.address))
      assert.strictEqual(unknown.status, 400)
      assert.include(unknown.message, "token launch not found")
      const pair = yield* rejection(market.quote({ inputMint: created.mint, outputMint: created.mint, amount: 1n }))
      assert.strictEqual(pair.status, 400)
      const quote = yield* market.quote({ inputMint: Programs.NATIVE_MINT, outputMint: created.mint, amount: SOL })
      yield* trade(whale, Programs.NATIVE_MINT, created.mint, SOL)
      // after migration a position reports its DAMM v2 position
      const [migrated] = (yield* market.positions(creator.address)).filter((p) => p.baseMint === created.mint)
      assert.isTrue(migrated?.isMigrated)
      assert.deepStrictEqual(
        [
          migrated?.dammPositionInfo?.pool,
          migrated?.dammPositionInfo?.tokenAMint,
          migrated?.dammPositionInfo?.tokenBMint
        ],
        [pool?.dammV2PoolKey, created.mint, Programs.NATIVE_MINT]
      )
      const moved = yield* rejection(market.swap({ quoteResponse: quote, userPublicKey: whale.address }))
      assert.strictEqual(moved.status, 400)
      assert.match(moved.message, /minOutAmount/)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("a custom fee vault: two claimers, positions say which side each is, and the claim lands", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const a = yield* wallet(SOL)
      const b = yield* wallet(SOL)
      const trader = yield* wallet(100n * SOL)
      const created = yield* market.createToken({ creator: a.address })
      const three = yield* rejection(market.createFeeShareConfig({
        mint: created.mint,
        admin: a.address,
        customFeeVault: true,
        claimers: [{ wallet: a.address, bps: 5_000 }, { wallet: b.address, bps: 3_000 }, {
          wallet: trader.address,
          bps: 2_000
        }]
      }))
      assert.strictEqual(three.status, 400)
      const config = yield* market.createFeeShareConfig({
        mint: created.mint,
        admin: a.address,
        customFeeVault: true,
        claimers: [{ wallet: a.address, bps: 6_000 }, { wallet: b.address, bps: 4_000 }]
      })
      assert.isNotNull(config.customFeeVault)
      yield* assertLanded(
        yield* signAndSend(
          yield* market.launch({
            ipfs: "ipfs://cfv",
            tokenMint: created.mint,
            wallet: a.address,
            configKey: created.configKey,
            initialBuyLamports: 0
          }),
          "base58",
          [a]
        )
      )
      yield* trade(trader, Programs.NATIVE_MINT, created.mint, 10n * SOL)
      const [position] = yield* market.positions(b.address)
      assert.deepStrictEqual(
        [
          position?.isCustomFeeVault,
          position?.customFeeVault,
          position?.customFeeVaultClaimerA,
          position?.customFeeVaultClaimerB,
          position?.customFeeVaultClaimerSide
        ],
        [true, config.customFeeVault, a.address, b.address, "B"]
      )
      assert.strictEqual((yield* market.positions(a.address))[0]?.customFeeVaultClaimerSide, "A")
      const plan = yield* market.createPlan({ feeClaimer: b.address, tokenMint: created.mint, transactionFormat: "v1" })
      for (const stage of plan.transactions) yield* assertLanded(yield* signAndSend(stage.transaction, "base64", [b]))
      assert.deepStrictEqual(yield* market.positions(b.address), [])
    }).pipe(Effect.provide(TestMarket())))

  it.effect("launch, swap, fee-share update and partner claim are v0 messages, as the service returns", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const creator = yield* wallet(10n * SOL)
      const partner = yield* wallet(SOL)
      const trader = yield* wallet(100n * SOL)
      const created = yield* market.createToken({ creator: creator.address })
      yield* market.createFeeShareConfig({
        mint: created.mint,
        admin: creator.address,
        partner: partner.address,
        claimers: [{ wallet: creator.address, bps: 10_000 }]
      })
      const versionOf = (text: string) =>
        getCompiledTransactionMessageDecoder().decode(
          getTransactionDecoder().decode(wireBytes(text, "base58")).messageBytes
        ).version
      const launch = yield* market.launch({
        ipfs: "ipfs://v0",
        tokenMint: created.mint,
        wallet: creator.address,
        configKey: created.configKey,
        initialBuyLamports: 0
      })
      assert.strictEqual(versionOf(launch), 0)
      yield* assertLanded(yield* signAndSend(launch, "base58", [creator]))
      const quote = yield* market.quote({
        inputMint: Programs.NATIVE_MINT,
        outputMint: created.mint,
        amount: 10n * SOL
      })
      const swap = yield* market.swap({ quoteResponse: quote, userPublicKey: trader.address })
      assert.strictEqual(versionOf(swap.swapTransaction), 0)
      yield* assertLanded(yield* signAndSend(swap.swapTransaction, "base58", [trader]))
      const update = yield* market.updateConfig({
        baseMint: created.mint,
        basisPointsArray: [10_000],
        claimersArray: [creator.address],
        payer: creator.address
      })
      assert.deepStrictEqual(update.transactions.map((t) => versionOf(t.transaction)), [0])
      const partnerClaim = yield* market.partnerClaim(partner.address)
      assert.isAbove(partnerClaim.transactions.length, 0)
      for (const entry of partnerClaim.transactions) {
        assert.strictEqual(versionOf(entry.transaction), 0)
        yield* assertLanded(yield* signAndSend(entry.transaction, "base58", [partner]))
      }
    }).pipe(Effect.provide(TestMarket())))

  it.effect("a claim built twice and sent twice pays once: the second fails on the ledger", () =>
    Effect.gen(function*() {
      const { b, created, market } = yield* launchedToken
      const ledger = yield* Ledger.Ledger
      const request = { feeClaimer: b.address, tokenMint: created.mint, transactionFormat: "v1" as const }
      // built in two slots (two blockhashes: two different transactions), neither landed yet
      const first = yield* market.createPlan(request)
      yield* ledger.advance(1)
      const second = yield* market.createPlan(request)
      assert.notStrictEqual(first.transactions[1]?.transaction, second.transactions[1]?.transaction)
      const ata = yield* Effect.promise(() => Programs.associatedTokenAddress(b.address, Programs.NATIVE_MINT))
      for (const stage of first.transactions) yield* assertLanded(yield* signAndSend(stage.transaction, "base64", [b]))
      const paid = yield* tokenBalance(ata)
      assert.isTrue(paid > 0n)
      const [setup, claim] = second.transactions
      yield* assertLanded(yield* signAndSend(setup!.transaction, "base64", [b]))
      const replay = yield* Effect.either(signAndSend(claim!.transaction, "base64", [b]))
      const failed = Either.isLeft(replay) ||
        ((yield* ledger.statuses([replay.right], true))[0]?.err ?? null) !== null
      assert.isTrue(failed, "the second claim must not land")
      assert.strictEqual(yield* tokenBalance(ata), paid, "paid once")
      // the next claim (once fees accrue again) gets a new receipt and lands
      assert.deepStrictEqual(yield* market.positions(b.address), [])
    }).pipe(Effect.provide(TestMarket())))

  it.effect("only the token's creator can launch it: another wallet gets 400 and nothing is built", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const creator = yield* wallet(SOL)
      const stranger = yield* wallet(SOL)
      const created = yield* market.createToken({ creator: creator.address })
      const refused = yield* rejection(
        market.launch({
          ipfs: "ipfs://x",
          tokenMint: created.mint,
          wallet: stranger.address,
          configKey: created.configKey,
          initialBuyLamports: 0
        })
      )
      assert.strictEqual(refused.status, 400)
      assert.include(refused.message, "is not the creator")
      const state = yield* market.state
      assert.isFalse(state.tokens.find((t) => t.mint === created.mint)?.launched)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("deterministic from the seed: the same seed gives the same mints and keys", () =>
    Effect.gen(function*() {
      const creator = yield* Effect.promise(() => generateKeyPairSigner())
      const mintOf = (seed: string) =>
        Effect.flatMap(Market, (market) => market.createToken({ creator: creator.address })).pipe(
          Effect.provide(TestMarket({ seed }))
        )
      const a = yield* mintOf("one")
      const b = yield* mintOf("one")
      const c = yield* mintOf("two")
      assert.deepStrictEqual(a, b)
      assert.notStrictEqual(a.mint, c.mint)
    }))
})
