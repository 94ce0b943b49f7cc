/**
 * The launch from nothing (`@feeshare/solana/LaunchToken`) through the Effect API, for real:
 * the client's operations passed in as the flow's services, against the sandbox, with real
 * signatures on its LiteSVM ledger. Each test makes its own wallet, handles and token; what
 * the flow made is checked through the sandbox's records (`/sandbox/state`: its tokens, their
 * config and launch).
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { FeeShare, FeeShareError, LaunchToken as Rules, PublicKey } from "@feeshare/domain"
import type { Signer } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as BundleRelay from "@feeshare/solana/BundleRelay"
import type * as Chain from "@feeshare/solana/Chain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LaunchRecord from "@feeshare/solana/LaunchRecord"
import * as LaunchToken from "@feeshare/solana/LaunchToken"
import * as LedgerReads from "@feeshare/solana/LedgerReads"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as LookupTableSetup from "@feeshare/solana/LookupTableSetup"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Encoding, Layer, Option, Ref } from "effect"
import { readFileSync } from "node:fs"
import { FeeShareClient } from "../src/index.js"

const SOL = 1_000_000_000n

const undici = Effect.provide(NodeHttpClient.layerUndici)

/** The project's own demo image (a 32×32 PNG). */
const png = new Uint8Array(readFileSync(new URL("../../cli/assets/demo-token.png", import.meta.url)))

const client = Effect.flatMap(
  SandboxInfo,
  (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
)

const setup = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: info.rootUrl }), (c) => c.sandbox)
)

const onChain = (wallet: Signer.Signer.Service) =>
  Layer.unwrapEffect(
    Effect.map(SandboxInfo, (info) =>
      Layer.mergeAll(
        Signers.layer(wallet),
        ChainRpc.layer(info.rpcUrl, { pollInterval: "5 millis" }),
        LedgerReads.layerRpc(info.rpcUrl),
        BundleRelay.layerHttp(`${info.rootUrl}${SandboxApi.prefix}/bundles`).pipe(
          Layer.provide(NodeHttpClient.layerUndici)
        )
      ))
  )

/** The client's operations as the flow's services, each call counted by name. */
const services = Effect.gen(function*() {
  const api = yield* client
  const calls = yield* Ref.make<Record<string, number>>({})
  const count = (name: string) => Ref.update(calls, (c) => ({ ...c, [name]: (c[name] ?? 0) + 1 }))
  const counted: LaunchToken.Services<unknown, LedgerReads.LedgerReads | Signers.Signers | Chain.Chain> = {
    lookupTable: (claimers, reuse) => LookupTableSetup.prepare(claimers, { reuse, commitment: "processed" }),
    wallets: (request) => Effect.zipRight(count("wallets"), api.launch.wallets(request)),
    createTokenInfo: (request) => Effect.zipRight(count("createTokenInfo"), api.launch.createTokenInfo(request)),
    createConfig: (request) => Effect.zipRight(count("createConfig"), api.feeShare.createConfig(request)),
    createTransaction: (request) => Effect.zipRight(count("createTransaction"), api.launch.createTransaction(request))
  }
  return { services: counted, calls: Ref.get(calls) }
})

/** A funded wallet, a registered handle (`social:<name>`) with its own wallet, and a unique token name. */
const fixture = (tag: string) =>
  Effect.gen(function*() {
    const sandbox = yield* setup
    const payer = yield* LocalSigner.generate
    yield* sandbox.airdrop({ payload: { address: payer.publicKey, lamports: 20n * SOL } })
    const friend = yield* LocalSigner.generate
    const username = `launch_${tag}_${payer.publicKey.slice(0, 6).toLowerCase()}`
    yield* sandbox.registerHandle({ payload: { provider: "social", username, wallet: friend.publicKey } })
    const request: Rules.LaunchTokenRequest = {
      name: `Launch ${tag} ${payer.publicKey.slice(0, 6)}`,
      symbol: "$lnch",
      description: "launched from nothing by the flow",
      image: { bytes: png },
      shares: [{ provider: "social", username: `@${username.toUpperCase()}`, bps: 3_000 }, {
        wallet: payer.publicKey,
        bps: 7_000
      }],
      initialBuyLamports: 10_000_000
    }
    return { sandbox, payer, friend, username, request }
  })

