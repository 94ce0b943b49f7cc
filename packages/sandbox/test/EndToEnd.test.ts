/**
 * The whole sandbox end to end, as a user sees it: the service over HTTP, the ledger through
 * Kit's real RPC client at `/rpc`, and a plain Kit signer.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Claims, Plan, Trade } from "@feeshare/domain"
import {
  type Address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
  type Signature,
  signBytes
} from "@solana/kit"
import { Effect } from "effect"
import { associatedTokenAddress, NATIVE_MINT, tokenAmount } from "../src/internal/model/programs.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import { call, decodeSuccess } from "./support/http.js"
import { verifyStage } from "./support/ledgerWallet.js"

const SOL = 1_000_000_000n

const rpc = Effect.map(Server.SandboxInfo, (info) => createSolanaRpc(info.rpcUrl))

/** Calls an operation with `apiKey` and decodes its success with the endpoint's schema. */
const op = <A>(
  group: string,
  name: string,
  apiKey: string,
  options: { query?: Record<string, string>; body?: unknown }
) => Effect.map(call(group, name, { ...options, apiKey }), (reply) => decodeSuccess(group, name, reply) as A)

/** Co-signs wire text with `signer` and sends it through Kit's RPC client; asserts it landed. */
const sendSigned = (text: string, encoding: "base58" | "base64", signer: KeyPairSigner) =>
  Effect.gen(function*() {
    const client = yield* rpc
    const bytes = encoding === "base58" ? getBase58Encoder().encode(text) : getBase64Encoder().encode(text)
    const signed = yield* Effect.promise(() =>
      partiallySignTransaction([signer.keyPair], getTransactionDecoder().decode(bytes))
    )
    const signature = yield* Effect.promise(() =>
      client.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send()
    )
    const { value: [status] } = yield* Effect.promise(() =>
      client.getSignatureStatuses([signature as Signature]).send()
    )
    assert.isNotNull(status, "landed")
    assert.isNull(status?.err ?? null)
    return signature
  })

const wsolBalance = (owner: Address) =>
  Effect.gen(function*() {
    const client = yield* rpc
    const ata = yield* Effect.promise(() => associatedTokenAddress(owner, NATIVE_MINT))
    const { value } = yield* Effect.promise(() => client.getAccountInfo(ata, { encoding: "base64" }).send())
    return value === null ? 0n : (tokenAmount(getBase64Encoder().encode(value.data[0]) as Uint8Array) ?? 0n)
  })

