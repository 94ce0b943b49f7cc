/**
 * Config creation (`POST /fee-share/config`) for real: the client against the sandbox, the
 * wallet's lookup tables made (created, extended, warmed up) by `@feeshare/solana`, the
 * answer's bundles landed through the sandbox's bundle relay, its transactions in order, all
 * on the sandbox's LiteSVM ledger with real signatures. The block clock ticks (20 ms), so
 * the tables' warm-up is a real wait on the block height.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { Api, BasisPoints, FeeShare } from "@feeshare/domain"
import type { Signer } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as BundleRelay from "@feeshare/solana/BundleRelay"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as Flows from "@feeshare/solana/Flows"
import { LedgerReads } from "@feeshare/solana/LedgerReads"
import * as LedgerReadsLive from "@feeshare/solana/LedgerReads"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as LookupTable from "@feeshare/solana/LookupTable"
import * as LookupTableSetup from "@feeshare/solana/LookupTableSetup"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Layer, Option, Redacted } from "effect"
import { FeeShareClient } from "../src/index.js"

const SOL = 1_000_000_000n

const client = Effect.flatMap(
  SandboxInfo,
  (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
)

const setup = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: info.rootUrl }), (c) => c.sandbox)
)

/** The wallet's signers, the sandbox's ledger as `Chain` and `LedgerReads`, and its bundle relay. */
const onChain = (wallet: Signer.Signer.Service) =>
  Layer.unwrapEffect(
    Effect.map(SandboxInfo, (info) =>
      Layer.mergeAll(
        Signers.layer(wallet),
        ChainRpc.layer(info.rpcUrl, { pollInterval: "5 millis" }),
        LedgerReadsLive.layerRpc(info.rpcUrl),
        BundleRelay.layerHttp(`${info.rootUrl}${SandboxApi.prefix}/bundles`).pipe(
          Layer.provide(NodeHttpClient.layerUndici)
        )
      ))
  )

const undici = Effect.provide(NodeHttpClient.layerUndici)

/** A funded payer, its token, and `n` claimers (the payer first) with equal shares. */
const fixture = (n: number, lamports = 20n * SOL) =>
  Effect.gen(function*() {
    const sandbox = yield* setup
    const payer = yield* LocalSigner.generate
    yield* sandbox.airdrop({ payload: { address: payer.publicKey, lamports } })
    const token = yield* sandbox.createToken({ payload: { creator: payer.publicKey } })
    const others = yield* Effect.forEach(Array.from({ length: n - 1 }), () => LocalSigner.generate)
    const claimers = [payer.publicKey, ...others.map((s) => s.publicKey)]
    const bps = claimers.map((_, i) => Math.floor(10_000 / n) + (i === 0 ? 10_000 % n : 0))
    return { sandbox, payer, token, claimers, bps }
  })

/** The token's fee share as the sandbox's state shows it. */
const feeShareOf = (mint: string) =>
  Effect.gen(function*() {
    const sandbox = yield* setup
    const state = yield* sandbox.state()
    const token = state.tokens.find((t) => t.mint === mint)
    return token?.["feeShare"] as {
      admin: string
      claimers: ReadonlyArray<{ wallet: string; bps: number }>
      configType: string | null
      deployer: string | null
    } | undefined
  })