/** The sandbox's tokens named `name` (what token info made). */
const tokensNamed = (name: string) =>
  Effect.gen(function*() {
    const state = yield* (yield* setup).state()
    return state.tokens.filter((t) => t["name"] === name)
  })

const feeShareOf = (token: Record<string, unknown>) =>
  token["feeShare"] as {
    admin: string
    claimers: ReadonlyArray<{ wallet: string; bps: number }>
    configType: string | null
    deployer: string | null
  }

const invalid = (error: unknown) => {
  assert.instanceOf(error, FeeShareError.InvalidRequest)
  return error as FeeShareError.InvalidRequest
}

/**
 * A launch whose run stopped right after the launch transaction was kept (signed, not sent): its
 * record store, the record, and the counted services for the rerun.
 */
const keptNotSent = (tag: string) =>
  Effect.gen(function*() {
    const { payer, request } = yield* fixture(tag)
    const { calls, services: s } = yield* services
    const store = LaunchRecord.memory()
    const dies: LaunchRecord.Store = {
      ...store,
      save: (record) =>
        Effect.zipRight(
          store.save(record),
          record.launchSent !== undefined && record.launchSignature === undefined
            ? Effect.dieMessage("crash after the launch was kept, before it was sent")
            : Effect.void
        )
    }
    const crash = yield* LaunchToken.run(request, s, { store: dies, commitment: "processed" }).pipe(
      Effect.provide(onChain(payer)),
      Effect.exit
    )
    assert.isTrue(crash._tag === "Failure")
    const record = Option.getOrThrow(yield* store.load(LaunchToken.recordKey(request, payer.publicKey)))
    return { payer, request, calls, services: s, store, record, kept: record.launchSent! }
  })

