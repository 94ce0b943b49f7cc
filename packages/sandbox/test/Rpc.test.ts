import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE
} from "@solana/kit"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { build } from "../src/internal/build.js"
import { TOKEN_PROGRAM, transferSol } from "../src/internal/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as Options from "../src/Options.js"
import * as Rpc from "../src/Rpc.js"

/** The RPC router on a real localhost server, over a ledger whose clock moves only by `advance`. */
const TestServer = HttpServer.serve(Rpc.router).pipe(
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.provideMerge(Ledger.layer(Options.make({ slotMillis: 0 })))
)

const rpcUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const bound = server.address
  if (bound._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return `http://127.0.0.1:${bound.port}${Rpc.path}`
})

const kit = Effect.map(rpcUrl, (url) => createSolanaRpc(url))

const postJson = (body: unknown) =>
  Effect.flatMap(rpcUrl, (url) =>
    Effect.promise(async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })
      return response.json() as Promise<unknown>
    }))

/** Kit upcasts every number of a response to bigint at runtime, whatever its types say. */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v)))

const signedTransfer = (format: "legacy" | "v0" | "v1", amount: bigint) =>
  Effect.gen(function*() {
    const rpc = yield* kit
    const payer = yield* Effect.promise(() => generateKeyPairSigner())
    const destination = yield* Effect.promise(() => generateKeyPairSigner())
    yield* Effect.promise(() => rpc.requestAirdrop(payer.address, lamports(5_000_000_000n)).send())
    const { value: blockhash } = yield* Effect.promise(() => rpc.getLatestBlockhash().send())
    const built = yield* Effect.promise(() =>
      build({
        format,
        feePayer: payer.address,
        instructions: [transferSol(payer.address, destination.address, amount)],
        lifetime: blockhash,
        signers: [payer],
        budget: { computeUnitLimit: 10_000, loadedAccountsDataSizeLimit: 65_536, priorityFee: 2_000n }
      })
    )
    return { built, payer: payer.address, destination: destination.address }
  })

