/**
 * What the explorer's browser test and bench share: a sandbox in this process (seeded, with one
 * tampered plan served), Debian's chromium driven by playwright-core with a fresh profile, and
 * the scripted flow of the test (a launch, swaps, a claim plan through its setup to landed, a
 * tampered plan refused client-side, one failed transaction).
 */
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import { Effect, Layer, Redacted } from "effect"
import { FeeShare } from "feeshare"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BrowserContext, chromium } from "playwright-core"
import { requirePart } from "../../../scripts/system-parts.mjs"

/** Where the screenshots go (gitignored). */
export const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url))

/** The sandbox of the test: seeded, fast slots, the first claim plan with stages served tampered. */
export const sandboxLayer = Layer.effectDiscard(Effect.gen(function*() {
  const info = yield* SandboxInfo
  yield* Seed.make(info.options.seed)
})).pipe(
  Layer.provideMerge(Sandbox.layer({ slotMillis: 25, tamper: [{ kind: "flip-byte", plans: 1 }] }))
)

/** Chromium with a fresh user data directory, until the scope closes. */
export const browser = Effect.acquireRelease(
  Effect.promise(async () => {
    // before anything starts: a missing chromium fails at once, saying how to install it
    const executablePath = requirePart("chromium")
    const profile = await mkdtemp(join(tmpdir(), "feeshare-explorer-profile-"))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 900 },
      // screenshots 960 px wide: small enough to commit under docs/
      deviceScaleFactor: 0.75,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ]
    })
    return { context, profile }
  }),
  ({ context, profile }) =>
    Effect.promise(async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    })
).pipe(Effect.map(({ context }): BrowserContext => context))

/** The browser as a layer-provided resource. */
export class Browser extends Effect.Tag("@feeshare/browser-tests/Browser")<Browser, BrowserContext>() {
  static readonly layer = Layer.scoped(Browser, browser)
}

export const ensureArtifacts = Effect.promise(() => mkdir(artifacts, { recursive: true }))

const SOL = 1_000_000_000n
const WSOL = "So11111111111111111111111111111111111111112"

/** POST to a sandbox-only set-up route; its `response`. */
const setup = async <A>(rootUrl: string, route: string, body: unknown): Promise<A> => {
  const response = await fetch(`${rootUrl}/sandbox/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json = await response.json() as { readonly response: A }
  if (!response.ok) throw new Error(`sandbox ${route}: ${response.status} ${JSON.stringify(json)}`)
  return json.response
}

/** What the flow did, for the assertions. */
export interface Flow {
  readonly creator: KeyPairSigner
  readonly claimer: KeyPairSigner
  readonly mint: string
  readonly swaps: number
  readonly tamperedRefusal: string
  readonly claimSignature: string
  readonly failedSignature: string
  readonly lifetimeFees: bigint
}

/**
 * The scripted flow: a token launched, two swaps, its claimer's plan (the first one served
 * tampered and refused before any signature, then built again, its lookup-table setup landed,
 * rebuilt and claimed), and a SOL transfer larger than the payer's balance sent without
 * preflight, so that it lands failed.
 */
export const scriptedFlow = Effect.gen(function*() {
  const info = yield* SandboxInfo
  const apiKey = Redacted.value(info.demoApiKey)
  return yield* Effect.promise(async (): Promise<Flow> => {
    const [creator, claimer, poor] = await Promise.all([
      generateKeyPairSigner(),
      generateKeyPairSigner(),
      generateKeyPairSigner()
    ])
    for (const wallet of [creator, claimer]) {
      await setup(info.rootUrl, "airdrop", { address: wallet.address, lamports: String(10n * SOL) })
    }
    await setup(info.rootUrl, "airdrop", { address: poor.address, lamports: String(SOL / 100n) })
    const token = await setup<{ mint: string; configKey: string }>(info.rootUrl, "tokens", {
      creator: creator.address,
      name: "Explorer",
      symbol: "XPLR"
    })
    await setup(info.rootUrl, "fee-share-configs", {
      mint: token.mint,
      admin: creator.address,
      claimers: [{ wallet: creator.address, bps: 6_000 }, { wallet: claimer.address, bps: 4_000 }]
    })
    const options = { baseUrl: info.baseUrl, apiKey, rpcUrl: info.rpcUrl }
    await using asCreator = new FeeShare({ ...options, signer: creator })
    const launch = await asCreator.launch.createTransaction({
      ipfs: "ipfs://explorer-test",
      tokenMint: token.mint,
      wallet: creator.address,
      configKey: token.configKey,
      initialBuyLamports: 0
    })
    await asCreator.signAndSend.launch(launch, { mint: token.mint })
    const swaps = 2
    for (let i = 0; i < swaps; i++) {
      const quote = await asCreator.trade.quote({ inputMint: WSOL, outputMint: token.mint, amount: SOL })
      await asCreator.signAndSend.swap(await asCreator.trade.swap({ quoteResponse: quote, userPublicKey: creator.address }))
    }

    await using asClaimer = new FeeShare({ ...options, signer: claimer })
    const request = { feeClaimer: claimer.address, tokenMint: token.mint, transactionFormat: "v0" } as const
    // the first plan with stages is served tampered (`tamper: flip-byte, plans: 1`): refused
    const tampered = await asClaimer.claims.createPlan(request)
    const tamperedRefusal = await asClaimer.executePlan(tampered, { request }).then(
      () => "executed",
      (error: unknown) => error instanceof Error ? error.constructor.name : String(error)
    )
    const plan = await asClaimer.claims.createPlan(request)
    const result = await asClaimer.executePlan(plan, { request, warmupInterval: "50 millis" })
    const claimSignature = result.stages.find((stage) => stage.kind === "claim")?.signature ?? ""

    // a transfer of 5 SOL from a wallet holding 0.01: it lands (no preflight) and fails
    const rpc = createSolanaRpc(info.rpcUrl)
    const { value: blockhash } = await rpc.getLatestBlockhash().send()
    const transfer = {
      programAddress: address("11111111111111111111111111111111"),
      accounts: [
        { address: poor.address, role: AccountRole.WRITABLE_SIGNER, signer: poor },
        { address: creator.address, role: AccountRole.WRITABLE }
      ],
      data: new Uint8Array([2, 0, 0, 0, ...new Uint8Array(new BigUint64Array([5n * SOL]).buffer)])
    } as const
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(poor, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) => appendTransactionMessageInstruction(transfer, m)
    )
    const signed = await signTransactionMessageWithSigners(message)
    const failedSignature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), {
      encoding: "base64",
      skipPreflight: true
    }).send()

    const lifetimeFees = BigInt(await asCreator.analytics.lifetimeFees({ tokenMint: token.mint }))
    return {
      creator,
      claimer,
      mint: token.mint,
      swaps,
      tamperedRefusal,
      claimSignature,
      failedSignature,
      lifetimeFees
    }
  })
})
