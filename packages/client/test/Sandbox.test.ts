/**
 * Every operation's happy path through the client against the real sandbox (`Sandbox.layer`:
 * the service over HTTP on a LiteSVM ledger, real agent authentication, real rate-limit
 * headers). What an operation needs is created with the sandbox-only set-up routes
 * (`SandboxApi`); the transactions the service builds are verified, signed and landed on the
 * sandbox's ledger through its `/rpc` with `@feeshare/solana`, so that fees accrue and claims
 * pay out for real. The block clock is frozen (`slotMillis: 0`): transactions land at
 * `processed` on their first poll and no blockhash expires mid-test.
 *
 * One sandbox for the file; every test creates its own wallets, tokens and keys.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { AgentAuth, type Claims, FeeShareError, PublicKey, RateLimit } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as Totp from "@feeshare/sandbox/Totp"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import type { Signer } from "@feeshare/domain"
import { assert, describe, layer } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { Clock, Effect, Layer, Option, Redacted, SubscriptionRef } from "effect"
import { FeeShareClient } from "../src/index.js"

const SOL = 1_000_000_000n

/** The client on the running sandbox, with `apiKey` when given (the test provides the transport). */
const clientWith = (apiKey?: Redacted.Redacted<string>) =>
  Effect.flatMap(SandboxInfo, (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey }))

/** The sandbox-only set-up operations, typed from `SandboxApi`. */
const setup = Effect.flatMap(SandboxInfo, (info) =>
  Effect.map(HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: info.rootUrl }), (client) => client.sandbox))

/** Node's undici transport, for the test's lifetime (it outlives the clients built on it). */
const undici = Effect.provide(NodeHttpClient.layerUndici)

/** `Signers` (for `wallet`) and the sandbox's ledger as the `Chain`. */
const onChain = (wallet: Signer.Signer.Service) =>
  Layer.unwrapEffect(Effect.map(SandboxInfo, (info) =>
    Layer.merge(Signers.layer(wallet), ChainRpc.layer(info.rpcUrl, { pollInterval: "5 millis" }))))

const landed = { commitment: "processed" } as const

/** A new API key for a fresh wallet, by wallet signature. */
const loginFresh = (keyName: string) =>
  Effect.gen(function*() {
    const wallet = yield* LocalSigner.generate
    const anonymous = yield* clientWith()
    const credential = yield* anonymous.agentAuth.login({ signer: wallet, keyName })
    return { wallet, credential }
  })

