/**
 * `ClaimAll.run` with the real client (`client.claims` as its calls) on the seeded sandbox:
 * the demo wallet's positions (v3), its deployer position (the migrated DEMO token) and a
 * partner vault (a token set up with the demo wallet as its partner) are claimed for real on
 * the ledger, the wallet's wrapped-SOL account rises by exactly what was owed, and a second
 * run finds nothing to claim and says so. A dry run verifies everything and signs nothing.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { ClaimTransactions, type Signer } from "@feeshare/domain"
import { Ledger } from "@feeshare/sandbox/Ledger"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as Signers from "@feeshare/solana/Signers"
import { type Address, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit"
import { Effect, Layer, Option, Redacted } from "effect"
import { FeeShareClient } from "../src/index.js"

const SOL = 1_000_000_000n
const wrappedSol = ClaimTransactions.wrappedSolMint
const landed = { commitment: "processed" } as const

const client = Effect.flatMap(
  SandboxInfo,
  (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
)

const setup = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: info.rootUrl }), (api) => api.sandbox)
)

const onChain = (wallet: Signer.Signer.Service) =>
  Layer.unwrapEffect(
    Effect.map(SandboxInfo, (info) =>
      Layer.merge(Signers.layer(wallet), ChainRpc.layer(info.rpcUrl, { pollInterval: "5 millis" })))
  )

/** The raw amount of `owner`'s wrapped-SOL associated token account (0 when it has none). */
const wrappedSolBalance = (owner: string) =>
  Effect.gen(function*() {
    const encoder = getAddressEncoder()
    const [ata] = yield* Effect.promise(() =>
      getProgramDerivedAddress({
        programAddress: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL" as Address,
        seeds: [
          encoder.encode(owner as Address),
          encoder.encode("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" as Address),
          encoder.encode(wrappedSol as Address)
        ]
      })
    )
    const account = yield* (yield* Ledger).account(ata)
    return Option.match(account, {
      onNone: () => 0n,
      onSome: ({ data }) => new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true)
    })
  })

/** The seeded demo wallet, made the partner of one more token that trades (so it has a partner vault). */
const seeded = Effect.gen(function*() {
  const info = yield* SandboxInfo
  const seed = yield* Seed.make(info.options.seed)
  const secret = yield* LocalSigner.parseKeygenJson(Redacted.value(seed.demoKeygen), "demo")
  const demo = yield* LocalSigner.fromSecretKey(secret, "demo")
  const api = yield* client
  const sandbox = yield* setup
  const [creator, trader] = yield* Effect.all([LocalSigner.generate, LocalSigner.generate])
  for (const wallet of [creator, trader]) {
    yield* sandbox.airdrop({ payload: { address: wallet.publicKey, lamports: 20n * SOL } })
  }
  const token = yield* sandbox.createToken({ payload: { creator: creator.publicKey, symbol: "PART" } })
  yield* sandbox.createFeeShareConfig({
    payload: {
      mint: token.mint,
      admin: creator.publicKey,
      partner: demo.publicKey,
      claimers: [{ wallet: creator.publicKey, bps: 10_000 }]
    }
  })
  const launch = yield* api.launch.createTransaction({
    ipfs: "ipfs://claim-all",
    initialBuyLamports: 0,
    tokenMint: token.mint,
    wallet: creator.publicKey,
    configKey: token.configKey
  })
  yield* Flows.launch(launch, { ...landed, mint: token.mint }).pipe(Effect.provide(onChain(creator)))
  const quote = yield* api.trade.quote({ inputMint: wrappedSol, outputMint: token.mint, amount: 2n * SOL })
  const swap = yield* api.trade.swap({ quoteResponse: quote, userPublicKey: trader.publicKey })
  yield* Flows.swap(swap, landed).pipe(Effect.provide(onChain(trader)))
  return { demo, api }
})

describe("ClaimAll on the seeded sandbox", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 0, seed: "client-claim-all" }), { excludeTestServices: true })(
    (it) => {
      it.scoped(
        "claims positions, the partner vault and the deployer position; the balance rises by exactly what was owed; a second run has nothing",
        () =>
          Effect.gen(function*() {
            const { api, demo } = yield* seeded
            const count = { signed: 0 }
            const signer: Signer.Signer.Service = {
              publicKey: demo.publicKey,
              signMessage: (message) => Effect.suspend(() => (count.signed++, demo.signMessage(message)))
            }

            // a dry run: every item verified, nothing signed, nothing paid
            const before = yield* wrappedSolBalance(demo.publicKey)
            const dry = yield* ClaimAll.run(api.claims, { ...landed, dryRun: true }).pipe(
              Effect.provide(onChain(signer))
            )
            assert.strictEqual(count.signed, 0)
            assert.isTrue(
              dry.items.every((item) => item.state === "verified"),
              JSON.stringify(dry.items.map((i) => i.state))
            )
            assert.strictEqual(yield* wrappedSolBalance(demo.publicKey), before)

            const rows: Array<ClaimAll.Item> = []
            const result = yield* ClaimAll.run(api.claims, {
              ...landed,
              deployerBatchSize: 1,
              onItem: (item) => Effect.sync(() => rows.push(item))
            }).pipe(Effect.provide(onChain(signer)))
            const kinds = new Set(result.items.map((item) => item.kind))
            assert.deepStrictEqual([...kinds].sort(), ["deployer", "position", "vault"])
            assert.isTrue(result.items.some((item) => item.kind === "position" && item.route === "v3"))
            assert.isTrue(result.items.some((item) => item.kind === "vault" && item.subject === "partner vault"))
            assert.isTrue(result.complete, JSON.stringify(result.items.map((i) => [i.kind, i.state, i.error])))
            assert.isTrue(result.items.every((item) => item.state === "claimed" && item.stages > 0))
            assert.isAbove(count.signed, 2)
            const owed = result.items.reduce((total, item) => total + item.amount, 0n)
            assert.deepStrictEqual(result.totals, [{ asset: wrappedSol, decimals: 9, owed, claimed: owed }])
            assert.strictEqual((yield* wrappedSolBalance(demo.publicKey)) - before, owed)
            // the live rows: each item listed pending, then ended claimed
            assert.isTrue(rows.some((row) => row.state === "pending"))
            assert.strictEqual(rows.filter((row) => row.state === "claimed").length, result.items.length)

            // everything is claimed: the listings owe nothing, and the second run says so
            const signedBefore = count.signed
            const again = yield* ClaimAll.run(api.claims, landed).pipe(Effect.provide(onChain(signer)))
            assert.isTrue(again.nothingToClaim)
            assert.deepStrictEqual(again.items, [])
            assert.strictEqual(count.signed, signedBefore)
            assert.strictEqual(
              (yield* Effect.flip(
                api.claims.claimVault({ kind: "partner", wallet: demo.publicKey, quoteMint: wrappedSol })
              ))
                .message.startsWith(ClaimTransactions.nothingToClaimMessage),
              true
            )
          }).pipe(Effect.provide(NodeHttpClient.layerUndici))
      )
    }
  )
})
