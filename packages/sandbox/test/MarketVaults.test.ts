import { assert, describe, it } from "@effect/vitest"
import { BasisPoints, type Plan } from "@feeshare/domain"
import { type Address, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import * as Programs from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import { assertLanded, rejection, signAndSend, SOL, tokenBalance, verifyStage, wallet } from "./support/ledgerWallet.js"

const TestMarket = () => MarketLive.layerWithLedger(Options.make({ slotMillis: 0, seed: "market-vaults-test" }))

const landAll = (stages: ReadonlyArray<Plan.Stage>, signer: KeyPairSigner) =>
  Effect.forEach(stages, (stage) =>
    Effect.gen(function*() {
      yield* verifyStage(stage)
      yield* assertLanded(yield* signAndSend(stage.transaction, "base64", [signer]))
    }), { discard: true })

const wsol = (owner: Address) =>
  Effect.flatMap(
    Effect.promise(() => Programs.associatedTokenAddress(owner, Programs.NATIVE_MINT)),
    tokenBalance
  )

/** Quote and swap, signed by the trader and landed. Returns the fee of the trade. */
const trade = (trader: KeyPairSigner, inputMint: string, outputMint: string, amount: bigint) =>
  Effect.gen(function*() {
    const market = yield* Market
    const quote = yield* market.quote({ inputMint, outputMint, amount })
    const swap = yield* market.swap({ quoteResponse: quote, userPublicKey: trader.address })
    yield* assertLanded(yield* signAndSend(swap.swapTransaction, "base58", [trader]))
    return quote.platformFee?.amount ?? 0n
  })

const launch = (
  creator: KeyPairSigner,
  flow: "dbc" | "damm_v2_direct",
  claimers: ReadonlyArray<{ wallet: string; bps: number }>
) =>
  Effect.gen(function*() {
    const market = yield* Market
    const created = yield* market.createToken({ creator: creator.address, flow })
    yield* market.createFeeShareConfig({ mint: created.mint, admin: creator.address, claimers })
    const transaction = yield* market.launch({
      ipfs: "ipfs://vaults",
      tokenMint: created.mint,
      wallet: creator.address,
      configKey: created.configKey,
      initialBuyLamports: Number(SOL)
    })
    yield* assertLanded(yield* signAndSend(transaction, "base58", [creator]))
    return created
  })

describe("Market aggregate vaults and holdings", () => {
  it.effect("deployer vault: migrated-pool fees pay the creator's share into it; a damm_v2 pool claim withdraws it on landing", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const creator = yield* wallet()
      const b = yield* wallet(SOL)
      const trader = yield* wallet()

      // a pre-migration (DBC) token pays no deployer share
      const dbc = yield* launch(creator, "dbc", [{ wallet: creator.address, bps: 10_000 }])
      yield* trade(trader, Programs.NATIVE_MINT, dbc.mint, SOL)
      assert.deepStrictEqual(yield* market.vaults(creator.address), { vaults: [] })

      // a DAMM v2 token: 10% of every fee goes to the deployer, the rest split 60/40
      const created = yield* launch(creator, "damm_v2_direct", [
        { wallet: creator.address, bps: 6_000 },
        { wallet: b.address, bps: 4_000 }
      ])
      const launchFee = yield* market.lifetimeFees(created.mint)
      const fees = [launchFee, yield* trade(trader, Programs.NATIVE_MINT, created.mint, 2n * SOL)]
      let deployer = 0n
      const claimers = [0n, 0n]
      for (const fee of fees) {
        const share = (fee * BigInt(MarketLive.economics.deployerFeeBps)) / 10_000n
        assert.isTrue(share > 0n)
        deployer += share
        BasisPoints.split(fee - share, [6_000, 4_000]).forEach((part, i) => (claimers[i] = (claimers[i] ?? 0n) + part))
      }

      const listed = (yield* market.vaults(creator.address)).vaults
      assert.deepStrictEqual(listed.map((v) => [v.kind, v.wallet, v.quoteMint, v.claimableAmount]), [
        ["deployer", creator.address, Programs.NATIVE_MINT, deployer]
      ])
      const vaultAddress = listed[0]?.vaultAta ?? ""
      const [position] = (yield* market.positions(creator.address)).filter((p) => p.baseMint === created.mint)
      assert.strictEqual(BigInt(position?.totalClaimableLamportsUserShare ?? 0), claimers[0])
      const [pool] = yield* market.pools(true)
      const source = { kind: "pool" as const, protocol: "damm_v2" as const, pool: pool?.dammV2PoolKey ?? "" }

      // a damm_v2 claim by a claimer who is not the deployer: its share only
      const bPlan = yield* market.createPlan({
        feeClaimer: b.address,
        tokenMint: created.mint,
        source,
        transactionFormat: "v1"
      })
      yield* landAll(bPlan.transactions, b)
      assert.strictEqual(yield* wsol(b.address), claimers[1])

      // a position claim by the deployer leaves its vault alone
      const own = yield* market.createPlan({
        feeClaimer: creator.address,
        tokenMint: created.mint,
        transactionFormat: "v1"
      })
      yield* landAll(own.transactions, creator)
      assert.strictEqual(yield* wsol(creator.address), claimers[0])
      assert.strictEqual((yield* market.vaults(creator.address)).vaults[0]?.claimableAmount, deployer)

      // the damm_v2 pool claim by the deployer: pending shares move into the vault and out
      const plan = yield* market.createPlan({
        feeClaimer: creator.address,
        tokenMint: created.mint,
        source,
        transactionFormat: "v1"
      })
      assert.deepStrictEqual(plan.operation, {
        kind: "position_claim",
        baseMint: created.mint,
        wallet: creator.address
      })
      const verified = yield* verifyStage(plan.transactions[1] as Plan.Stage)
      assert.include(verified.signers, vaultAddress, "the deployer vault signs its withdrawal")
      assert.notInclude(verified.present, creator.address, "the claimer signs last")
      assert.deepStrictEqual((yield* market.vaults(creator.address)).vaults.length, 1, "unchanged until it lands")
      yield* landAll(plan.transactions, creator)
      assert.strictEqual((yield* wsol(creator.address)) - claimers[0], deployer, "balance rose by exactly the vault")
      assert.deepStrictEqual(yield* market.vaults(creator.address), { vaults: [] })
      assert.strictEqual(yield* ledger.balance(vaultAddress), ledger.minimumBalance(0), "the vault holds only its rent")
      const snapshot = (yield* market.state).tokens.find((t) => t.mint === created.mint) as Record<string, unknown>
      assert.strictEqual(snapshot["unpaidFees"], "0")
      assert.strictEqual(
        yield* ledger.balance(String(snapshot["poolAuthority"])),
        ledger.minimumBalance(0) + BigInt(String(snapshot["solReserve"])),
        "the pool authority paid out every fee"
      )

      const again = yield* rejection(
        market.createPlan({ feeClaimer: creator.address, tokenMint: created.mint, source, transactionFormat: "v1" })
      )
      assert.strictEqual(again.status, 400)
      assert.match(again.message, /nothing to claim/)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("holding claim: the user pays, the holding authority pre-signs, the balance rises by exactly what was held", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const creator = yield* wallet()
      const claimer = yield* wallet(SOL)
      const stranger = yield* wallet(SOL)
      const created = yield* market.createToken({ creator: creator.address })

      assert.strictEqual(
        (yield* rejection(market.createHolding({ mint: created.mint, claimer: claimer.address, lamports: 0n }))).status,
        400
      )
      assert.strictEqual(
        (yield* rejection(market.createHolding({ mint: claimer.address, claimer: claimer.address, lamports: 1n })))
          .status,
        404
      )
      const noHolding = yield* rejection(market.createPlan({
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source: { kind: "holding", authority: creator.address }
      }))
      assert.strictEqual(noHolding.status, 400)
      assert.match(noHolding.message, /source\.authority/)

      yield* market.createHolding({ mint: created.mint, claimer: claimer.address, lamports: 200_000_000n })
      const holding = yield* market.createHolding({
        mint: created.mint,
        claimer: claimer.address,
        lamports: 100_000_000n
      })
      assert.strictEqual(holding.held, 300_000_000n)
      const authority = holding.authority
      const source = { kind: "holding" as const, authority }

      const wrong = yield* rejection(market.createPlan({
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source: { kind: "holding", authority: stranger.address }
      }))
      assert.strictEqual(wrong.status, 400)
      assert.include(wrong.message, stranger.address)
      const nothing = yield* rejection(
        market.createPlan({ feeClaimer: stranger.address, tokenMint: created.mint, source })
      )
      assert.strictEqual(nothing.status, 400)
      assert.match(nothing.message, /nothing to claim/)
      const otherQuote = yield* rejection(market.createPlan({
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source,
        quoteMint: stranger.address
      }))
      assert.strictEqual(otherQuote.status, 400)
      assert.match(
        otherQuote.message,
        new RegExp(`^quoteMint ${stranger.address} does not match .*holding vault ${authority}`)
      )

      // v0: the lookup table first, then the ready plan
      const request = {
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source,
        quoteMint: Programs.NATIVE_MINT,
        transactionFormat: "v0" as const
      }
      const setup = yield* market.createPlan(request)
      assert.strictEqual(setup.readiness.status, "setup_required")
      yield* landAll(setup.transactions, claimer)
      yield* ledger.advance(1)
      const plan = yield* market.createPlan(request)
      assert.strictEqual(plan.readiness.status, "ready")
      assert.deepStrictEqual(plan.operation, {
        kind: "holding_claim",
        baseMint: created.mint,
        wallet: claimer.address,
        authority
      })
      assert.deepStrictEqual(plan.transactions.map((s) => [s.id, s.kind, s.dependsOn]), [
        ["payout-account", "config", []],
        ["claim", "claim", ["payout-account"]]
      ])
      const verified = yield* verifyStage(plan.transactions[1] as Plan.Stage)
      assert.deepStrictEqual(verified.signers, [claimer.address, authority], "the user pays; the authority co-signs")
      assert.deepStrictEqual(verified.present, [authority], "pre-signed by the holding authority only")

      const authorityBefore = yield* ledger.balance(authority)
      yield* landAll(plan.transactions, claimer)
      assert.strictEqual(yield* wsol(claimer.address), 300_000_000n, "balance rose by exactly what was held")
      assert.strictEqual(authorityBefore - (yield* ledger.balance(authority)), 300_000_000n)
      assert.strictEqual(
        yield* ledger.balance(authority),
        ledger.minimumBalance(0),
        "the holding is empty on the ledger"
      )
      const again = yield* rejection(market.createPlan(request))
      assert.strictEqual(again.status, 400)
      assert.match(again.message, /nothing to claim/)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("quoteMint must match the selected fee-share config: a mismatch answers 400 naming quoteMint", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const creator = yield* wallet()
      const other = yield* Effect.promise(() => generateKeyPairSigner())
      const created = yield* launch(creator, "dbc", [{ wallet: creator.address, bps: 10_000 }])
      const mismatch = yield* rejection(market.createPlan({
        feeClaimer: creator.address,
        tokenMint: created.mint,
        quoteMint: other.address,
        transactionFormat: "v1"
      }))
      assert.strictEqual(mismatch.status, 400)
      assert.match(
        mismatch.message,
        new RegExp(`^quoteMint ${other.address} does not match the quote mint of the fee-share config`)
      )
      const matching = yield* market.createPlan({
        feeClaimer: creator.address,
        tokenMint: created.mint,
        quoteMint: Programs.NATIVE_MINT,
        transactionFormat: "v1"
      })
      assert.strictEqual(matching.readiness.status, "ready")
    }).pipe(Effect.provide(TestMarket())))
})
