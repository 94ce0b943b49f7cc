/**
 * `@feeshare/solana/TokenAccount` against the sandbox's ledger over its JSON-RPC: associated
 * token addresses as the ATA program derives them, balances read from real token accounts of
 * both programs, what a transfer paid, and a node whose answer is not an account.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Claims } from "@feeshare/domain"
import { ChainUnavailable } from "@feeshare/solana/Chain"
import * as LedgerReads from "@feeshare/solana/LedgerReads"
import * as TokenAccount from "@feeshare/solana/TokenAccount"
import { type Address, generateKeyPairSigner } from "@solana/kit"
import { Effect, FastCheck as fc, Option } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as Programs from "../src/internal/model/programs.js"
import { Market } from "../src/Market.js"
import * as Sandbox from "../src/Sandbox.js"
import { SandboxInfo } from "../src/Server.js"

const address = Effect.map(Effect.promise(() => generateKeyPairSigner()), (signer) => signer.address)

/** A JSON-RPC node that answers every call with `result`. */
const nodeAnswering = (result: unknown) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly close: () => void }>((resume) => {
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk: Buffer) => (body += chunk.toString()))
        request.on("end", () => {
          const { id } = JSON.parse(body) as { id: number }
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ jsonrpc: "2.0", id, result }))
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })))
    }),
    (node) => Effect.sync(node.close)
  )

describe("TokenAccount", () => {
  it.effect("the associated token address is the ATA program's, for both token programs", () =>
    Effect.gen(function*() {
      const samples = fc.sample(fc.constantFrom(Claims.tokenPrograms.token, Claims.tokenPrograms["token-2022"]), 6)
      for (const tokenProgram of samples) {
        const [owner, mint] = [yield* address, yield* address]
        assert.strictEqual(
          yield* TokenAccount.associatedTokenAddress(owner, { mint, tokenProgram }),
          yield* Effect.promise(() => Programs.associatedTokenAddress(owner, mint, tokenProgram as Address))
        )
      }
    }))

  it("amountOf reads the amount of a token account, and nothing from shorter data", () => {
    const data = new Uint8Array(165)
    new DataView(data.buffer).setBigUint64(64, 18_446_744_073_709_551_615n, true)
    assert.deepStrictEqual(TokenAccount.amountOf(data), Option.some(18_446_744_073_709_551_615n))
    assert.deepStrictEqual(TokenAccount.amountOf(data.subarray(0, 164)), Option.none())
  })

  it.scoped("a node whose answer is not an account: ChainUnavailable saying so, and measurePaid does not fail", () =>
    Effect.gen(function*() {
      const node = yield* nodeAnswering({ context: { slot: 1 }, value: [null] })
      const reads = LedgerReads.layerRpc(node.url)
      const owner = yield* address
      const asset = { mint: TokenAccount.nativeMint, tokenProgram: Claims.tokenPrograms.token }
      const error = yield* Effect.flip(Effect.provide(TokenAccount.balance(owner, asset), reads))
      assert.instanceOf(error, ChainUnavailable)
      assert.include(error.message, "the answer is not an account")
      const measured = yield* Effect.provide(TokenAccount.measurePaid(owner, asset, Effect.succeed("ran")), reads)
      assert.deepStrictEqual(measured, { result: "ran", paid: undefined })
    }))

  layer(Sandbox.layer({ port: 0, slotMillis: 0, seed: "token-account-test" }))((it) => {
    it.effect("the balance of a real Token-2022 account; what funding a holding paid into its vault", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const market = yield* Market
        const reads = LedgerReads.layerRpc(info.rpcUrl)
        const created = yield* market.createToken({ creator: yield* address })
        const claimer = yield* address
        // the holding vault of the Token-2022 quote mint is the authority's associated account
        const quote = (yield* market.quoteMints).find((q) => q.tokenProgram === Claims.tokenPrograms["token-2022"])!
        const asset = { mint: quote.mint, tokenProgram: quote.tokenProgram }
        const fund = (lamports: bigint) =>
          market.createHolding({ mint: created.mint, claimer, lamports, quoteMint: quote.mint })
        const { authority } = yield* fund(1n)
        const { paid } = yield* Effect.provide(TokenAccount.measurePaid(authority, asset, fund(7_000_000n)), reads)
        assert.strictEqual(paid, 7_000_000n)
        assert.strictEqual(yield* Effect.provide(TokenAccount.balance(authority, asset), reads), 7_000_001n)
        // the same owner's account under the other program does not exist
        const standard = { ...asset, tokenProgram: Claims.tokenPrograms.token }
        assert.strictEqual(yield* Effect.provide(TokenAccount.balance(authority, standard), reads), 0n)
      }))
  })
})
