import { assert, describe, it } from "@effect/vitest"
import { generateKeyPairSigner } from "@solana/kit"
import { Effect, Layer } from "effect"
import { deriveSigner } from "../src/internal/model/keys.js"
import * as Ledger from "../src/Ledger.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import * as Sandbox from "../src/Sandbox.js"
import { call, decodeSuccess } from "./support/http.js"
import { rejection, SOL, wallet } from "./support/ledgerWallet.js"

const options = Options.make({ slotMillis: 0, seed: "setup-test" })

/** How many more airdrops the market's ledger lets through before refusing them. */
interface Faults {
  airdropsLeft: number
}

/**
 * The market over a ledger whose airdrops fail once `faults.airdropsLeft` runs out (the
 * `Ledger` the test sees is the real one underneath, and is never refused).
 */
const FaultyMarket = (faults: Faults) => {
  const faulty = Layer.effect(
    Ledger.Ledger,
    Effect.map(Ledger.Ledger, (ledger): Ledger.Ledger.Service => ({
      ...ledger,
      airdrop: (address, lamports) =>
        faults.airdropsLeft-- > 0
          ? ledger.airdrop(address, lamports)
          : Effect.fail(new Ledger.LedgerError({ code: -32603, message: "injected airdrop failure" }))
    }))
  )
  return MarketLive.layer(options).pipe(Layer.provide(faulty), Layer.provideMerge(Ledger.layer(options)))
}

interface Reply {
  readonly status: number
  readonly json: unknown
}

const failureOf = (reply: Reply) => {
  assert.strictEqual(reply.status, 400, JSON.stringify(reply.json))
  const body = reply.json as { success: boolean; error: string }
  assert.deepStrictEqual(Object.keys(body).sort(), ["error", "success"])
  assert.isFalse(body.success)
  return body.error
}

