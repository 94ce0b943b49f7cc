/**
 * Vault sweeps, deployer claims and "claim only when it pays", in process on one sandbox
 * ledger: a wallet that is a token's creator (its deployer), partner and claimer has its
 * position claimed, its partner vault swept and its deployer positions claimed, each exactly
 * what was owed; a second pass claims nothing. With `maxCostFraction`, a dust position (its
 * fees and rent, read from the verified plan, exceed the fraction of what it would pay) is left
 * alone, the report says why, nothing is signed, and the next pass leaves it alone again.
 */
import { assert, describe, layer } from "@effect/vitest"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import { ClaimTransactions } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect } from "effect"
import * as Journal from "../src/Journal.js"
import * as Keeper from "../src/Keeper.js"
import * as Status from "../src/Status.js"
import {
  buy,
  keeper,
  type KeyFile,
  keyFile,
  launchedToken,
  NATIVE_MINT,
  sandboxApi,
  sandboxLayer,
  SOL,
  solBalance,
  temporaryDirectory,
  wsolBalance
} from "./support/fixture.js"

/**
 * A token created and launched by `creator`, with `partner` as its partner and `claimer` as
 * its only claimer, bought for `buys` SOL (one swap each) by a fresh trader.
 */
const token = (options: {
  readonly creator: KeyFile
  readonly partner?: string
  readonly claimer: string
  readonly buys: ReadonlyArray<bigint>
}) =>
  Effect.gen(function*() {
    const sandbox = yield* sandboxApi
    const trader = yield* LocalSigner.generate
    yield* sandbox.sandbox.airdrop({ payload: { address: trader.publicKey, lamports: 100n * SOL } })
    const mint = yield* launchedToken({
      creator: options.creator.signer,
      fund: false,
      ...(options.partner === undefined ? {} : { partner: options.partner }),
      claimers: [{ wallet: options.claimer, bps: 10_000 }]
    })
    for (const lamports of options.buys) yield* buy(trader, mint, lamports)
    return mint
  })

/** What the service lists as owed to `wallet`: positions, the partner vault, the deployer's positions. */
const owedTo = (wallet: string) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const positions = yield* client.claims.positions({ wallet })
    const { vaults } = yield* client.claims.vaults({ wallet })
    const deployer = yield* client.claims.deployerPositions({ wallet })
    return {
      position: positions.reduce((sum, p) => sum + BigInt(p.totalClaimableLamportsUserShare), 0n),
      partner: vaults.find((v) => v.kind === "partner")?.claimableAmount ?? 0n,
      deployer: ClaimTransactions.deployerOwed(deployer)
    }
  })

