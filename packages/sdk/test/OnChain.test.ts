// executePlan and signAndSend for real: transactions built by the sandbox, verified and signed
// by the facade's signers (every accepted form), sent through the sandbox's /rpc and confirmed
// on its ledger, whose block clock ticks.
import type { Signer } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Keypair } from "@solana/web3.js"
import { Effect, Redacted } from "effect"
import {
  FeeShare,
  FormatMismatch,
  InvalidPlan,
  InvalidRequest,
  NoBundleRelay,
  type PlanEvent,
  type SignerInput
} from "feeshare"
import { fromKeypair } from "feeshare/web3"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, SOL, start } from "./support/sandbox.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"

let sandbox: Running
let directory: string
const open: Array<FeeShare> = []

beforeAll(async () => {
  sandbox = await start({ slotMillis: 50, blockhashValidity: 1_000, seed: "sdk-onchain" })
  directory = await mkdtemp(join(tmpdir(), "feeshare-sdk-"))
})

afterAll(async () => {
  await Promise.all(open.map((client) => client.close()))
  await sandbox?.close()
  if (directory !== undefined) await rm(directory, { recursive: true, force: true })
})

/** A client acting for `signer`, on the sandbox, with its RPC endpoint. */
const clientFor = (signer: SignerInput) => {
  const client = new FeeShare({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    signer,
    rpcPollInterval: "20 millis"
  })
  open.push(client)
  return client
}

const fund = (address: string, lamports = 20n * SOL) =>
  sandbox.setup((s) => s.airdrop({ payload: { address, lamports } }))

/** A solana-keygen file holding `keypair`. */
const keyFile = async (keypair: Keypair) => {
  const path = join(directory, `${keypair.publicKey.toBase58()}.json`)
  await writeFile(path, JSON.stringify(Array.from(keypair.secretKey)), { mode: 0o600 })
  return path
}

describe("signers", () => {
  it("every accepted form signs: secret key, seed, key file, Kit signers, web3.js Keypair, Signer port", async () => {
    // logging in needs no API key
    await using feeshare = new FeeShare({ baseUrl: sandbox.baseUrl })
    const bytes = Keypair.generate()
    const file = Keypair.generate()
    const web3 = Keypair.generate()
    const kit = await generateKeyPairSigner()
    const walletStandard = await generateKeyPairSigner()
    const port = await generateKeyPairSigner()
    const forms: ReadonlyArray<readonly [string, SignerInput]> = [
      ["64-byte secret key", bytes.secretKey],
      ["keygen file", await keyFile(file)],
      ["Kit KeyPairSigner", kit],
      // a wallet-standard wallet as Kit sees it: only the message-signing face
      ["Kit MessagePartialSigner", { address: walletStandard.address, signMessages: walletStandard.signMessages }],
      ["web3.js Keypair", fromKeypair(web3)],
      ["Signer port", LocalSigner.fromKeyPairSigner(port)]
    ]
    for (const [name, form] of forms) {
      const credential = await feeshare.login(form, name)
      expect(credential.isSignup, name).toBe(true)
    }
    // the 32-byte seed of the first key is the same wallet: not a new signup
    const again = await feeshare.login(bytes.secretKey.slice(0, 32), "seed")
    expect(again.isSignup).toBe(false)
  })
})

