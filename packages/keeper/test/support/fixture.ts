/**
 * Set-up shared by the keeper's tests: wallets with positions across tokens on a sandbox
 * (over its HTTP API and /rpc, as a real deployment would see them), the WSOL balances the
 * claims pay into, and the keeper's layers on a fresh SQLite file.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import * as FeeShareClientModule from "@feeshare/client/FeeShareClient"
import type { Signer } from "@feeshare/domain"
import type * as SandboxOptions from "@feeshare/sandbox/Options"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as Signers from "@feeshare/solana/Signers"
import {
  type Address,
  address,
  createSolanaRpc,
  getAddressEncoder,
  getBase58Decoder,
  getBase64Encoder,
  getProgramDerivedAddress,
  getTransactionDecoder
} from "@solana/kit"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Keeper from "../../src/Keeper.js"
import * as KeeperConfig from "../../src/KeeperConfig.js"

export const SOL = 1_000_000_000n
export const NATIVE_MINT = "So11111111111111111111111111111111111111112"
const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"

export const temporaryDirectory = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

/** The client of the sandbox's own routes. */
export const sandboxApi = Effect.flatMap(
  SandboxInfo,
  (info) => HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl })
)

/** The service client with the sandbox's demo key. */
export const clientLayer = Layer.unwrapEffect(
  Effect.map(SandboxInfo, (info) => FeeShareClientModule.layer({ baseUrl: info.baseUrl, apiKey: info.demoApiKey }))
).pipe(Layer.provide(FetchHttpClient.layer))

export const chainLayer = Layer.unwrapEffect(
  Effect.map(SandboxInfo, (info) => ChainRpc.layer(info.rpcUrl, { pollInterval: "40 millis" }))
)

/** The WSOL token account of `owner` (where claims pay). */
export const wsolAccount = (owner: string) =>
  Effect.promise(async () => {
    const encoder = getAddressEncoder()
    const [ata] = await getProgramDerivedAddress({
      programAddress: address(ATA_PROGRAM),
      seeds: [
        encoder.encode(address(owner)),
        encoder.encode(address(TOKEN_PROGRAM)),
        encoder.encode(address(NATIVE_MINT))
      ]
    })
    return ata
  })

/** The WSOL balance (token amount) of `owner`; 0 without an account. */
export const wsolBalance = (owner: string) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const ata = yield* wsolAccount(owner)
    const { value } = yield* Effect.promise(() =>
      createSolanaRpc(info.rpcUrl).getAccountInfo(ata as Address, { encoding: "base64" }).send()
    )
    if (value === null) return 0n
    const data = getBase64Encoder().encode(value.data[0])
    return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true)
  })

export const solBalance = (owner: string) =>
  Effect.flatMap(
    SandboxInfo,
    (info) => Effect.promise(async () => (await createSolanaRpc(info.rpcUrl).getBalance(address(owner)).send()).value)
  )

/** A key and its solana-keygen file. */
export interface KeyFile {
  readonly signer: Signer.Signer.Service
  readonly path: string
}

/** A fresh key written as a solana-keygen file in `dir`. */
export const keyFile = (dir: string, name: string) =>
  Effect.promise(async () => {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey))
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))
    const path = join(dir, `${name}.json`)
    writeFileSync(path, JSON.stringify([...pkcs8.slice(-32), ...raw]), { mode: 0o600 })
    return path
  }).pipe(
    Effect.flatMap((path) => Effect.map(LocalSigner.fromKeygenFile(path), (signer): KeyFile => ({ signer, path }))),
    Effect.provide(NodeFileSystem.layer),
    Effect.orDie
  )

/**
 * `tokens` tokens, each launched by its own creator, whose fee-share claimers are
 * `claimersPerToken` of `wallets` (token t: wallets t*step ... wrapping), with `swaps(t)` SOL
 * of buys each, so every claimer of token t is owed the same amount.
 */