describe("Keeper sweeps", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-sweeps" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("sweeps the partner vault and claims the deployer's positions with the position, exactly what was owed; a second pass claims nothing", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-sweeps-")
        const wallet = yield* keyFile(dir, "deployer")
        const address = wallet.signer.publicKey
        yield* (yield* sandboxApi).sandbox.airdrop({ payload: { address, lamports: 20n * SOL } })
        // 6 SOL migrates the pool (the deployer earns from then on), 2 more accrue its share
        yield* token({ creator: wallet, partner: address, claimer: address, buys: [6n * SOL, 2n * SOL] })
        const owed = yield* owedTo(address)
        assert.isTrue(
          owed.position > 0n && owed.partner > 0n && owed.deployer > 0n,
          JSON.stringify(owed, (_, v) => typeof v === "bigint" ? String(v) : v)
        )
        const before = yield* wsolBalance(address)

        const keeperLayer = yield* keeper([wallet], { transactionFormat: "v0" })
        const { first, second, status } = yield* Effect.gen(function*() {
          const first = yield* Keeper.pass
          const second = yield* Keeper.pass
          const status = yield* Status.read
          const runs = yield* (yield* Journal.Journal).runs
          return { first, second, status, runs }
        }).pipe(Effect.provide(keeperLayer))

        const [report] = first.wallets
        assert.isNull(report?.error ?? null)
        assert.deepStrictEqual(report?.positions.map((p) => p.outcome), ["claimed"])
        const sweeps = new Map(report?.sweeps.map((s) => [s.kind, s]))
        assert.deepStrictEqual([...sweeps.keys()].sort(), ["deployer", "vault"])
        assert.strictEqual(sweeps.get("vault")?.outcome, "claimed", sweeps.get("vault")?.message ?? "")
        assert.strictEqual(sweeps.get("vault")?.subject, `vault:partner:${NATIVE_MINT}`)
        assert.strictEqual(sweeps.get("vault")?.lamports, owed.partner)
        assert.strictEqual(sweeps.get("deployer")?.outcome, "claimed", sweeps.get("deployer")?.message ?? "")
        assert.strictEqual(sweeps.get("deployer")?.lamports, owed.deployer)
        // gas-sponsored: the wallet paid no fee for the sweeps
        assert.strictEqual(sweeps.get("vault")?.fees, 0n)
        assert.strictEqual(sweeps.get("deployer")?.fees, 0n)

        // the wallet's wrapped-SOL account rose by exactly what was owed; nothing is owed now
        assert.strictEqual((yield* wsolBalance(address)) - before, owed.position + owed.partner + owed.deployer)
        assert.deepStrictEqual(yield* owedTo(address), { position: 0n, partner: 0n, deployer: 0n })

        // the second pass finds nothing and signs nothing
        const [again] = second.wallets
        assert.deepStrictEqual(again?.positions, [])
        assert.deepStrictEqual(again?.sweeps, [])

        // status: the totals per kind
        const [mine] = status
        assert.strictEqual(mine?.kinds.position.claims, 1)
        assert.strictEqual(mine?.kinds.vault.claims, 1)
        assert.strictEqual(mine?.kinds.vault.claimed, owed.partner)
        assert.strictEqual(mine?.kinds.deployer.claims, 1)
        assert.strictEqual(mine?.kinds.deployer.claimed, owed.deployer)
        assert.strictEqual(mine?.claimedLamports, owed.position + owed.partner + owed.deployer)
      }))

    it.effect("maxCostFraction: a dust position is skipped, the report says why, nothing is signed; the next pass skips it again", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-dust-")
        const [creator, wallet] = yield* Effect.forEach(["creator", "dust"], (name) => keyFile(dir, name))
        const address = wallet!.signer.publicKey
        const sandbox = yield* sandboxApi
        for (const key of [creator!, wallet!]) {
          yield* sandbox.sandbox.airdrop({ payload: { address: key.signer.publicKey, lamports: 20n * SOL } })
        }
        // 0.01 SOL of buys: a 1% fee, 100,000 lamports owed; a claim costs an account's rent and more
        yield* token({ creator: creator!, claimer: address, buys: [SOL / 100n] })
        const owed = (yield* owedTo(address)).position
        assert.isTrue(owed > 0n && owed < 1_000_000n, String(owed))
        const wsolBefore = yield* wsolBalance(address)
        const solBefore = yield* solBalance(address)

        // v1: no lookup table to set up first, so the first plan is the claim itself
        const keeperLayer = yield* keeper([wallet!], { transactionFormat: "v1", maxCostFraction: 0.5 })
        const { first, second, status } = yield* Effect.gen(function*() {
          const first = yield* Keeper.pass
          const second = yield* Keeper.pass
          return { first, second, status: yield* Status.read }
        }).pipe(Effect.provide(keeperLayer))

        for (const pass of [first, second]) {
          const [position] = pass.wallets[0]?.positions ?? []
          assert.strictEqual(position?.outcome, "skipped", position?.message ?? "")
          assert.strictEqual(position?.tag, "CostExceedsClaim")
          assert.deepStrictEqual(position?.signatures, [])
          const skipped = position?.skipped
          assert.isDefined(skipped)
          assert.strictEqual(skipped?.claimable, owed)
          // the figures are the verified plan's: a fee per signature, and rent of the accounts it creates
          assert.isTrue((skipped?.fees ?? 0n) >= 5_000n, String(skipped?.fees))
          assert.isTrue((skipped?.rent ?? 0n) > 0n, String(skipped?.rent))
          assert.isTrue(((skipped?.fees ?? 0n) + (skipped?.rent ?? 0n)) * 2n > owed)
          assert.include(skipped?.reason ?? "", "maxCostFraction")
        }
        // nothing signed or sent: the balances did not move, the position is still owed
        assert.strictEqual(yield* wsolBalance(address), wsolBefore)
        assert.strictEqual(yield* solBalance(address), solBefore)
        assert.strictEqual((yield* owedTo(address)).position, owed)
        assert.strictEqual(status[0]?.kinds.position.skipped, 2)
        assert.strictEqual(status[0]?.kinds.position.claims, 0)
        assert.deepStrictEqual(status[0]?.failures, [])
      }))
  })
})