describe("config creation against the sandbox", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 20, blockhashValidity: 100_000, seed: "config-creation" }), {
    excludeTestServices: true
  })((it) => {
    it.scoped("3 claimers: two transactions in order, the config on the ledger; needsCreation false reuses the key; the deployer earns 25 %", () =>
      Effect.gen(function*() {
        const { bps, claimers, payer, token } = yield* fixture(3)
        const feeShare = (yield* client).feeShare
        const answer = yield* feeShare.createConfig({
          payer: payer.publicKey,
          baseMint: token.mint,
          claimersArray: claimers,
          basisPointsArray: bps
        })
        assert.isTrue(answer.needsCreation)
        assert.isNull(answer.bundles ?? null)
        assert.strictEqual(answer.transactions?.length, 2)
        assert.strictEqual(answer.meteoraConfigKey, token.configKey)
        const created = yield* Flows.createConfig(answer, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.isTrue(created.created)
        assert.strictEqual(created.transactions.length, 2)
        // the config account exists on the ledger, and the market applies its claimers
        const reads = yield* Effect.provide(LedgerReads, onChain(payer))
        assert.isTrue(Option.isSome(yield* reads.account(answer.meteoraConfigKey)))
        const share = yield* feeShareOf(token.mint)
        assert.deepStrictEqual(share?.claimers.map((c) => c.wallet), claimers)
        assert.strictEqual(share?.admin, payer.publicKey)
        // no platformConfigType given: the reference's Default, shown with the deployer
        assert.strictEqual(share?.configType, FeeShare.defaultConfigType)
        assert.strictEqual(share?.deployer, payer.publicKey)

        // asked again: a success that reuses the key, with nothing to sign
        const again = yield* feeShare.createConfig({
          payer: payer.publicKey,
          baseMint: token.mint,
          claimersArray: [payer.publicKey],
          basisPointsArray: [10_000]
        })
        assert.isFalse(again.needsCreation)
        assert.strictEqual(again.meteoraConfigKey, answer.meteoraConfigKey)
        const reused = yield* Flows.createConfig(again).pipe(Effect.provide(onChain(payer)))
        assert.deepStrictEqual(reused, {
          configKey: answer.meteoraConfigKey,
          created: false,
          bundles: [],
          transactions: []
        })
        // the key is the launch's config key: the launch is built, verified, signed and lands
        const launch = yield* (yield* client).launch.createTransaction({
          ipfs: "ipfs://config-creation",
          tokenMint: token.mint,
          wallet: payer.publicKey,
          initialBuyLamports: 0,
          configKey: reused.configKey
        })
        yield* Flows.launch(launch, { mint: token.mint, commitment: "processed" }).pipe(Effect.provide(onChain(payer)))

        // the payer is the config's deployer: 2 500 bps of the claimers pool, then its own share
        const api = yield* client
        const quote = yield* api.trade.quote({ inputMint: token.quoteMint, outputMint: token.mint, amount: 2n * SOL })
        const swap = yield* api.trade.swap({ quoteResponse: quote, userPublicKey: payer.publicKey })
        yield* Flows.swap(swap, { commitment: "processed" }).pipe(Effect.provide(onChain(payer)))
        const pool = yield* api.analytics.lifetimeFees({ tokenMint: token.mint })
        assert.isAbove(Number(pool), 0)
        const deployer = (pool * BigInt(FeeShare.deployerBps)) / 10_000n
        const parts = BasisPoints.split(pool - deployer, bps)
        const claimable = (wallet: string) =>
          Effect.map(
            api.claims.positions({ wallet }),
            (positions) =>
              BigInt(positions.find((p) => p.baseMint === token.mint)?.totalClaimableLamportsUserShare ?? 0)
          )
        assert.strictEqual(yield* claimable(payer.publicKey), deployer + parts[0]!)
        assert.strictEqual(yield* claimable(claimers[1]!), parts[1])
        assert.strictEqual(yield* claimable(claimers[2]!), parts[2])
      }).pipe(undici))

    it.scoped("8 claimers: refused without tables (client and sandbox); a table made, warmed and used; a bundle lands", () =>
      Effect.gen(function*() {
        const { bps, claimers, payer, token } = yield* fixture(8)
        const feeShare = (yield* client).feeShare
        const request = { payer: payer.publicKey, baseMint: token.mint, claimersArray: claimers, basisPointsArray: bps }
        const refused = yield* Effect.flip(feeShare.createConfig(request))
        assert.strictEqual(refused._tag, "InvalidRequest")
        if (refused._tag === "InvalidRequest") {
          assert.strictEqual(refused.field, "additionalLookupTables")
          assert.strictEqual(refused.rule, FeeShare.rules.lookupTables)
        }
        // the sandbox refuses it too, sent raw
        const info = yield* SandboxInfo
        const raw = yield* Effect.promise(() =>
          fetch(`${info.baseUrl}/fee-share/config`, {
            method: "POST",
            headers: { "content-type": "application/json", [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) },
            body: JSON.stringify(request)
          })
        )
        assert.strictEqual(raw.status, 400)
        assert.include(yield* Effect.promise(() => raw.text()), "additionalLookupTables")

        const badAddress = yield* Effect.flip(
          LookupTableSetup.prepare([...claimers, "not-a-key"]).pipe(Effect.provide(onChain(payer)))
        )
        assert.strictEqual(badAddress._tag, "InvalidRequest")
        if (badAddress._tag === "InvalidRequest") assert.strictEqual(badAddress.field, "addresses[8]")
        const prepared = yield* LookupTableSetup.prepare(claimers, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.isFalse(prepared.reused)
        assert.strictEqual(prepared.signatures.length, 2, "one create, one extend (8 addresses, one chunk)")
        const reads = yield* Effect.provide(LedgerReads, onChain(payer))
        const table = LookupTable.parse(Option.getOrThrow(yield* reads.account(prepared.table)).data)
        assert.strictEqual(table?.authority, payer.publicKey)
        assert.deepStrictEqual(table?.addresses.map((a): string => a), claimers)
        // a table the wallet owns that holds the addresses is reused, nothing sent
        const again = yield* LookupTableSetup.prepare(claimers, { reuse: [prepared.table] }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.deepStrictEqual(again, { table: prepared.table, reused: true, signatures: [] })

        const answer = yield* feeShare.createConfig({ ...request, additionalLookupTables: [prepared.table] })
        assert.strictEqual(answer.bundles?.length, 1)
        assert.strictEqual(answer.bundles?.[0]?.length, 2)
        const created = yield* Flows.createConfig(answer, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.strictEqual(created.bundles[0]?.length, 2)
        const share = yield* feeShareOf(token.mint)
        assert.strictEqual(share?.claimers.length, 8)
      }).pipe(undici))

    it.scoped("20 claimers: through one table (30 addresses: extended in two chunks of up to 25), as one bundle", () =>
      Effect.gen(function*() {
        const { bps, claimers, payer, token } = yield* fixture(20)
        const more = yield* Effect.forEach(Array.from({ length: 10 }), () => LocalSigner.generate)
        const addresses = [...claimers, ...more.map((s) => s.publicKey)]
        const prepared = yield* LookupTableSetup.prepare(addresses, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.strictEqual(prepared.signatures.length, 3, "one create, two extends (25 + 5)")
        const reads = yield* Effect.provide(LedgerReads, onChain(payer))
        const table = LookupTable.parse(Option.getOrThrow(yield* reads.account(prepared.table)).data)
        assert.deepStrictEqual(table?.addresses.map((a): string => a), addresses)
        const answer = yield* (yield* client).feeShare.createConfig({
          payer: payer.publicKey,
          baseMint: token.mint,
          claimersArray: claimers,
          basisPointsArray: bps,
          additionalLookupTables: [prepared.table]
        })
        const created = yield* Flows.createConfig(answer, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.isTrue(created.created)
        assert.strictEqual((yield* feeShareOf(token.mint))?.claimers.length, 20)
      }).pipe(undici))

    it.scoped("a bundle lands all or nothing: its last transaction fails, none land, the client names it", () =>
      Effect.gen(function*() {
        // enough for the table and the config account, not for the deployer's funding
        const { bps, claimers, payer, token } = yield* fixture(8, 20_000_000n)
        const prepared = yield* LookupTableSetup.prepare(claimers, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        const answer = yield* (yield* client).feeShare.createConfig({
          payer: payer.publicKey,
          baseMint: token.mint,
          claimersArray: claimers,
          basisPointsArray: bps,
          additionalLookupTables: [prepared.table]
        })
        const reads = yield* Effect.provide(LedgerReads, onChain(payer))
        const payerBefore = yield* reads.account(payer.publicKey)
        const failure = yield* Effect.flip(
          Flows.createConfig(answer, { commitment: "processed" }).pipe(Effect.provide(onChain(payer)))
        )
        assert.strictEqual(failure._tag, "BundleRejected")
        if (failure._tag === "BundleRejected") {
          assert.strictEqual(failure.bundle, 0)
          assert.strictEqual(failure.index, 1, "the deployer's funding, the bundle's last transaction")
        }
        // nothing of the bundle landed: no config account, the payer's lamports unchanged
        assert.isTrue(Option.isNone(yield* reads.account(answer.meteoraConfigKey)))
        assert.deepStrictEqual(yield* reads.account(payer.publicKey), payerBefore)
        const share = yield* feeShareOf(token.mint)
        assert.deepStrictEqual(share?.claimers.map((c) => c.wallet), [payer.publicKey])
      }).pipe(undici))
  })
})