export const positions = (options: {
  readonly wallets: ReadonlyArray<KeyFile>
  readonly tokens: number
  readonly claimersPerToken: number
  readonly buySol: (token: number) => bigint
}) =>
  Effect.gen(function*() {
    const sandbox = yield* sandboxApi
    for (const wallet of options.wallets) {
      yield* sandbox.sandbox.airdrop({ payload: { address: wallet.signer.publicKey, lamports: 2n * SOL } })
    }
    const mints: Array<string> = []
    const step = options.wallets.length / options.tokens
    for (let t = 0; t < options.tokens; t++) {
      const creator = yield* LocalSigner.generate
      const claimers = Array.from({ length: options.claimersPerToken }, (_, i) =>
        options.wallets[(t * step + i) % options.wallets.length]!.signer.publicKey)
      const mint = yield* launchedToken({
        creator,
        claimers: claimers.map((wallet) => ({ wallet, bps: 10_000 / options.claimersPerToken }))
      })
      yield* buy(creator, mint, options.buySol(t) * SOL)
      mints.push(mint)
    }
    return mints
  })

/**
 * A token (created by a fresh key, its only claimer) with `partner` as its partner, bought for
 * `buySol` SOL: the partner's vault is owed its share of the fee.
 */
export const partnerVault = (partner: string, buySol = 2n) =>
  Effect.gen(function*() {
    const creator = yield* LocalSigner.generate
    const mint = yield* launchedToken({ creator, partner, claimers: [{ wallet: creator.publicKey, bps: 10_000 }] })
    yield* buy(creator, mint, buySol * SOL)
  })

/**
 * A token created by `creator` (airdropped 100 SOL first unless `fund` is false: a wallet whose
 * balance a test follows), its fee share configured with `claimers` (and `partner`, if any),
 * launched: its mint.
 */
export const launchedToken = (options: {
  readonly creator: Signer.Signer.Service
  readonly claimers: ReadonlyArray<{ readonly wallet: string; readonly bps: number }>
  readonly partner?: string
  readonly fund?: boolean
}) =>
  Effect.gen(function*() {
    const sandbox = yield* sandboxApi
    const client = yield* FeeShareClient
    const creator = options.creator
    if (options.fund !== false) {
      yield* sandbox.sandbox.airdrop({ payload: { address: creator.publicKey, lamports: 100n * SOL } })
    }
    const created = yield* sandbox.sandbox.createToken({ payload: { creator: creator.publicKey } })
    yield* sandbox.sandbox.createFeeShareConfig({
      payload: {
        mint: created.mint,
        admin: creator.publicKey,
        ...(options.partner === undefined ? {} : { partner: options.partner }),
        claimers: [...options.claimers]
      }
    })
    const launch = yield* client.launch.createTransaction({
      ipfs: `ipfs://keeper-${created.mint}`,
      tokenMint: created.mint,
      wallet: creator.publicKey,
      configKey: created.configKey,
      initialBuyLamports: 0
    })
    yield* Flows.launch(launch, { mint: created.mint }).pipe(Effect.provide(onChainAs(creator)))
    return created.mint
  })

/** `buyer` buys `mint` for `lamports` of SOL (one swap): the token's claimers are owed its fee. */
export const buy = (buyer: Signer.Signer.Service, mint: string, lamports: bigint) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const quote = yield* client.trade.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: lamports })
    const swap = yield* client.trade.swap({ quoteResponse: quote, userPublicKey: buyer.publicKey })
    yield* Flows.swap(swap).pipe(Effect.provide(onChainAs(buyer)))
  })

/** `signer` over the sandbox's chain. */
const onChainAs = (signer: Signer.Signer.Service) =>
  Layer.unwrapEffect(
    Effect.map(SandboxInfo, (info) =>
      Layer.merge(Signers.layer(signer), ChainRpc.layer(info.rpcUrl, { pollInterval: "20 millis" })))
  )

/** What `wallet`'s partner vault is owed, as the service lists it. */
export const partnerOwed = (wallet: string) =>
  Effect.flatMap(
    FeeShareClient,
    (client) =>
      Effect.map(
        client.claims.vaults({ wallet }),
        ({ vaults }) => vaults.find((v) => v.kind === "partner")?.claimableAmount ?? 0n
      )
  )

