/**
 * The Token-2022 quote mint with a transfer fee: holdings in it, claim plans that pay it out
 * with TransferCheckedWithFee, `feeLimits` enforced against its active schedule, and a schedule
 * change between building and landing, all on the real ledger.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Plan } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { type Address, generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Effect, Layer, Option } from "effect"
import * as Programs from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as LedgerChain from "../src/LedgerChain.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import * as Sandbox from "../src/Sandbox.js"
import { call, decodeSuccess } from "./support/http.js"
import { assertLanded, rejection, signAndSend, SOL, tokenBalance, verifyStage, wallet } from "./support/ledgerWallet.js"

const TestMarket = () => MarketLive.layerWithLedger(Options.make({ slotMillis: 0, seed: "quote-mint-2022-test" }))

const T22 = Programs.TOKEN_2022_PROGRAM

/** The Token-2022 quote mint, from the market's list. */
const quoteMint = Effect.gen(function*() {
  const listed = yield* (yield* Market).quoteMints
  const found = listed.find((q) => q.tokenProgram === T22)
  assert.isDefined(found, "a Token-2022 quote mint is listed")
  return found?.mint as Address
})

const ata2022 = (owner: string, mint: Address) =>
  Effect.promise(() => Programs.associatedTokenAddress(owner as Address, mint, T22))

const withheld = (account: Address) =>
  Effect.map(
    Effect.flatMap(Ledger.Ledger, (ledger) => ledger.account(account)),
    Option.match({ onNone: () => 0n, onSome: (a) => Programs.withheldAmount(a.data) })
  )

const landAll = (stages: ReadonlyArray<Plan.Stage>, signer: KeyPairSigner) =>
  Effect.forEach(stages, (stage) =>
    Effect.gen(function*() {
      yield* verifyStage(stage)
      yield* assertLanded(yield* signAndSend(stage.transaction, "base64", [signer]))
    }), { discard: true })

/** The Token-2022 instructions of a v1 stage: their data and account addresses. */
const token2022Instructions = (stage: Plan.Stage) =>
  Effect.map(verifyStage(stage), ({ compiled }) => {
    assert.strictEqual(compiled.version, 1)
    if (compiled.version !== 1) return []
    return compiled.instructionHeaders.flatMap((header, i) => {
      const payload = compiled.instructionPayloads[i]
      return compiled.staticAccounts[header.programAccountIndex] !== T22 || payload === undefined ? [] : [{
        data: new Uint8Array(payload.instructionData),
        accounts: payload.instructionAccountIndices.map((index) => compiled.staticAccounts[index])
      }]
    })
  })

/** A token and a claimer holding `amount` of the Token-2022 quote mint for it. */
const holdingIn2022 = (amount: bigint) =>
  Effect.gen(function*() {
    const market = yield* Market
    const creator = yield* wallet()
    const claimer = yield* wallet(SOL)
    const created = yield* market.createToken({ creator: creator.address })
    const mint = yield* quoteMint
    const holding = yield* market.createHolding({
      mint: created.mint,
      claimer: claimer.address,
      lamports: amount,
      quoteMint: mint
    })
    const source = { kind: "holding" as const, authority: holding.authority }
    return { created, claimer, mint, holding, source }
  })