describe("Sandbox set-up", () => {
  it.effect("a failed createToken, createFeeShareConfig or createHolding is a 400 and changes nothing in the market", () => {
    const faults: Faults = { airdropsLeft: Number.POSITIVE_INFINITY }
    return Effect.gen(function*() {
      const market = yield* Market
      const ledger = yield* Ledger.Ledger
      const creator = yield* wallet(SOL)
      const empty = yield* market.state

      // createToken funds the pool authority, then the creator's deployer vault: the second fails
      faults.airdropsLeft = 1
      const token = yield* rejection(market.createToken({ creator: creator.address }))
      assert.strictEqual(token.status, 400)
      assert.match(token.message, /^could not fund the deployer vault \w+ for rent: injected airdrop failure$/)
      assert.deepStrictEqual(yield* market.state, empty)

      // the retry is the token the failed attempt would have been, and pays rent once
      faults.airdropsLeft = Number.POSITIVE_INFINITY
      const created = yield* market.createToken({ creator: creator.address })
      assert.strictEqual(
        created.mint,
        (yield* Effect.promise(() => deriveSigner(options.seed, "token/0/mint"))).address
      )
      const withToken = yield* market.state
      assert.strictEqual(withToken.tokens.length, 1)
      const poolAuthority = String(withToken.tokens[0]?.["poolAuthority"])
      assert.strictEqual(yield* ledger.balance(poolAuthority), ledger.minimumBalance(0))

      // a partner's vault that cannot be funded: the config stays as it was, no vault appears
      const partner = yield* Effect.promise(() => generateKeyPairSigner())
      faults.airdropsLeft = 0
      const config = yield* rejection(market.createFeeShareConfig({
        mint: created.mint,
        admin: creator.address,
        partner: partner.address,
        claimers: [{ wallet: partner.address, bps: 10_000 }]
      }))
      assert.strictEqual(config.status, 400)
      assert.deepStrictEqual(yield* market.state, withToken)

      // a holding whose authority cannot be funded for rent, then whose lamports cannot be credited
      const claimer = yield* Effect.promise(() => generateKeyPairSigner())
      const input = { mint: created.mint, claimer: claimer.address, lamports: 300_000n }
      for (const airdropsLeft of [0, 1]) {
        faults.airdropsLeft = airdropsLeft
        assert.strictEqual((yield* rejection(market.createHolding(input))).status, 400)
        assert.deepStrictEqual(yield* market.state, withToken)
      }
      faults.airdropsLeft = Number.POSITIVE_INFINITY
      const holding = yield* market.createHolding(input)
      assert.strictEqual(holding.held, 300_000n)
      assert.strictEqual(yield* ledger.balance(holding.authority), ledger.minimumBalance(0) + 300_000n)
    }).pipe(Effect.provide(FaultyMarket(faults)))
  })

  it.effect(
    "200 airdrops at the limit (200x LiteSVM's own faucet) and 200 concurrent createToken after them exhaust nothing",
    () =>
      Effect.gen(function*() {
        const market = yield* Market
        const target = yield* Effect.promise(() => generateKeyPairSigner())
        for (let i = 0; i < 200; i++) {
          yield* market.airdrop({ address: target.address, lamports: Ledger.maxAirdropLamports })
        }
        const last = yield* market.airdrop({ address: target.address, lamports: 1n })
        assert.strictEqual(last.balance, 200n * Ledger.maxAirdropLamports + 1n)
        const creator = yield* Effect.promise(() => generateKeyPairSigner())
        // concurrent requests too: each gets its own token
        const created = yield* Effect.forEach(
          Array.from({ length: 200 }),
          () => market.createToken({ creator: creator.address }),
          { concurrency: 10 }
        )
        assert.strictEqual(new Set(created.map((token) => token.mint)).size, 200)
        const state = yield* market.state
        assert.strictEqual(state.tokens.length, 200)

        const mint = state.tokens[0]?.mint ?? ""
        const tooMuch = yield* rejection(market.createHolding({ mint, claimer: target.address, lamports: 10n ** 18n }))
        assert.strictEqual(tooMuch.status, 400)
        assert.strictEqual(tooMuch.message, "lamports must be at most 1000000000000000 (1,000,000 SOL) per holding")
        assert.deepStrictEqual(yield* market.state, state)
      }).pipe(Effect.provide(MarketLive.layerWithLedger(options))),
    // a hang guard: 400 ledger operations take 8 s natively, 20–32 s in a VM context under CI load
    120_000
  )

  it.effect("over HTTP: 100 identical airdrops in one slot all land; refusals are 400 envelopes naming the field", () =>
    Effect.gen(function*() {
      const target = yield* Effect.promise(() => generateKeyPairSigner())
      const body = { address: target.address, lamports: "1000000000" }
      const slot = Effect.map(
        call("sandbox", "state", { apiKey: null }),
        (reply) => (decodeSuccess("sandbox", "state", reply) as { clock: { slot: bigint } }).clock.slot
      )
      const before = yield* slot
      const replies = yield* Effect.forEach(
        Array.from({ length: 100 }),
        () => call("sandbox", "airdrop", { apiKey: null, body }),
        { concurrency: 10 }
      )
      const results = replies.map((reply) =>
        decodeSuccess("sandbox", "airdrop", reply) as { signature: string; balance: bigint }
      )
      assert.strictEqual(new Set(results.map((result) => result.signature)).size, 100)
      assert.include(results.map((result) => result.balance), 100n * SOL)
      assert.strictEqual(yield* slot, before, "all in one slot")

      const airdrop = (address: string, lamports: string) =>
        Effect.map(call("sandbox", "airdrop", { apiKey: null, body: { address, lamports } }), failureOf)
      for (const lamports of ["1000000000000001", "18446744073709551615"]) {
        assert.strictEqual(
          yield* airdrop(target.address, lamports),
          `lamports must be between 1 and 1000000000000000 (1,000,000 SOL) per airdrop; got ${lamports}`
        )
      }
      assert.match(
        yield* airdrop(target.address, "18446744073709551616"),
        /^sandbox\.airdrop: lamports must be an integer/
      )
      const fresh = yield* Effect.promise(() => generateKeyPairSigner())
      assert.strictEqual(
        yield* airdrop(fresh.address, "1"),
        `lamports: 1 would leave ${fresh.address} below the rent-exempt minimum of 890880 lamports`
      )
      assert.match(
        yield* airdrop("SysvarC1ock11111111111111111111111111111111", "1000000000"),
        /^address: .* is a reserved account/
      )
      assert.match(
        yield* airdrop("11111111111111111111111111111111", "1000000000"),
        /^address: .* cannot receive lamports/
      )

      const creator = yield* Effect.promise(() => generateKeyPairSigner())
      const token = yield* call("sandbox", "createToken", { apiKey: null, body: { creator: creator.address } })
      assert.strictEqual(token.status, 200)
      const { mint } = decodeSuccess("sandbox", "createToken", token) as { mint: string }
      assert.strictEqual(
        failureOf(
          yield* call("sandbox", "createHolding", {
            apiKey: null,
            body: { mint, claimer: creator.address, lamports: "18446744073709551615" }
          })
        ),
        "lamports must be at most 1000000000000000 (1,000,000 SOL) per holding"
      )
    }).pipe(Effect.provide(Sandbox.layer())))
})