/** Every wallet's claimable amount per mint, as the service reports it. */
export const owed = (wallets: ReadonlyArray<KeyFile>) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const out = new Map<string, Map<string, number>>()
    for (const wallet of wallets) {
      const positions = yield* client.claims.positions({ wallet: wallet.signer.publicKey })
      out.set(wallet.signer.publicKey, new Map(positions.map((p) => [p.baseMint, p.totalClaimableLamportsUserShare])))
    }
    return out
  })

/** A keeper config over the key files, and the keeper's layers on a fresh database. */
export const keeper = (
  wallets: ReadonlyArray<KeyFile>,
  config: Omit<Partial<KeeperConfig.Config>, "wallets">,
  hooks?: Keeper.Hooks
) =>
  Effect.gen(function*() {
    const dir = temporaryDirectory("keeper-db-")
    const decoded = yield* KeeperConfig.decode({
      wallets: wallets.map((w) => ({ keypair: w.path })),
      database: join(dir, "keeper.db"),
      concurrency: 8,
      ...config
    })
    const loaded = yield* KeeperConfig.wallets(decoded, dir).pipe(Effect.provide(NodeFileSystem.layer))
    return Keeper.layer({
      config: decoded,
      wallets: loaded,
      warmupInterval: "60 millis",
      rebroadcastInterval: "300 millis",
      hooks
    })
      .pipe(
        Layer.provideMerge(Keeper.layerStorage(decoded.database)),
        Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))
      )
  }).pipe(Effect.orDie)

/** A sandbox, the service client, the chain over its /rpc, and an HTTP client. */
export const sandboxLayer = (options: Partial<SandboxOptions.Options>) =>
  Layer.provideMerge(Layer.mergeAll(clientLayer, chainLayer, FetchHttpClient.layer), Sandbox.layer(options))

export interface Sent {
  readonly transaction: string
  readonly accepted: boolean
}

/** A JSON-RPC proxy to the sandbox's /rpc that records every sendTransaction (accepted or refused). */
export const recordingProxy = Effect.acquireRelease(
  Effect.flatMap(
    SandboxInfo,
    (info) =>
      Effect.async<{ readonly url: string; readonly sent: Array<Sent>; readonly close: () => void }>((resume) => {
        const sent: Array<Sent> = []
        const read = (request: IncomingMessage) =>
          new Promise<string>((done) => {
            let body = ""
            request.on("data", (chunk: Buffer) => (body += chunk.toString()))
            request.on("end", () => done(body))
          })
        const server = createServer((request, response) => {
          void read(request).then(async (body) => {
            const answer = await fetch(info.rpcUrl, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body
            })
            const text = await answer.text()
            const calls = [JSON.parse(body)].flat() as Array<{ method: string; params: Array<unknown> }>
            const results = [JSON.parse(text)].flat() as Array<{ error?: unknown }>
            calls.forEach((call, i) => {
              if (call.method === "sendTransaction") {
                sent.push({ transaction: String(call.params[0]), accepted: results[i]?.error === undefined })
              }
            })
            response.writeHead(answer.status, { "content-type": "application/json" })
            response.end(text)
          })
        })
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            sent,
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          })))
      })
  ),
  (proxy) => Effect.sync(proxy.close)
)

/** What the ledger says about every distinct transaction the proxy saw. */
export const ledgerFates = (sent: ReadonlyArray<Sent>) =>
  Effect.flatMap(SandboxInfo, (info) =>
    Effect.promise(async () => {
      const distinct = [...new Set(sent.map((s) => s.transaction))]
      return Promise.all(distinct.map(async (wire) => {
        const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(wire))
        const [, first] = Object.entries(transaction.signatures)[0]!
        const signature = getBase58Decoder().decode(first!)
        // plain JSON-RPC: Kit's types stop at maxSupportedTransactionVersion 0, the claims are v1
        const answer = await fetch(info.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "getTransaction",
            params: [signature, { encoding: "json", maxSupportedTransactionVersion: 1 }]
          })
        })
        const found = ((await answer.json()) as { result: { meta: { err: unknown; fee: number } } | null }).result
        return { signature, landed: found !== null, err: found?.meta.err ?? null, fee: BigInt(found?.meta.fee ?? 0) }
      }))
    }))