describe("Token-2022 quote mint with a transfer fee", () => {
  it.effect("is on the ledger: a Token-2022 mint with TransferFeeConfig (100 bps, cap 5,000,000), listed with wrapped SOL", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const listed = yield* market.quoteMints
      const mint = yield* quoteMint
      assert.deepStrictEqual(listed.map((q) => [q.mint, q.tokenProgram, q.decimals, q.transferFee]), [
        [Programs.NATIVE_MINT, Programs.TOKEN_PROGRAM, 9, null],
        [mint, T22, 6, { basisPoints: 100, maximumFeeRaw: 5_000_000n, epoch: 0n }]
      ])
      const account = yield* ledger.account(mint)
      assert.isTrue(Option.isSome(account))
      if (Option.isSome(account)) {
        assert.strictEqual(account.value.owner, T22)
        assert.strictEqual(account.value.data.length, Programs.TRANSFER_FEE_MINT_SIZE)
        const config = Programs.transferFeeConfig(account.value.data)
        assert.deepStrictEqual(config?.newer, { epoch: 0n, maximumFee: 5_000_000n, basisPoints: 100 })
      }
      const snapshot = yield* market.state
      assert.deepStrictEqual(snapshot["quoteMints"], [
        { mint: Programs.NATIVE_MINT, tokenProgram: Programs.TOKEN_PROGRAM, decimals: 9, transferFee: null },
        { mint, tokenProgram: T22, decimals: 6, transferFee: { basisPoints: 100, maximumFeeRaw: "5000000" } }
      ])
    }).pipe(Effect.provide(TestMarket())))

  it.effect("holding claim: TransferCheckedWithFee pays amount − ceil(amount × 1%) (cap 5,000,000); the fee is withheld in the claimer's account", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const amount = 12_345_678n
      const { claimer, created, holding, mint, source } = yield* holdingIn2022(amount)
      assert.strictEqual(holding.quoteMint, mint)
      const vault = yield* ata2022(holding.authority, mint)
      assert.strictEqual(yield* tokenBalance(vault), amount, "minted to the authority's Token-2022 account")
      const wsolHolding = yield* market.createHolding({ mint: created.mint, claimer: claimer.address, lamports: SOL })
      assert.notStrictEqual(wsolHolding.authority, holding.authority, "one holding vault per quote mint")

      const plan = yield* market.createPlan({
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source,
        transactionFormat: "v1"
      })
      assert.deepStrictEqual(plan.asset, { mint, tokenProgram: T22, decimals: 6 })
      assert.deepStrictEqual(plan.feeLimits, [
        { asset: { mint, tokenProgram: T22 }, basisPoints: 100, maximumFeeRaw: 5_000_000n }
      ], "the default limits are the active schedule")
      const destination = yield* ata2022(claimer.address, mint)
      const fee = 123_457n // ceil(12,345,678 × 100 / 10,000): Token-2022 rounds up
      const [transfer] = yield* token2022Instructions(plan.transactions[1] as Plan.Stage)
      const data = new DataView((transfer?.data ?? new Uint8Array(19)).buffer)
      assert.deepStrictEqual(
        [data.getUint8(0), data.getUint8(1)],
        [26, 1],
        "TransferFeeExtension / TransferCheckedWithFee"
      )
      assert.deepStrictEqual(
        [data.getBigUint64(2, true), data.getUint8(10), data.getBigUint64(11, true)],
        [amount, 6, fee]
      )
      assert.deepStrictEqual(transfer?.accounts, [vault, mint, destination, holding.authority])
      const [create] = yield* token2022Instructions(plan.transactions[0] as Plan.Stage)
      assert.isUndefined(create, "the payout account is created by the ATA program")

      yield* landAll(plan.transactions, claimer)
      assert.strictEqual(yield* tokenBalance(destination), amount - fee)
      assert.strictEqual(yield* withheld(destination), fee, "Token-2022 withholds the fee in the destination")
      assert.strictEqual(yield* tokenBalance(vault), 0n)
      const entry = (yield* market.state)["holdings"] as ReadonlyArray<Record<string, string>>
      assert.deepStrictEqual(entry.filter((h) => h["quoteMint"] === mint).map((h) => [h["held"], h["claimed"]]), [
        ["0", String(amount)]
      ])
      const again = yield* rejection(
        market.createPlan({ feeClaimer: claimer.address, tokenMint: created.mint, source, transactionFormat: "v1" })
      )
      assert.match(again.message, /nothing to claim/)

      // 1,000 tokens: 1% would be 10,000,000, the cap is 5,000,000
      yield* market.createHolding({
        mint: created.mint,
        claimer: claimer.address,
        lamports: 1_000_000_000n,
        quoteMint: mint
      })
      const capped = yield* market.createPlan({
        feeClaimer: claimer.address,
        tokenMint: created.mint,
        source,
        transactionFormat: "v1"
      })
      yield* landAll(capped.transactions, claimer)
      assert.strictEqual(yield* tokenBalance(destination), amount - fee + 1_000_000_000n - 5_000_000n)
      assert.strictEqual(yield* withheld(destination), fee + 5_000_000n)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("feeLimits below the active rate or cap, for another asset, or repeated: 400 naming the field and both values", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const { claimer, created, mint, source } = yield* holdingIn2022(50_000_000n)
      const asset = { mint, tokenProgram: T22 }
      const request = { feeClaimer: claimer.address, tokenMint: created.mint, source, transactionFormat: "v1" as const }
      const refused = (
        feeLimits: ReadonlyArray<
          { asset: { mint: string; tokenProgram: string }; basisPoints: number; maximumFeeRaw: bigint }
        >
      ) =>
        Effect.map(rejection(market.createPlan({ ...request, feeLimits })), (r) => {
          assert.strictEqual(r.status, 400)
          return r.message
        })

      assert.strictEqual(
        yield* refused([{ asset, basisPoints: 99, maximumFeeRaw: 5_000_000n }]),
        `feeLimits[0].basisPoints: the active transfer-fee rate of ${mint} is 100 bps, above the limit of 99 bps`
      )
      assert.strictEqual(
        yield* refused([{ asset, basisPoints: 10_000, maximumFeeRaw: 4_999_999n }]),
        `feeLimits[0].maximumFeeRaw: the active transfer-fee cap of ${mint} is 5000000, above the limit of 4999999`
      )
      const both = yield* refused([{ asset, basisPoints: 0, maximumFeeRaw: 0n }])
      assert.include(both, "feeLimits[0].basisPoints")
      assert.include(both, "feeLimits[0].maximumFeeRaw")
      assert.match(
        yield* refused([{
          asset: { mint: Programs.NATIVE_MINT, tokenProgram: Programs.TOKEN_PROGRAM },
          basisPoints: 100,
          maximumFeeRaw: 5_000_000n
        }]),
        new RegExp(
          `^feeLimits\\[0\\]\\.asset: ${Programs.NATIVE_MINT} \\(${Programs.TOKEN_PROGRAM}\\) is not the asset of the plan, ${mint}`
        )
      )
      assert.match(
        yield* refused([{
          asset: { mint, tokenProgram: Programs.TOKEN_PROGRAM },
          basisPoints: 100,
          maximumFeeRaw: 5_000_000n
        }]),
        /^feeLimits\[0\]\.asset: /
      )
      assert.match(
        yield* refused([
          { asset, basisPoints: 100, maximumFeeRaw: 5_000_000n },
          { asset, basisPoints: 200, maximumFeeRaw: 5_000_000n }
        ]),
        /^feeLimits\[1\]\.asset: is a second limit for the same asset/
      )

      // at or above the schedule: the plan applies the request's limits
      const exact = yield* market.createPlan({
        ...request,
        feeLimits: [{ asset, basisPoints: 100, maximumFeeRaw: 5_000_000n }]
      })
      assert.deepStrictEqual(exact.feeLimits, [{ asset, basisPoints: 100, maximumFeeRaw: 5_000_000n }])
      const loose = [{ asset, basisPoints: 10_000, maximumFeeRaw: 18_446_744_073_709_551_615n }]
      assert.deepStrictEqual((yield* market.createPlan({ ...request, feeLimits: loose })).feeLimits, loose)
      assert.deepStrictEqual((yield* market.createPlan({ ...request, feeLimits: null })).feeLimits, [
        { asset, basisPoints: 100, maximumFeeRaw: 5_000_000n }
      ])

      // quoteMint must be the holding's
      const wrongQuote = yield* rejection(market.createPlan({ ...request, quoteMint: Programs.NATIVE_MINT }))
      assert.strictEqual(wrongQuote.status, 400)
      assert.strictEqual(
        wrongQuote.message,
        `quoteMint ${Programs.NATIVE_MINT} does not match the quote mint of holding vault ${source.authority} (${mint})`
      )
      assert.strictEqual((yield* market.createPlan({ ...request, quoteMint: mint })).readiness.status, "ready")

      // a wrapped-SOL holding: no transfer fee, no default limits, a Token-2022 limit is another asset
      const wsol = yield* market.createHolding({ mint: created.mint, claimer: claimer.address, lamports: SOL })
      const wsolRequest = { ...request, source: { kind: "holding" as const, authority: wsol.authority } }
      const wsolPlan = yield* market.createPlan(wsolRequest)
      assert.deepStrictEqual(wsolPlan.asset, {
        mint: Programs.NATIVE_MINT,
        tokenProgram: Programs.TOKEN_PROGRAM,
        decimals: 9
      })
      assert.deepStrictEqual(wsolPlan.feeLimits, [])
      const wsolAsset = { mint: Programs.NATIVE_MINT, tokenProgram: Programs.TOKEN_PROGRAM }
      assert.deepStrictEqual(
        (yield* market.createPlan({
          ...wsolRequest,
          feeLimits: [{ asset: wsolAsset, basisPoints: 0, maximumFeeRaw: 0n }]
        })).feeLimits,
        [{ asset: wsolAsset, basisPoints: 0, maximumFeeRaw: 0n }]
      )
      assert.match(
        (yield* rejection(
          market.createPlan({ ...wsolRequest, feeLimits: [{ asset, basisPoints: 100, maximumFeeRaw: 5_000_000n }] })
        )).message,
        /^feeLimits\[0\]\.asset: /
      )

      // set-up refusals
      const stranger = yield* Effect.promise(() => generateKeyPairSigner())
      const unknownQuote = yield* rejection(
        market.createHolding({
          mint: created.mint,
          claimer: claimer.address,
          lamports: 1n,
          quoteMint: stranger.address
        })
      )
      assert.strictEqual(unknownQuote.status, 400)
      assert.match(
        unknownQuote.message,
        new RegExp(`^quoteMint: ${stranger.address} is not a quote mint of the sandbox`)
      )
      const notTheMint = yield* rejection(
        market.setTransferFee({ mint: Programs.NATIVE_MINT, basisPoints: 1, maximumFeeRaw: 1n })
      )
      assert.strictEqual(notTheMint.status, 400)
      assert.match(notTheMint.message, /^mint: /)
    }).pipe(Effect.provide(TestMarket())))

  it.effect("a schedule raised after building: the built claim fails on the ledger (FeeMismatch) and pays nothing; a rebuilt plan pays at the new fee", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const amount = 100_000_000n
      const { claimer, created, holding, mint, source } = yield* holdingIn2022(amount)
      const asset = { mint, tokenProgram: T22 }
      const request = { feeClaimer: claimer.address, tokenMint: created.mint, source, transactionFormat: "v1" as const }
      const limits = [{ asset, basisPoints: 100, maximumFeeRaw: 5_000_000n }]
      const plan = yield* market.createPlan({ ...request, feeLimits: limits })
      const [payoutAccount, claim] = plan.transactions as [Plan.Stage, Plan.Stage]
      yield* landAll([payoutAccount], claimer)

      const epochBefore = yield* ledger.epoch
      const raised = yield* market.setTransferFee({ mint, basisPoints: 200, maximumFeeRaw: 5_000_000n })
      assert.strictEqual(
        raised.epoch,
        epochBefore + 2n,
        "Token-2022 applies SetTransferFee two epochs later; the sandbox moves them"
      )
      assert.deepStrictEqual(raised.transferFee, {
        basisPoints: 200,
        maximumFeeRaw: 5_000_000n,
        epoch: epochBefore + 2n
      })
      assert.isNull(raised.scheduledTransferFee)

      // the plan built at 100 bps states a fee of 1,000,000; Token-2022 now computes 2,000,000
      yield* verifyStage(claim)
      const preflight = yield* Effect.flip(signAndSend(claim.transaction, "base64", [claimer]))
      assert.strictEqual(preflight.code, -32002)
      const signature = yield* signAndSend(claim.transaction, "base64", [claimer], { skipPreflight: true })
      const [status] = yield* ledger.statuses([signature], true)
      assert.deepStrictEqual(status?.err, { InstructionError: [1, { Custom: 32 }] }, "TokenError::FeeMismatch")
      const destination = yield* ata2022(claimer.address, mint)
      assert.strictEqual(yield* tokenBalance(destination), 0n, "nothing paid")
      assert.strictEqual(yield* tokenBalance(yield* ata2022(holding.authority, mint)), amount)

      // the old limits no longer admit the schedule; the default (or adequate limits) do
      const stale = yield* rejection(market.createPlan({ ...request, feeLimits: limits }))
      assert.strictEqual(stale.status, 400)
      assert.strictEqual(
        stale.message,
        `feeLimits[0].basisPoints: the active transfer-fee rate of ${mint} is 200 bps, above the limit of 100 bps`
      )
      const rebuilt = yield* market.createPlan({
        ...request,
        feeLimits: [{ asset, basisPoints: 200, maximumFeeRaw: 5_000_000n }]
      })
      yield* landAll(rebuilt.transactions, claimer)
      assert.strictEqual(yield* tokenBalance(destination), amount - 2_000_000n)
      assert.strictEqual(yield* withheld(destination), 2_000_000n)
    }).pipe(Effect.provide(TestMarket())))

  it.live("the plan executor verifies and lands a Token-2022 payout through the lookup-table setup", () => {
    const options = Options.make({ slotMillis: 20, seed: "quote-mint-2022-executor" })
    const live = Layer.mergeAll(MarketLive.layer(options), LedgerChain.layer(options)).pipe(
      Layer.provideMerge(Ledger.layer(options))
    )
    return Effect.gen(function*() {
      const market = yield* Market
      const amount = 40_000_000n
      const { claimer, created, mint, source } = yield* holdingIn2022(amount)
      const request = { feeClaimer: claimer.address, tokenMint: created.mint, source, transactionFormat: "v0" as const }
      const first = yield* market.createPlan(request)
      assert.strictEqual(first.readiness.status, "setup_required")
      const result = yield* PlanExecutor.execute(first, {
        rebuild: () => market.createPlan(request),
        format: "v0",
        warmupInterval: "20 millis",
        rebroadcastInterval: "40 millis"
      }).pipe(Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(claimer))))
      assert.deepStrictEqual(result.stages.map((s) => s.id), [
        "lookup-table-create",
        "lookup-table-extend",
        "payout-account",
        "claim"
      ])
      assert.strictEqual(yield* tokenBalance(yield* ata2022(claimer.address, mint)), amount - 400_000n)
    }).pipe(Effect.provide(live))
  })

  it.effect("over HTTP: the quote mints, a Token-2022 holding, a refused limit and a new schedule", () =>
    Effect.gen(function*() {
      const creator = yield* Effect.promise(() => generateKeyPairSigner())
      const claimer = yield* Effect.promise(() => generateKeyPairSigner())
      const listed = decodeSuccess(
        "sandbox",
        "quoteMints",
        yield* call("sandbox", "quoteMints", { apiKey: null })
      ) as ReadonlyArray<{
        mint: string
        tokenProgram: string
      }>
      const mint = listed.find((q) => q.tokenProgram === T22)?.mint ?? ""
      const token = decodeSuccess(
        "sandbox",
        "createToken",
        yield* call("sandbox", "createToken", {
          apiKey: null,
          body: { creator: creator.address }
        })
      ) as { mint: string }
      const holding = decodeSuccess(
        "sandbox",
        "createHolding",
        yield* call("sandbox", "createHolding", {
          apiKey: null,
          body: { mint: token.mint, claimer: claimer.address, lamports: "1000000", quoteMint: mint }
        })
      ) as { authority: string; quoteMint: string }
      assert.strictEqual(holding.quoteMint, mint)
      const body = {
        feeClaimer: claimer.address,
        tokenMint: token.mint,
        transactionFormat: "v1",
        source: { kind: "holding", authority: holding.authority },
        feeLimits: [{ asset: { mint, tokenProgram: T22 }, basisPoints: 50, maximumFeeRaw: "5000000" }]
      }
      const refused = yield* call("claims", "createPlan", { body })
      assert.strictEqual(refused.status, 400, refused.text)
      assert.include((refused.json as { error: string }).error, "feeLimits[0].basisPoints")
      const schedule = decodeSuccess(
        "sandbox",
        "setTransferFee",
        yield* call("sandbox", "setTransferFee", {
          apiKey: null,
          body: { mint, basisPoints: 50, maximumFeeRaw: "1000" }
        })
      ) as { transferFee: { basisPoints: number; maximumFeeRaw: bigint } }
      assert.deepStrictEqual([schedule.transferFee.basisPoints, schedule.transferFee.maximumFeeRaw], [50, 1000n])
      const plan = yield* call("claims", "createPlan", { body })
      assert.strictEqual(plan.status, 200, plan.text)
      const decoded = decodeSuccess("claims", "createPlan", plan) as { asset: unknown }
      assert.deepStrictEqual(decoded.asset, { mint, tokenProgram: T22, decimals: 6 })
    }).pipe(Effect.provide(Sandbox.layer())))
})