describe("end to end", () => {
  it.effect("login by wallet signature → token and 3-way fee share → launch → swaps → v0 claim plan → landed", () =>
    Effect.gen(function*() {
      const creator = yield* Effect.promise(() => generateKeyPairSigner())
      const b = yield* Effect.promise(() => generateKeyPairSigner())
      const c = yield* Effect.promise(() => generateKeyPairSigner())

      // log in: sign the decoded challenge bytes with the wallet key
      const challenge = decodeSuccess(
        "agentAuth",
        "init",
        yield* call("agentAuth", "init", { apiKey: null, body: { address: creator.address } })
      ) as { message: string; nonce: string }
      const signature = yield* Effect.promise(() =>
        signBytes(creator.keyPair.privateKey, getBase58Encoder().encode(challenge.message))
      )
      const callback = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: {
          signature: getBase58Decoder().decode(signature),
          address: creator.address,
          nonce: challenge.nonce,
          keyName: "e2e"
        }
      })
      decodeSuccess("agentAuth", "callback", callback)
      // the decoded credential carries the key as `Redacted`; the wire has it in clear, once
      const key = (callback.json as { response: { apiKey: string } }).response.apiKey

      for (const wallet of [creator, b, c]) {
        yield* op("sandbox", "airdrop", key, { body: { address: wallet.address, lamports: String(50n * SOL) } })
      }
      const created = yield* op<{ mint: string; configKey: string }>("sandbox", "createToken", key, {
        body: { creator: creator.address }
      })
      yield* op("sandbox", "createFeeShareConfig", key, {
        body: {
          mint: created.mint,
          admin: creator.address,
          claimers: [
            { wallet: creator.address, bps: 5_000 },
            { wallet: b.address, bps: 3_000 },
            { wallet: c.address, bps: 2_000 }
          ]
        }
      })
      const launch = yield* op<string>("launch", "createTransaction", key, {
        body: {
          ipfs: "ipfs://e2e",
          tokenMint: created.mint,
          wallet: creator.address,
          configKey: created.configKey,
          initialBuyLamports: 0
        }
      })
      yield* sendSigned(launch, "base58", creator)

      // swaps: buy then sell, signed by a trader, sent through /rpc
      let fees = 0n
      const swap = (inputMint: string, outputMint: string, amount: bigint) =>
        Effect.gen(function*() {
          const reply = yield* call("trade", "quote", {
            apiKey: key,
            query: { inputMint, outputMint, amount: amount.toString() }
          })
          const quote = decodeSuccess("trade", "quote", reply) as Trade.TradeQuote
          fees += quote.platformFee?.amount ?? 0n
          // the quote goes back exactly as received
          const result = yield* op<Trade.SwapResult>("trade", "swap", key, {
            body: { quoteResponse: (reply.json as { response: unknown }).response, userPublicKey: creator.address }
          })
          yield* sendSigned(result.swapTransaction, "base58", creator)
          return quote
        })
      yield* swap(NATIVE_MINT, created.mint, 3n * SOL)
      yield* swap(NATIVE_MINT, created.mint, SOL)
      const lifetime = yield* op<bigint>("analytics", "lifetimeFees", key, { query: { tokenMint: created.mint } })
      assert.strictEqual(lifetime, fees)

      const [position] = yield* op<ReadonlyArray<Claims.ClaimablePosition>>("claims", "positions", key, {
        query: { wallet: b.address }
      })
      const claimable = BigInt(position?.totalClaimableLamportsUserShare ?? 0)
      assert.strictEqual(claimable, (fees * 3_000n) / 10_000n)

      // the claim plan: setup_required → land the lookup-table stages → warm-up → ready → landed
      const body = { feeClaimer: b.address, tokenMint: created.mint, transactionFormat: "v0" }
      const setup = yield* op<Plan.TransactionPlan>("claims", "createPlan", key, { body })
      assert.strictEqual(setup.readiness.status, "setup_required")
      assert.isTrue(setup.transactions.every((s) => s.kind === "lookup_table_setup"))
      for (const stage of setup.transactions) {
        yield* verifyStage(stage)
        yield* sendSigned(stage.transaction, "base64", b)
      }
      const warming = yield* op<Plan.TransactionPlan>("claims", "createPlan", key, { body })
      assert.deepStrictEqual([warming.readiness.status, warming.transactions.length], ["setup_required", 0])
      yield* op("sandbox", "advanceSlots", key, { body: { slots: 1 } })
      const plan = yield* op<Plan.TransactionPlan>("claims", "createPlan", key, { body })
      assert.strictEqual(plan.readiness.status, "ready")
      const before = yield* wsolBalance(b.address)
      for (const stage of plan.transactions) {
        yield* verifyStage(stage)
        yield* sendSigned(stage.transaction, "base64", b)
      }
      assert.strictEqual((yield* wsolBalance(b.address)) - before, claimable)

      const stats = yield* op<ReadonlyArray<{ wallet: string; totalClaimed: bigint }>>("analytics", "claimStats", key, {
        query: { tokenMint: created.mint }
      })
      assert.strictEqual(stats.find((s) => s.wallet === b.address)?.totalClaimed, claimable)
      assert.deepStrictEqual(yield* op("claims", "positions", key, { query: { wallet: b.address } }), [])
      const nothing = yield* call("claims", "createPlan", { apiKey: key, body })
      assert.strictEqual(nothing.status, 400)
      assert.strictEqual(
        yield* op<bigint>("analytics", "lifetimeFees", key, { query: { tokenMint: created.mint } }),
        fees
      )
    }).pipe(Effect.provide(Sandbox.layer({ slotMillis: 0, seed: "e2e" }))))
})
