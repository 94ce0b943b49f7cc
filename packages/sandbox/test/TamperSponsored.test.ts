/**
 * `--tamper sponsor-*` on the gas-sponsored vault sweep (`claim-vault`) and the deployer's
 * claim batch, and the `tx-*` kinds on the v3 claim: each tampered answer is refused by the
 * client's verification with the refusal its kind promises, with nothing signed; the next
 * answer, untampered, is signed and lands, and pays exactly what the vault held.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Api } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import type { KeyPairSigner } from "@solana/kit"
import { Effect, Redacted } from "effect"
import * as History from "../src/History.js"
import * as Programs from "../src/internal/model/programs.js"
import { Market } from "../src/Market.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import type * as Tamper from "../src/Tamper.js"
import { assertLanded, signAndSend, SOL, tokenBalance, wallet } from "./support/ledgerWallet.js"

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

/** A signer of `key` that counts what it signs. */
const counting = (key: KeyPairSigner) => {
  const local = LocalSigner.fromKeyPairSigner(key)
  const count = { signed: 0 }
  const signer = {
    publicKey: local.publicKey,
    signMessage: (message: Uint8Array) =>
      Effect.suspend(() => {
        count.signed++
        return local.signMessage(message)
      })
  }
  return { count, signer }
}

/**
 * A migrated (DAMM v2) token whose deployer is `deployer` and whose partner is `partner`,
 * launched and traded: both are owed a share of every fee.
 */
const owedToken = (deployer: KeyPairSigner, partner: KeyPairSigner) =>
  Effect.gen(function*() {
    const market = yield* Market
    const trader = yield* wallet()
    const created = yield* market.createToken({ creator: deployer.address, flow: "damm_v2_direct" })
    yield* market.createFeeShareConfig({
      mint: created.mint,
      admin: deployer.address,
      partner: partner.address,
      claimers: [{ wallet: deployer.address, bps: 10_000 }]
    })
    const launch = yield* market.launch({
      ipfs: "ipfs://sponsored",
      tokenMint: created.mint,
      wallet: deployer.address,
      configKey: created.configKey,
      initialBuyLamports: 0
    })
    yield* assertLanded(yield* signAndSend(launch, "base58", [deployer]))
    const quote = yield* market.quote({ inputMint: Programs.NATIVE_MINT, outputMint: created.mint, amount: 2n * SOL })
    const swap = yield* market.swap({ quoteResponse: quote, userPublicKey: trader.address })
    yield* assertLanded(yield* signAndSend(swap.swapTransaction, "base58", [trader]))
    return created
  })

const wsol = (owner: string) =>
  Effect.flatMap(
    Effect.promise(() => Programs.associatedTokenAddress(owner as never, Programs.NATIVE_MINT)),
    (ata) => Effect.map(Effect.either(tokenBalance(ata)), (balance) => balance._tag === "Right" ? balance.right : 0n)
  )

const sponsoredKinds: ReadonlyArray<Tamper.SponsoredKind> = [
  "sponsor-fee-payer",
  "sponsor-destination",
  "sponsor-extra-transfer"
]

const expected: { readonly [K in Tamper.SponsoredKind]: string } = {
  "sponsor-fee-payer": "FeePayerMismatch",
  "sponsor-destination": "DestinationMismatch",
  "sponsor-extra-transfer": "WalletOutflow"
}