describe("LaunchToken.run against the sandbox", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 20, blockhashValidity: 100_000, seed: "launch-token" }), {
    excludeTestServices: true
  })((it) => {
    it.scoped("from an image and a split with a handle to a launched token, with progress events", () =>
      Effect.gen(function*() {
        const { friend, payer, request } = yield* fixture("e2e")
        const { calls, services: s } = yield* services
        const events: Array<LaunchToken.Event> = []
        const result = yield* LaunchToken.run(request, s, {
          commitment: "processed",
          onEvent: (event) => Effect.sync(() => events.push(event))
        }).pipe(Effect.provide(onChain(payer)))

        assert.isFalse(result.dryRun)
        assert.isString(result.signature)
        assert.deepStrictEqual(result.shares.map((x) => [x.wallet, x.bps, x.handle]), [
          [friend.publicKey, 3_000, true],
          [payer.publicKey, 7_000, false]
        ])
        assert.strictEqual(result.deployer, payer.publicKey)
        assert.strictEqual(result.deployerBps, FeeShare.deployerBps)
        assert.strictEqual(result.configType, FeeShare.defaultConfigType)
        assert.isUndefined(result.lookupTable)
        assert.deepStrictEqual(result.reused, [])
        assert.deepStrictEqual(yield* calls, { wallets: 1, createTokenInfo: 1, createConfig: 1, createTransaction: 1 })

        // the sandbox's records: one token, its image uploaded, the config made by this wallet, launched
        const tokens = yield* tokensNamed(request.name)
        assert.strictEqual(tokens.length, 1)
        const token = tokens[0]!
        assert.strictEqual(token.mint, result.mint)
        assert.strictEqual(token.symbol, "LNCH")
        assert.isTrue(token["imageUploaded"])
        assert.isTrue(token.launched)
        const share = feeShareOf(token)
        assert.deepStrictEqual(share.claimers, [{ wallet: friend.publicKey, bps: 3_000 }, {
          wallet: payer.publicKey,
          bps: 7_000
        }])
        assert.strictEqual(share.deployer, payer.publicKey)
        assert.strictEqual(share.configType, FeeShare.defaultConfigType)

        // the steps in order, each started then done; the split shown before the token is made
        const steps = events.filter((e) => e._tag === "Done").map((e) => e.step)
        assert.deepStrictEqual(steps, ["handles", "token-info", "config", "launch"])
        assert.deepStrictEqual(
          events.filter((e) => e._tag === "Skipped").map((e) => e.step),
          ["lookup-table"]
        )
        const split = events.findIndex((e) => e._tag === "Split")
        const tokenInfo = events.findIndex((e) => e._tag === "Started" && e.step === "token-info")
        assert.isTrue(split >= 0 && split < tokenInfo)
        const landed = events.filter((e) => e._tag === "Landed")
        assert.deepStrictEqual(landed.map((e) => e.step), ["config", "config", "launch"])
        assert.strictEqual(landed.at(-1)?.signature, result.signature)
      }).pipe(undici))

    it.scoped("resume: a crash after token info, then after the config; reruns make neither again", () =>
      Effect.gen(function*() {
        const { payer, request } = yield* fixture("resume")
        const store = LaunchRecord.memory()
        const { calls, services: s } = yield* services
        const crash = (name: string) => Effect.dieMessage(`crash before ${name}`)
        // 1. dies when it asks for the config: the token info is made and recorded
        const first = yield* LaunchToken.run(request, { ...s, createConfig: () => crash("config") }, {
          store,
          commitment: "processed"
        }).pipe(Effect.provide(onChain(payer)), Effect.exit)
        assert.isTrue(first._tag === "Failure")
        assert.strictEqual((yield* tokensNamed(request.name)).length, 1)
        // 2. rerun, dies when it asks for the launch: the token info is reused, the config made
        const second = yield* LaunchToken.run(request, { ...s, createTransaction: () => crash("launch") }, {
          store,
          commitment: "processed"
        }).pipe(Effect.provide(onChain(payer)), Effect.exit)
        assert.isTrue(second._tag === "Failure")
        const afterConfig = yield* tokensNamed(request.name)
        assert.strictEqual(afterConfig.length, 1)
        assert.strictEqual(feeShareOf(afterConfig[0]!).deployer, payer.publicKey)
        // 3. rerun: token info and config reused, only the launch is made
        const third = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.deepStrictEqual(third.reused, ["token-info", "config"])
        assert.deepStrictEqual(yield* calls, { wallets: 3, createTokenInfo: 1, createConfig: 1, createTransaction: 1 })
        const tokens = yield* tokensNamed(request.name)
        assert.strictEqual(tokens.length, 1)
        assert.isTrue(tokens[0]!.launched)
        assert.strictEqual(tokens[0]!.mint, third.mint)
        // 4. a fourth run has nothing left to make
        const fourth = yield* LaunchToken.run(request, s, { store }).pipe(Effect.provide(onChain(payer)))
        assert.deepStrictEqual(fourth.reused, ["token-info", "config", "launch"])
        assert.strictEqual(fourth.signature, third.signature)
      }).pipe(undici))

    it.scoped("resume from the service's answer: a config landed but not recorded is reused, not made again", () =>
      Effect.gen(function*() {
        const { payer, request } = yield* fixture("answer")
        const { calls, services: s } = yield* services
        const store = LaunchRecord.memory()
        // the record loses the config key (as if the process died between landing and saving)
        const forgetful: LaunchRecord.Store = {
          ...store,
          save: (record) => {
            const { configKey: _, ...rest } = record
            return store.save(rest)
          }
        }
        const crash = yield* LaunchToken.run(request, { ...s, createTransaction: () => Effect.dieMessage("crash") }, {
          store: forgetful,
          commitment: "processed"
        }).pipe(Effect.provide(onChain(payer)), Effect.exit)
        assert.isTrue(crash._tag === "Failure")
        const rerun = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.deepStrictEqual(rerun.reused, ["token-info", "config"])
        // asked twice; the second answer was needsCreation false and nothing was signed for it
        assert.strictEqual((yield* calls)["createConfig"], 2)
        assert.isTrue((yield* tokensNamed(request.name))[0]!.launched)
      }).pipe(undici))

    it.scoped("resume after the launch was sent: the kept bytes are found landed, no second launch is asked for", () =>
      Effect.gen(function*() {
        const { payer, request } = yield* fixture("sent")
        const { calls, services: s } = yield* services
        const store = LaunchRecord.memory()
        // the process dies once the launch has landed, before the record says so
        const dies: LaunchRecord.Store = {
          ...store,
          save: (record) =>
            record.launchSignature === undefined
              ? store.save(record)
              : Effect.dieMessage("crash after the launch landed")
        }
        const crash = yield* LaunchToken.run(request, s, { store: dies, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer)),
          Effect.exit
        )
        assert.isTrue(crash._tag === "Failure")
        const kept = Option.getOrThrow(yield* store.load(LaunchToken.recordKey(request, payer.publicKey)))
        assert.isDefined(kept.launchSent)
        assert.isUndefined(kept.launchSignature)
        assert.isTrue((yield* tokensNamed(request.name))[0]!.launched)

        const rerun = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.deepStrictEqual(rerun.reused, ["token-info", "config", "launch"])
        assert.strictEqual(rerun.signature, kept.launchSent?.signature)
        assert.strictEqual((yield* calls)["createTransaction"], 1)
      }).pipe(undici))

    it.scoped("resume after the launch was kept but not sent: the same bytes are sent and land, no second launch is asked for", () =>
      Effect.gen(function*() {
        const { calls, kept, payer, request, services: s, store } = yield* keptNotSent("kept")
        assert.isFalse((yield* tokensNamed(request.name))[0]!.launched)

        const rerun = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.strictEqual(rerun.signature, kept.signature)
        assert.deepStrictEqual(rerun.reused, ["token-info", "config", "launch"])
        assert.strictEqual((yield* calls)["createTransaction"], 1)
        assert.isTrue((yield* tokensNamed(request.name))[0]!.launched)
      }).pipe(undici))

    it.scoped("resume after a kept launch that can no longer land (its last valid height passed, never sent): a new one is asked for", () =>
      Effect.gen(function*() {
        const { calls, kept, payer, record, request, services: s, store } = yield* keptNotSent("expired")
        yield* store.save({ ...record, launchSent: { ...kept, lastValidBlockHeight: 0n } })

        const rerun = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.notStrictEqual(rerun.signature, kept.signature)
        assert.deepStrictEqual(rerun.reused, ["token-info", "config"])
        assert.strictEqual((yield* calls)["createTransaction"], 2)
        assert.isTrue((yield* tokensNamed(request.name))[0]!.launched)
      }).pipe(undici))

    it.scoped("a damaged kept launch (not the signed transaction, unknown to the ledger) is not sent: a new one is asked for", () =>
      Effect.gen(function*() {
        const { calls, payer, record, request, services: s, store } = yield* keptNotSent("damaged")
        const never = PublicKey.base58.encode(new Uint8Array(64).fill(9))
        yield* store.save({
          ...record,
          launchSent: {
            signature: never,
            transaction: Encoding.encodeBase64(new Uint8Array(200).fill(7)),
            lastValidBlockHeight: 2n ** 62n
          }
        })
        const rerun = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.notStrictEqual(rerun.signature, never)
        assert.strictEqual((yield* calls)["createTransaction"], 2)
        assert.isTrue((yield* tokensNamed(request.name))[0]!.launched)
      }).pipe(undici))

    it.scoped("dry run: token info uploaded and recorded, the config's transactions verified and costed, nothing signed", () =>
      Effect.gen(function*() {
        const { payer, request } = yield* fixture("dry")
        const { calls, services: s } = yield* services
        const store = LaunchRecord.memory()
        const dry = yield* LaunchToken.run(request, s, { store, dryRun: true }).pipe(Effect.provide(onChain(payer)))
        assert.isTrue(dry.dryRun)
        assert.isUndefined(dry.signature)
        assert.strictEqual(dry.configTransactions.length, 2)
        // the config account co-signs its creation (two signatures), the funding has the wallet's only
        assert.deepStrictEqual(dry.configTransactions.map((cost) => cost.networkFeeLamports), [10_000n, 5_000n])
        // the config account's rent and the deployer's funding leave the wallet
        assert.isTrue(dry.configTransactions.every((cost) => cost.transferLamports > 0n))
        assert.deepStrictEqual(yield* calls, { wallets: 1, createTokenInfo: 1, createConfig: 1 })
        const [token] = yield* tokensNamed(request.name)
        assert.isFalse(token!.launched)
        assert.isNull(feeShareOf(token!).configType)
        // the real run reuses the dry run's token info
        const real = yield* LaunchToken.run(request, s, { store, commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.strictEqual(real.mint, dry.mint)
        assert.deepStrictEqual(real.reused, ["token-info"])
        assert.strictEqual((yield* tokensNamed(request.name)).length, 1)
      }).pipe(undici))

    it.scoped("9 claimers: a lookup table made and recorded, the config lands as a bundle", () =>
      Effect.gen(function*() {
        const { payer, request } = yield* fixture("table")
        const others = yield* Effect.forEach(Array.from({ length: 8 }), () => LocalSigner.generate)
        const shares: ReadonlyArray<Rules.Share> = [
          request.shares[0]!,
          { wallet: payer.publicKey, bps: 3_000 },
          ...others.map((o) => ({ wallet: o.publicKey, bps: 500 }))
        ]
        const { services: s } = yield* services
        const result = yield* LaunchToken.run({ ...request, shares }, s, { commitment: "processed" }).pipe(
          Effect.provide(onChain(payer))
        )
        assert.isString(result.lookupTable)
        const [token] = yield* tokensNamed(request.name)
        assert.isTrue(token!.launched)
        assert.strictEqual(feeShareOf(token!).claimers.length, 10)
      }).pipe(undici))

    it.scoped("bad inputs are InvalidRequest naming the field, and nothing is made", () =>
      Effect.gen(function*() {
        const { payer, request, username } = yield* fixture("bad")
        const { calls, services: s } = yield* services
        const attempt = (input: Rules.LaunchTokenRequest) =>
          LaunchToken.run(input, s).pipe(Effect.provide(onChain(payer)), Effect.flip, Effect.map(invalid))
        const { image: _, ...noImage } = request
        const many = Array.from({ length: 101 }, (_, i) => ({ provider: "social" as const, username: `u${i}`, bps: 0 }))
        const cases: ReadonlyArray<readonly [string, Rules.LaunchTokenRequest, string, string]> = [
          [
            "bps",
            { ...request, shares: [{ ...request.shares[0]!, bps: 2_000 }, request.shares[1]!] },
            "shares",
            "10000"
          ],
          ["101 claimers", { ...request, shares: many }, "shares", "1 to 100"],
          ["symbol", { ...request, symbol: "ELEVENCHARS" }, "symbol", "1 to 10"],
          ["image", { ...request, image: { bytes: new Uint8Array(15_000_001).fill(0x89) } }, "image.bytes", "15000000"],
          ["no image", noImage, "image", "exactly one"]
        ]
        for (const [name, input, field, rule] of cases) {
          const error = yield* attempt(input)
          assert.strictEqual(error.field, field, name)
          assert.include(error.rule, rule, name)
        }
        assert.deepStrictEqual(yield* calls, {})
        // an unknown handle: looked up (a read), then refused naming the share; no token info
        const unknown = yield* attempt({
          ...request,
          shares: [{ provider: "social", username: "nobody_has_this_handle", bps: 3_000 }, request.shares[1]!]
        })
        assert.strictEqual(unknown.field, "shares[0]")
        assert.include(unknown.rule, "social:nobody_has_this_handle")
        // the handle and the wallet it resolves to, both in the split
        const friendWallet = (yield* (yield* client).launch.wallet({ provider: "social", username })).wallet
        const duplicate = yield* attempt({
          ...request,
          shares: [request.shares[0]!, { wallet: friendWallet, bps: 7_000 }]
        })
        assert.strictEqual(duplicate.field, "shares[1]")
        assert.include(duplicate.rule, "shares[0]")
        assert.deepStrictEqual(yield* calls, { wallets: 2 })
        assert.strictEqual((yield* tokensNamed(request.name)).length, 0)
      }).pipe(undici))
  })
})
