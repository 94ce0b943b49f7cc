/**
 * `--tamper` on the transactions served without plan metadata (config creation's entries, the
 * launch transaction): every transaction kind is refused by the client's flows with the
 * refusal it promises, before anything is signed; and `Options.tamper` serves them tampered.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Api } from "@feeshare/domain"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as Signers from "@feeshare/solana/Signers"
import type { KeyPairSigner } from "@solana/kit"
import { Effect, Layer, Redacted } from "effect"
import * as Seeded from "../src/internal/model/seeded.js"
import * as LedgerChain from "../src/LedgerChain.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import * as Tamper from "../src/Tamper.js"
import { SOL, wallet } from "./support/ledgerWallet.js"

/** The served API with the sandbox's demo key. */
const client = Effect.gen(function*() {
  const info = yield* Server.SandboxInfo
  return yield* HttpApiClient.make(Server.FullApi, {
    baseUrl: info.rootUrl,
    transformClient: HttpClient.mapRequest(
      HttpClientRequest.setHeader(Api.apiKeyHeader, Redacted.value(info.demoApiKey))
    )
  })
}).pipe(Effect.provide(FetchHttpClient.layer))

/** The payer's signer, counting what it signs, and the ledger as the chain. */
const counting = (payer: KeyPairSigner) => {
  const local = LocalSigner.fromKeyPairSigner(payer)
  const count = { signed: 0 }
  const layer = Layer.merge(
    Signers.layer({
      publicKey: local.publicKey,
      signMessage: (message) =>
        Effect.suspend(() => {
          count.signed++
          return local.signMessage(message)
        })
    }),
    LedgerChain.layer({ slotMillis: 0 })
  )
  return { count, layer }
}

/** A funded payer, its token, a config-creation answer (3 claimers) and the launch transaction. */
const answers = Effect.gen(function*() {
  const api = yield* client
  const payer = yield* wallet(10n * SOL)
  const [b, c] = [yield* wallet(0n), yield* wallet(0n)]
  const token = yield* api.sandbox.createToken({ payload: { creator: payer.address } })
  const config = yield* api.feeShare.createConfig({
    payload: {
      payer: payer.address,
      baseMint: token.mint,
      claimersArray: [payer.address, b.address, c.address],
      basisPointsArray: [5_000, 3_000, 2_000]
    }
  })
  const launch = yield* api.launch.createTransaction({
    payload: {
      ipfs: "ipfs://tamper",
      tokenMint: token.mint,
      wallet: payer.address,
      initialBuyLamports: 0,
      configKey: token.configKey
    }
  })
  return { payer, token, config, launch }
})

const refusalOf = <E extends { readonly _tag: string }, R>(effect: Effect.Effect<unknown, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("Tamper: transactions without plan metadata", () => {
  it.live("every transaction kind is refused by createConfig and launch with its refusal; nothing is signed", () =>
    Effect.gen(function*() {
      const { config, launch, payer, token } = yield* answers
      const { count, layer } = counting(payer)
      assert.isNotEmpty(Tamper.transactionKinds)
      for (const kind of Tamper.transactionKinds) {
        for (const seed of ["a", "b", "c"]) {
          const tampered = Tamper.applyToConfig(config, kind, Seeded.stream(seed, kind))
          assert.isDefined(tampered)
          const tag = yield* refusalOf(
            Flows.createConfig(tampered?.answer ?? config, { commitment: "processed" }).pipe(Effect.provide(layer))
          )
          assert.strictEqual(tag, Tamper.kinds[kind].refusal, `${kind} on ${tampered?.entry}`)
        }
        if (kind !== "tx-wrong-blockhash") {
          const text = Tamper.applyToText(launch, kind, Seeded.stream("launch", kind))
          const tag = yield* refusalOf(
            Flows.launch(text, { mint: token.mint, commitment: "processed" }).pipe(Effect.provide(layer))
          )
          assert.strictEqual(tag, Tamper.kinds[kind].refusal, `${kind} on the launch`)
        }
      }
      assert.strictEqual(count.signed, 0, "nothing was signed")
      // the same answers untampered are signed and land: the count would have seen a signature
      const created = yield* Flows.createConfig(config, { commitment: "processed" }).pipe(Effect.provide(layer))
      assert.isTrue(created.created)
      yield* Flows.launch(launch, { mint: token.mint, commitment: "processed" }).pipe(Effect.provide(layer))
      assert.strictEqual(count.signed, 3)
    }).pipe(Effect.provide(Sandbox.layer({ seed: "tamper-transactions", slotMillis: 0 }))))

  it.live("Options.tamper serves the next config answer and the next launch tampered, then as built", () =>
    Effect.gen(function*() {
      const first = yield* answers
      const { count, layer } = counting(first.payer)
      assert.strictEqual(
        yield* refusalOf(Flows.createConfig(first.config).pipe(Effect.provide(layer))),
        "FeePayerMismatch"
      )
      assert.strictEqual(
        yield* refusalOf(Flows.launch(first.launch, { mint: first.token.mint }).pipe(Effect.provide(layer))),
        "SignatureUnavailable"
      )
      assert.strictEqual(count.signed, 0)
      const second = yield* answers
      const next = counting(second.payer)
      const created: Flows.ConfigCreated = yield* Flows.createConfig(second.config, { commitment: "processed" }).pipe(
        Effect.provide(next.layer)
      )
      assert.isTrue(created.created)
    }).pipe(
      Effect.provide(
        Sandbox.layer({
          seed: "tamper-transactions-options",
          slotMillis: 0,
          tamper: [{ kind: "tx-fee-payer", plans: 1 }, { kind: "tx-empty-slot", plans: 1 }]
        })
      )
    ))
})