describe("Rpc", () => {
  it.layer(TestServer)((it) => {
    it.effect("the clock methods agree with the ledger", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const ledger = yield* Ledger.Ledger
        yield* ledger.advance(3)
        const clock = yield* ledger.clock
        const [slot, height, latest, epoch] = yield* Effect.promise(() =>
          Promise.all([
            rpc.getSlot().send(),
            rpc.getBlockHeight().send(),
            rpc.getLatestBlockhash().send(),
            rpc.getEpochInfo().send()
          ])
        )
        assert.strictEqual(slot, clock.slot)
        assert.strictEqual(height, clock.blockHeight)
        assert.strictEqual(latest.value.blockhash, clock.blockhash)
        assert.strictEqual(latest.value.lastValidBlockHeight, clock.blockHeight + 150n)
        assert.strictEqual(epoch.absoluteSlot, clock.slot)
        assert.strictEqual(epoch.blockHeight, clock.blockHeight)
      }))

    it.effect("sendTransaction (base64) lands; statuses, balances and getTransaction report it", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const ledger = yield* Ledger.Ledger
        const { built, destination } = yield* signedTransfer("v1", 1_500_000n)
        const signature = yield* Effect.promise(() =>
          rpc.sendTransaction(getBase64EncodedWireTransaction(built.transaction), { encoding: "base64" }).send()
        )
        const { value: [status] } = yield* Effect.promise(() => rpc.getSignatureStatuses([signature]).send())
        assert.strictEqual(status?.confirmationStatus, "processed")
        assert.isNull(status?.err)
        yield* ledger.advance(1)
        const { value: [confirmed] } = yield* Effect.promise(() => rpc.getSignatureStatuses([signature]).send())
        assert.strictEqual(confirmed?.confirmationStatus, "confirmed")
        const balance = yield* Effect.promise(() => rpc.getBalance(destination).send())
        assert.strictEqual(balance.value, 1_500_000n)
        const transaction = yield* Effect.promise(() =>
          rpc.getTransaction(signature, { encoding: "base64", maxSupportedTransactionVersion: 1 }).send()
        )
        assert.strictEqual(transaction?.meta?.fee, 5_000n + 2_000n)
        assert.strictEqual(transaction?.transaction[0], built.base64)
        const payerIndex = 0
        assert.strictEqual(
          (transaction?.meta?.preBalances[payerIndex] ?? 0n) - (transaction?.meta?.postBalances[payerIndex] ?? 0n),
          1_500_000n + 7_000n
        )
        // a v1 transaction needs maxSupportedTransactionVersion, as on a real RPC
        const refused = yield* postJson({
          jsonrpc: "2.0",
          id: 1,
          method: "getTransaction",
          params: [signature, { encoding: "base64" }]
        })
        assert.strictEqual((refused as { error: { code: number } }).error.code, -32015)
      }))

    it.effect("sendTransaction accepts base58 (the default encoding)", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const { built, destination } = yield* signedTransfer("legacy", 2_000_000n)
        const reply = yield* postJson({ jsonrpc: "2.0", id: 7, method: "sendTransaction", params: [built.base58] })
        const signature = (reply as { result: string }).result
        const { value: [status] } = yield* Effect.promise(() =>
          rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send()
        )
        assert.isNotNull(status)
        assert.strictEqual((yield* Effect.promise(() => rpc.getBalance(destination).send())).value, 2_000_000n)
      }))

    it.effect("a failing transaction: Kit sees a preflight failure with the logs; simulate reports the same", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const { built } = yield* signedTransfer("v0", 50_000_000_000n)
        const wire = getBase64EncodedWireTransaction(built.transaction)
        const simulation = yield* Effect.promise(() => rpc.simulateTransaction(wire, { encoding: "base64" }).send())
        assert.deepStrictEqual(plain(simulation.value.err), { InstructionError: [3, { Custom: 1 }] })
        assert.isTrue(simulation.value.logs?.some((line) => line.includes("insufficient lamports")))
        const error = yield* Effect.promise(() =>
          rpc.sendTransaction(wire, { encoding: "base64" }).send().then(() => undefined, (e: unknown) => e)
        )
        assert.isTrue(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
        if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
          assert.isTrue(error.context.logs?.some((line) => line.includes("insufficient lamports")))
        }
      }))

    it.effect("accounts: getAccountInfo of a program and of nothing; rent; airdrop", () =>
      Effect.gen(function*() {
        const rpc = yield* kit
        const program = yield* Effect.promise(() => rpc.getAccountInfo(TOKEN_PROGRAM, { encoding: "base64" }).send())
        assert.isTrue(program.value?.executable)
        const nobody = yield* Effect.promise(() => generateKeyPairSigner())
        const missing = yield* Effect.promise(() => rpc.getAccountInfo(nobody.address, { encoding: "base64" }).send())
        assert.isNull(missing.value)
        assert.strictEqual(yield* Effect.promise(() => rpc.getMinimumBalanceForRentExemption(0n).send()), 890_880n)
        yield* Effect.promise(() => rpc.requestAirdrop(nobody.address, lamports(1_000_000_000n)).send())
        const funded = yield* Effect.promise(() =>
          rpc.getMultipleAccounts([nobody.address, address(TOKEN_PROGRAM)], { encoding: "base64" }).send()
        )
        assert.strictEqual(funded.value[0]?.lamports, 1_000_000_000n)
      }))

    it.effect("JSON-RPC envelope: batches, unknown methods, bad params, parse errors", () =>
      Effect.gen(function*() {
        const batch = yield* postJson([
          { jsonrpc: "2.0", id: 1, method: "getHealth" },
          { jsonrpc: "2.0", id: 2, method: "noSuchMethod" },
          { jsonrpc: "2.0", id: 3, method: "getBalance", params: [42] }
        ])
        const [health, unknown, bad] = batch as ReadonlyArray<{ jsonrpc: string; id: number; result?: unknown; error?: { code: number } }>
        assert.deepStrictEqual(health, { jsonrpc: "2.0", id: 1, result: "ok" })
        assert.strictEqual(unknown?.error?.code, -32601)
        assert.strictEqual(bad?.error?.code, -32602)
        const parse = yield* postJson("{not json")
        assert.strictEqual((parse as { error: { code: number } }).error.code, -32700)
      }))
  })
})