describe("Tamper: gas-sponsored claims and the v3 claim", () => {
  it.live("each sponsored kind on the vault sweep is refused by its check, nothing signed; then the sweep lands", () =>
    Effect.gen(function*() {
      const api = yield* client
      const deployer = yield* wallet(10n * SOL)
      const partner = yield* wallet(SOL)
      yield* owedToken(deployer, partner)
      const { count, signer } = counting(partner)
      const request = { kind: "partner" as const, wallet: partner.address, quoteMint: Programs.NATIVE_MINT }
      for (const kind of sponsoredKinds) {
        const answer = yield* api.claims.claimVault({ payload: request })
        const refusal = yield* Effect.flip(WireTransaction.verifyVaultClaim(answer, [signer]))
        assert.strictEqual(refusal._tag, expected[kind], kind)
        assert.include(refusal.message, "vault partner")
      }
      assert.strictEqual(count.signed, 0, "nothing was signed")
      const before = yield* wsol(partner.address)
      const answer = yield* api.claims.claimVault({ payload: request })
      assert.isTrue(answer.claimable.claimableAmount > 0n)
      const verified = yield* WireTransaction.verifyVaultClaim(answer, [signer])
      const signed = yield* WireTransaction.sign(verified)
      assert.strictEqual(count.signed, 1)
      yield* assertLanded(yield* signAndSend(signed.text, "base58", []))
      assert.strictEqual((yield* wsol(partner.address)) - before, answer.claimable.claimableAmount)
      // the explorer names the landed sweep
      const history = yield* History.History
      const sweep = history.snapshot(0n).transactions.find((entry) => entry.signature === signed.signature)
      assert.strictEqual(sweep?.kind, "vault-sweep")
      assert.include(sweep?.label, "partner vault")
      // the vault is empty now: the service says so with a 400 "Nothing to claim"
      const again = yield* Effect.flip(api.claims.claimVault({ payload: request }))
      assert.strictEqual(again._tag, "BadRequest")
      assert.match(again.message, /^Nothing to claim/)
    }).pipe(Effect.provide(Sandbox.layer({
      seed: "tamper-sponsored",
      slotMillis: 0,
      tamper: sponsoredKinds.map((kind) => ({ kind, plans: 1 }))
    }))))

  it.live("a sponsored kind on the deployer batch and tx-fee-payer on the v3 claim are refused, nothing signed", () =>
    Effect.gen(function*() {
      const api = yield* client
      const deployer = yield* wallet(10n * SOL)
      const partner = yield* wallet(SOL)
      const token = yield* owedToken(deployer, partner)
      const { count, signer } = counting(deployer)
      const positions = yield* api.claims.deployerPositions({ urlParams: { wallet: deployer.address } })
      assert.isNotNull(positions.vault)
      assert.isNotEmpty(positions.tokens)
      const batch = yield* api.claims.deployerClaim({ payload: { wallet: deployer.address } })
      const first = batch.transactions[0]
      assert.isDefined(first)
      const refusal = yield* Effect.flip(WireTransaction.verifyDeployerClaim(first!, [signer], {
        label: "deployer 0",
        quoteMint: positions.quoteMint,
        vault: positions.vault
      }))
      assert.strictEqual(refusal._tag, "DestinationMismatch")
      const v3 = yield* api.claims.claimV3({ payload: { feeClaimer: deployer.address, tokenMint: token.mint } })
      const v3Refusal = yield* Effect.flip(WireTransaction.verifyV3(v3[0]!, [signer], "v3 0"))
      assert.strictEqual(v3Refusal._tag, "FeePayerMismatch")
      assert.strictEqual(count.signed, 0, "nothing was signed")
      // untampered now: both verify
      const clean = yield* api.claims.deployerClaim({ payload: { wallet: deployer.address } })
      yield* Effect.forEach(clean.transactions, (entry, i) =>
        WireTransaction.verifyDeployerClaim(entry, [signer], {
          label: `deployer ${i}`,
          quoteMint: positions.quoteMint,
          vault: positions.vault
        }))
      const cleanV3 = yield* api.claims.claimV3({ payload: { feeClaimer: deployer.address, tokenMint: token.mint } })
      yield* WireTransaction.verifyV3(cleanV3[0]!, [signer], "v3 0")
    }).pipe(Effect.provide(Sandbox.layer({
      seed: "tamper-sponsored-deployer",
      slotMillis: 0,
      tamper: [{ kind: "sponsor-destination", plans: 1 }, { kind: "tx-fee-payer", plans: 1 }]
    }))))
})