describe("FeeShareClient against the sandbox", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 0, seed: "client-sandbox" }), { excludeTestServices: true })(
    (it) => {
      it.scoped("agentAuth: login, init and callback with a real Ed25519 key; the key works for me and ping", () =>
        Effect.gen(function*() {
          const { credential, wallet } = yield* loginFresh("client-test")
          assert.isTrue(credential.isSignup)
          assert.isNotEmpty(Redacted.value(credential.apiKey))

          // init and callback by hand: the same wallet gets a second key, not a new account
          const anonymous = yield* clientWith()
          const challenge = yield* anonymous.agentAuth.init({ address: wallet.publicKey })
          const message = PublicKey.base58.decode(challenge.message)
          assert.isDefined(message)
          const signature = yield* wallet.signMessage(message ?? new Uint8Array())
          const answer = yield* anonymous.agentAuth.callback({
            signature: PublicKey.base58.encode(signature),
            address: wallet.publicKey,
            nonce: challenge.nonce,
            keyName: "by-hand"
          })
          assert.isFalse(AgentAuth.isMfaRequired(answer))
          if (AgentAuth.isMfaRequired(answer)) return
          assert.isFalse(answer.isSignup)
          assert.notStrictEqual(answer.keyId, credential.keyId)

          // both keys belong to the same agent user
          const first = yield* clientWith(credential.apiKey)
          const second = yield* clientWith(answer.apiKey)
          const me = yield* first.identity.me()
          assert.strictEqual(me.user.type, "agent")
          assert.strictEqual((yield* second.identity.me()).user.uuid, me.user.uuid)

          // ping answers and refreshes the rate-limit snapshot from the sandbox's headers
          assert.deepStrictEqual(yield* first.ping(), { message: "pong" })
          const limit = yield* SubscriptionRef.get(first.rateLimit)
          assert.isTrue(Option.isSome(limit))
          if (Option.isSome(limit)) {
            assertInstanceOf(limit.value, RateLimit.RateLimitInfo)
            assert.isAbove(limit.value.limit, 0)
            assert.isBelow(limit.value.remaining, limit.value.limit)
          }
        }).pipe(undici))

      it.scoped("agentAuth.login with MFA: MfaRequired without a code, a credential with the TOTP code", () =>
        Effect.gen(function*() {
          const sandbox = yield* setup
          const { credential, wallet } = yield* loginFresh("before-mfa")
          const secret = Totp.fromBase32((yield* sandbox.enableMfa({ payload: { wallet: wallet.publicKey } })).secret)
          assert.isDefined(secret)
          const anonymous = yield* clientWith()
          const asked = yield* Effect.flip(anonymous.agentAuth.login({ signer: wallet, keyName: "mfa" }))
          assertInstanceOf(asked, FeeShareError.MfaRequired)
          assert.strictEqual(asked.method, "totp")
          const code = Effect.map(Clock.currentTimeMillis, (now) => Totp.generate(secret ?? new Uint8Array(), now))
          const second = yield* anonymous.agentAuth.login({ signer: wallet, keyName: "mfa", mfaCode: code })
          assert.isFalse(second.isSignup)
          assert.notStrictEqual(second.keyId, credential.keyId)
        }).pipe(undici))

      it.scoped(
        "a token's life: launch, quote and swap, analytics, positions, vaults, createPlan, partnerClaim, adminList, updateConfig",
        () =>
          Effect.gen(function*() {
            const sandbox = yield* setup
            const { credential, wallet: creator } = yield* loginFresh("creator")
            const client = yield* clientWith(credential.apiKey)
            const [claimer, partner, trader] = yield* Effect.all([
              LocalSigner.generate,
              LocalSigner.generate,
              LocalSigner.generate
            ])
            for (const wallet of [creator, claimer, partner, trader]) {
              yield* sandbox.airdrop({ payload: { address: wallet.publicKey, lamports: 20n * SOL } })
            }
            const token = yield* sandbox.createToken({ payload: { creator: creator.publicKey, symbol: "CLI" } })
            yield* sandbox.createFeeShareConfig({
              payload: {
                mint: token.mint,
                admin: creator.publicKey,
                partner: partner.publicKey,
                claimers: [{ wallet: creator.publicKey, bps: 6_000 }, { wallet: claimer.publicKey, bps: 4_000 }]
              }
            })

            // launch: the creator co-signs the transaction the service built and it lands
            const launch = yield* client.launch.createTransaction({
              ipfs: "ipfs://client-sandbox",
              initialBuyLamports: 0,
              tokenMint: token.mint,
              wallet: creator.publicKey,
              configKey: token.configKey
            })
            yield* Flows.launch(launch, { ...landed, mint: token.mint }).pipe(Effect.provide(onChain(creator)))

            // trade: the quote travels back to swap unchanged; the swap lands and pays the fee
            const quote = yield* client.trade.quote({
              inputMint: token.quoteMint,
              outputMint: token.mint,
              amount: 3n * SOL
            })
            assert.strictEqual(quote.inAmount, 3n * SOL)
            assert.isAbove(Number(quote.outAmount), 0)
            const swap = yield* client.trade.swap({ quoteResponse: quote, userPublicKey: trader.publicKey })
            yield* Flows.swap(swap, landed).pipe(Effect.provide(onChain(trader)))

            // analytics
            const fees = yield* client.analytics.lifetimeFees({ tokenMint: token.mint })
            assert.strictEqual(fees, quote.platformFee?.amount)
            assert.isAbove(Number(fees), 0)
            const pools = yield* client.analytics.pools()
            assert.include(pools.map((pool) => pool.tokenMint), token.mint)
            assert.deepStrictEqual(
              yield* client.analytics.pools({ onlyMigrated: true }),
              pools.filter((pool) => pool.dammV2PoolKey !== null)
            )
            const statsBefore = yield* client.analytics.claimStats({ tokenMint: token.mint })
            assert.isTrue(statsBefore.every((entry) => entry.totalClaimed === 0n))

            // claims: the claimers' shares and the partner's vault add up to the lifetime fees
            const share = (positions: ReadonlyArray<Claims.ClaimablePosition>) =>
              BigInt(positions.find((position) => position.baseMint === token.mint)?.totalClaimableLamportsUserShare ?? 0)
            const creatorShare = share(yield* client.claims.positions({ wallet: creator.publicKey }))
            const claimerShare = share(yield* client.claims.positions({ wallet: claimer.publicKey }))
            const vaults = yield* client.claims.vaults({ wallet: partner.publicKey })
            const partnerShare = vaults.vaults.reduce((total, vault) => total + vault.claimableAmount, 0n)
            assert.isAbove(Number(claimerShare), 0)
            assert.isAbove(Number(partnerShare), 0)
            assert.strictEqual(creatorShare + claimerShare + partnerShare, fees)

            // createPlan (v1: no lookup table to set up) → executed on the ledger → claimed
            const request = { feeClaimer: claimer.publicKey, tokenMint: token.mint, transactionFormat: "v1" } as const
            const plan = yield* client.claims.createPlan(request)
            assert.strictEqual(plan.readiness.status, "ready")
            assert.isNotEmpty(plan.transactions)
            const executed = yield* PlanExecutor.execute(plan, {
              ...landed,
              rebuild: () => client.claims.createPlan(request)
            }).pipe(Effect.provide(onChain(claimer)))
            assert.strictEqual(executed.stages.length, plan.transactions.length)
            assert.deepStrictEqual(yield* client.claims.positions({ wallet: claimer.publicKey }), [])
            const stats = yield* client.analytics.claimStats({ tokenMint: token.mint })
            assert.strictEqual(stats.find((entry) => entry.wallet === claimer.publicKey)?.totalClaimed, claimerShare)

            // the partner claims its vault
            const partnerClaim = yield* client.feeShare.partnerClaim({ partnerWallet: partner.publicKey })
            const paid = yield* Flows.partnerClaim(partnerClaim, landed).pipe(Effect.provide(onChain(partner)))
            assert.strictEqual(paid.length, partnerClaim.transactions.length)
            assert.deepStrictEqual(yield* client.claims.vaults({ wallet: partner.publicKey }), { vaults: [] })

            // the admin lists its token and moves the whole share to the claimer
            assert.deepStrictEqual(yield* client.feeShare.adminList({ wallet: creator.publicKey }), {
              tokenMints: [token.mint]
            })
            const update = yield* client.feeShare.updateConfig({
              baseMint: token.mint,
              basisPointsArray: [10_000],
              claimersArray: [claimer.publicKey],
              payer: creator.publicKey
            })
            const updated = yield* Flows.feeShareUpdate(update, landed).pipe(Effect.provide(onChain(creator)))
            assert.strictEqual(updated.length, update.transactions.length)
            const config = yield* client.analytics.claimStats({ tokenMint: token.mint })
            assert.deepStrictEqual(
              config.filter((entry) => entry.royaltyBps > 0).map((entry) => [entry.wallet, entry.royaltyBps]),
              [[claimer.publicKey, 10_000]]
            )
          }).pipe(undici),
        { timeout: 60_000 }
      )

      it.scoped("evm: indexTokenStatus, claimablePositions and creationFee from the sandbox's fixtures", () =>
        Effect.gen(function*() {
          const fixtures = yield* (yield* setup).evmFixtures()
          const { credential } = yield* loginFresh("evm")
          const client = yield* clientWith(credential.apiKey)
          const index = fixtures.indexTokens[0]
          const plain = fixtures.plainTokens[0]
          assert.isDefined(index)
          assert.isDefined(plain)
          if (index === undefined || plain === undefined) return
          const statuses = yield* client.evm.indexTokenStatus({ tokenAddresses: [index.address, plain] })
          assert.deepStrictEqual(
            statuses.map((status) => [status.isIndexToken, status.tokens.length > 0]),
            [[true, true], [false, false]]
          )
          const held = yield* client.evm.claimablePositions({ owner: fixtures.holder })
          assert.isFalse(held.truncated)
          assert.deepStrictEqual(held.positions.map((position) => position.version).sort(), ["v1", "v2", "v3"])
          assert.deepStrictEqual(yield* client.evm.creationFee(), { creationFeeWei: fixtures.creationFeeWei })
        }).pipe(undici))
    }
  )
})