describe("signAndSend and executePlan on the sandbox ledger", () => {
  let creatorKeys: Keypair
  let trader: KeyPairSigner
  let claimer: Keypair
  let partner: KeyPairSigner
  let creator: FeeShare
  let token: { readonly mint: string; readonly configKey: string }

  beforeAll(async () => {
    creatorKeys = Keypair.generate()
    claimer = Keypair.generate()
    ;[trader, partner] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    for (
      const address of [creatorKeys.publicKey.toBase58(), claimer.publicKey.toBase58(), trader.address, partner.address]
    ) {
      await fund(address)
    }
    creator = clientFor(creatorKeys.secretKey)
    token = await sandbox.setup((s) => s.createToken({ payload: { creator: creatorKeys.publicKey.toBase58() } }))
    await sandbox.setup((s) =>
      s.createFeeShareConfig({
        payload: {
          mint: token.mint,
          admin: creatorKeys.publicKey.toBase58(),
          partner: partner.address,
          claimers: [
            { wallet: creatorKeys.publicKey.toBase58(), bps: 5_000 },
            { wallet: claimer.publicKey.toBase58(), bps: 5_000 }
          ]
        }
      })
    )
  })

  it("launch, then swaps: each lands and the fees accrue", async () => {
    const transaction = await creator.launch.createTransaction({
      ipfs: "ipfs://sdk-onchain",
      initialBuyLamports: 0,
      tokenMint: token.mint,
      wallet: creatorKeys.publicKey.toBase58(),
      configKey: token.configKey
    })
    const launched = await creator.signAndSend.launch(transaction, { mint: token.mint })
    expect(launched.signature.length).toBeGreaterThan(60)
    const state = await sandbox.setup((s) => s.state())
    expect(state.tokens.find((t) => t.mint === token.mint)?.launched).toBe(true)

    const tradingClient = clientFor(trader)
    let fees = 0n
    for (
      const [inputMint, outputMint, amount] of [[NATIVE_MINT, token.mint, 3n * SOL], [
        NATIVE_MINT,
        token.mint,
        SOL
      ]] as const
    ) {
      const quote = await tradingClient.trade.quote({ inputMint, outputMint, amount })
      fees += quote.platformFee?.amount ?? 0n
      const swap = await tradingClient.trade.swap({ quoteResponse: quote, userPublicKey: trader.address })
      const landed = await tradingClient.signAndSend.swap(swap)
      expect(landed.slot).toBeGreaterThan(0n)
    }
    expect(fees).toBeGreaterThan(0n)
    expect(await creator.analytics.lifetimeFees({ tokenMint: token.mint })).toBe(fees)
  })

  it("verifyPlan is a dry run of executePlan; executePlan without its request refuses a setup_required plan before signing", async () => {
    const inner = await Effect.runPromise(LocalSigner.fromSecretKey(Redacted.make(claimer.secretKey)))
    let signatures = 0
    const counting: Signer.Signer.Service = {
      publicKey: inner.publicKey,
      signMessage: (message) =>
        Effect.suspend(() => {
          signatures++
          return inner.signMessage(message)
        })
    }
    const client = clientFor(counting)
    const wallet = claimer.publicKey.toBase58()
    const request = { feeClaimer: wallet, tokenMint: token.mint, transactionFormat: "v0" } as const
    const plan = await client.claims.createPlan(request)
    expect(plan.readiness.status).toBe("setup_required")
    expect(plan.transactions.length).toBeGreaterThan(1)

    const report = await client.verifyPlan(plan, { request })
    expect(report.stages.map((stage) => stage.id)).toEqual(plan.transactions.map((stage) => stage.id))
    expect(report.expiredStages).toEqual([])
    await expect(client.verifyPlan(plan, { request: { ...request, transactionFormat: "v1" } })).rejects.toBeInstanceOf(
      FormatMismatch
    )
    const forward = { ...plan, transactions: [...plan.transactions].reverse() }
    await expect(client.verifyPlan(forward, { request })).rejects.toBeInstanceOf(InvalidPlan)
    const refused = await client.executePlan(plan).then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(InvalidRequest)
    expect((refused as InvalidRequest).field).toBe("request")
    expect(signatures).toBe(0)
  })

  it("executePlan: a v0 plan through setup_required and the warm-up to landed, reporting progress", async () => {
    const claiming = clientFor(await keyFile(claimer))
    const wallet = claimer.publicKey.toBase58()
    const [position] = await claiming.claims.positions({ wallet })
    const claimable = BigInt(position?.totalClaimableLamportsUserShare ?? 0)
    expect(claimable).toBeGreaterThan(0n)

    const request = { feeClaimer: wallet, tokenMint: token.mint, transactionFormat: "v0" } as const
    const plan = await claiming.claims.createPlan(request)
    expect(plan.readiness.status).toBe("setup_required")
    const events: Array<PlanEvent> = []
    const result = await claiming.executePlan(plan, {
      request,
      warmupInterval: "50 millis",
      onEvent: (event) => events.push(event)
    })

    const kinds = result.stages.map((stage) => stage.kind)
    expect(kinds).toContain("lookup_table_setup")
    expect(kinds).toContain("claim")
    expect(result.rebuilds).toBeGreaterThanOrEqual(1)
    const tags = new Set(events.map((event) => event._tag))
    for (const tag of ["Verified", "Signed", "Submitted", "Landed", "Rebuilt", "Completed"]) expect(tags).toContain(tag)
    expect(events[events.length - 1]?._tag).toBe("Completed")
    expect(events.filter((event) => event._tag === "Landed")).toHaveLength(result.stages.length)

    expect(await claiming.claims.positions({ wallet })).toEqual([])
    const stats = await claiming.analytics.claimStats({ tokenMint: token.mint })
    expect(stats.find((s) => s.wallet === wallet)?.totalClaimed).toBe(claimable)
    // what it paid, measured on the claimer's wrapped-SOL account: the position's share
    expect(result.paid).toBe(claimable)
  })

  it("executePlan: a v1 plan (web3.js Keypair signer) lands without setup", async () => {
    const feeshare = clientFor(fromKeypair(creatorKeys))
    const wallet = creatorKeys.publicKey.toBase58()
    const request = { feeClaimer: wallet, tokenMint: token.mint, transactionFormat: "v1" } as const
    const plan = await feeshare.claims.createPlan(request)
    expect(plan.readiness.status).not.toBe("setup_required")
    const result = await feeshare.executePlan(plan, { request })
    expect(result.stages.map((stage) => stage.kind)).toContain("claim")
    expect(result.rebuilds).toBe(0)
    expect(result.paid).toBeGreaterThan(0n)
    expect(await feeshare.claims.positions({ wallet })).toEqual([])
  })

  it("config creation: refused without a relay for bundles (nothing signed); then lands as a bundle; asked again, the key is reused", async () => {
    const payer = Keypair.generate()
    const wallet = payer.publicKey.toBase58()
    await fund(wallet)
    const fresh = await sandbox.setup((s) => s.createToken({ payload: { creator: wallet } }))
    const client = clientFor(payer.secretKey)
    const answer = await client.feeShare.createConfig({
      payer: wallet,
      baseMint: fresh.mint,
      claimersArray: [wallet, claimer.publicKey.toBase58()],
      basisPointsArray: [8_000, 2_000]
    })
    expect(answer.needsCreation).toBe(true)
    // the same transactions as one bundle: they must land together
    const bundled = { ...answer, transactions: null, bundles: [answer.transactions ?? []] }
    await expect(client.signAndSend.createConfig(bundled)).rejects.toBeInstanceOf(NoBundleRelay)
    await expect(client.signAndSend.createConfig(bundled, { bundleRelayUrl: "not a url" })).rejects.toBeInstanceOf(
      InvalidRequest
    )
    const created = await client.signAndSend.createConfig(bundled, {
      bundleRelayUrl: `${sandbox.rootUrl}/sandbox/bundles`
    })
    expect(created.created).toBe(true)
    expect(created.bundles[0]).toHaveLength(2)
    const again = await client.feeShare.createConfig({
      payer: wallet,
      baseMint: fresh.mint,
      claimersArray: [wallet],
      basisPointsArray: [10_000]
    })
    expect(again.needsCreation).toBe(false)
    expect(await client.signAndSend.createConfig(again)).toEqual({
      configKey: fresh.configKey,
      created: false,
      bundles: [],
      transactions: []
    })
  })

  it("fee-share update: the new claimers and basis points take effect once landed", async () => {
    const next = await generateKeyPairSigner()
    const entries = await creator.feeShare.updateConfig({
      baseMint: token.mint,
      payer: creatorKeys.publicKey.toBase58(),
      claimersArray: [creatorKeys.publicKey.toBase58(), next.address],
      basisPointsArray: [7_000, 3_000]
    })
    const landed = await creator.signAndSend.feeShareUpdate(entries)
    expect(landed).toHaveLength(entries.transactions.length)
    const stats = await creator.analytics.claimStats({ tokenMint: token.mint })
    expect(stats.find((s) => s.wallet === next.address)?.royaltyBps).toBe(3_000)
  })

  it("partner claim: every entry lands and the partner's vault is emptied", async () => {
    const partnering = clientFor(partner)
    const before = await partnering.claims.vaults({ wallet: partner.address })
    expect(before.vaults.length).toBeGreaterThan(0)
    const entries = await partnering.feeShare.partnerClaim({ partnerWallet: partner.address })
    const landed = await partnering.signAndSend.partnerClaim(entries)
    expect(landed).toHaveLength(entries.transactions.length)
    expect((await partnering.claims.vaults({ wallet: partner.address })).vaults).toEqual([])
  })
})
