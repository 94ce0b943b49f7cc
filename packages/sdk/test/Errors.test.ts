// Rejections as a Promise user sees them: instances of the exported classes (and of the
// Effect core's class of the same tag), with tag, status, message and rateLimit; never a
// FiberFailure.
import { FeeShareError as Core, PublicKey } from "@feeshare/domain"
import * as Totp from "@feeshare/sandbox/Totp"
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Runtime } from "effect"
import {
  BadRequest,
  Closed,
  Defect,
  FeeShare,
  Forbidden,
  InvalidKey,
  InvalidPlan,
  InvalidRequest,
  isFeeShareError,
  MfaRequired,
  MissingSigner,
  NotFound,
  RateLimited,
  Unauthorized
} from "feeshare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, SOL, start } from "./support/sandbox.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"

let sandbox: Running
let creator: KeyPairSigner
let feeshare: FeeShare
let token: { readonly mint: string; readonly configKey: string }

beforeAll(async () => {
  sandbox = await start({ slotMillis: 0, seed: "sdk-errors" })
  creator = await generateKeyPairSigner()
  await sandbox.setup((s) => s.airdrop({ payload: { address: creator.address, lamports: 10n * SOL } }))
  token = await sandbox.setup((s) => s.createToken({ payload: { creator: creator.address } }))
  feeshare = new FeeShare({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    signer: creator,
    commitment: "processed",
    rpcPollInterval: "5 millis"
  })
})

afterAll(async () => {
  await feeshare?.close()
  await sandbox?.close()
})

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${String(value)}`)
    },
    (error: unknown) => error
  )

/** What every rejection has, whatever its class. */
const expectFacadeError = (error: unknown, tag: string, status: number) => {
  expect(isFeeShareError(error)).toBe(true)
  expect(Runtime.isFiberFailure(error)).toBe(false)
  expect(error).toBeInstanceOf(Error)
  expect(error).toMatchObject({ tag, _tag: tag, status })
  expect((error as Error).message.length).toBeGreaterThan(0)
}

describe("errors", () => {
  it("401: Unauthorized, an instance of the facade's and the core's class, with the rate-limit headers", async () => {
    await using wrong = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: "not-a-key" })
    const error = await rejection(wrong.identity.me())
    expect(error).toBeInstanceOf(Unauthorized)
    expect(error).toBeInstanceOf(Core.Unauthorized)
    expectFacadeError(error, "Unauthorized", 401)
    expect(error).toMatchObject({ operation: "identity.me" })
    expect(typeof (error as Unauthorized).rateLimit?.limit).toBe("number")
    expect(String(error)).not.toContain("not-a-key")
  })

  it("400: BadRequest with the service's message", async () => {
    const error = await rejection(feeshare.claims.createPlan({ feeClaimer: creator.address, tokenMint: token.mint }))
    expect(error).toBeInstanceOf(BadRequest)
    expectFacadeError(error, "BadRequest", 400)
    expect((error as BadRequest).message).toContain("nothing to claim")
    expect((error as BadRequest).rateLimit?.limit).toBe(5000)
  })

  it("403: Forbidden; 404: NotFound", async () => {
    // the service answers 403 when a key lacks a permission; the sandbox's refusals follow the
    // reference's status sets, which have none, so the 403 is injected
    const denying = await start({ slotMillis: 0, seed: "sdk-403", errorRates: { 403: 1 } })
    try {
      await using client = new FeeShare({ baseUrl: denying.baseUrl, apiKey: denying.apiKey })
      const forbidden = await rejection(client.analytics.pools())
      expect(forbidden).toBeInstanceOf(Forbidden)
      expectFacadeError(forbidden, "Forbidden", 403)
    } finally {
      await denying.close()
    }

    const stranger = await generateKeyPairSigner()
    const notFound = await rejection(feeshare.feeShare.partnerClaim({ partnerWallet: stranger.address }))
    expect(notFound).toBeInstanceOf(NotFound)
    expectFacadeError(notFound, "NotFound", 404)
  })

  it("a broken rule: InvalidRequest naming the field and the rule, status 0, nothing sent", async () => {
    await using fresh = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })
    const error = await rejection(fresh.claims.positions({ wallet: "not-a-public-key" }))
    expect(error).toBeInstanceOf(InvalidRequest)
    expectFacadeError(error, "InvalidRequest", 0)
    expect(error).toMatchObject({ field: "wallet", rule: PublicKey.rule, operation: "claims.positions" })
    // no answer was ever received by this client
    expect(await fresh.rateLimit()).toBeUndefined()
  })

  it("bad options: InvalidRequest on the first call", async () => {
    await using bad = new FeeShare({ baseUrl: "ftp://example", apiKey: "k" })
    const error = await rejection(bad.ping())
    expect(error).toBeInstanceOf(InvalidRequest)
    expect(error).toMatchObject({ field: "baseUrl", status: 0 })
  })

  it("429: RateLimited with limit, remaining, resetAt and the headers", async () => {
    const small = await start({ slotMillis: 0, seed: "sdk-429", rateLimit: 2 })
    try {
      await using client = new FeeShare({ baseUrl: small.baseUrl, apiKey: small.apiKey, maxRateLimitWait: 0 })
      const results = await Promise.allSettled([client.identity.me(), client.identity.me(), client.identity.me()])
      const errors = results.flatMap((result) => result.status === "rejected" ? [result.reason] : [])
      expect(errors.length).toBeGreaterThan(0)
      for (const error of errors) {
        expect(error).toBeInstanceOf(RateLimited)
        expect(error).toBeInstanceOf(Core.RateLimited)
        expect(error).toMatchObject({ tag: "RateLimited", limit: 2, remaining: 0 })
        expect((error as RateLimited).resetAt).toBeGreaterThan(0)
        expect([0, 429]).toContain((error as RateLimited).status)
      }
    } finally {
      await small.close()
    }
  })

  it("signers: a missing key file is InvalidKey naming the path, never key material", async () => {
    const error = await rejection(feeshare.login("/nonexistent/feeshare-key.json", "k"))
    expect(error).toBeInstanceOf(InvalidKey)
    expectFacadeError(error, "InvalidKey", 0)
    expect(error).toMatchObject({ reason: "missing_file", source: "/nonexistent/feeshare-key.json" })

    const short = await rejection(feeshare.login(new Uint8Array(10), "k"))
    expect(short).toMatchObject({ tag: "InvalidKey", reason: "wrong_length" })
  })

  it("MFA: MfaRequired without a code; a code provider is asked only then", async () => {
    const wallet = await generateKeyPairSigner()
    await feeshare.login(wallet, "before-mfa")
    const mfa = await sandbox.setup((s) => s.enableMfa({ payload: { wallet: wallet.address } }))
    const error = await rejection(feeshare.login(wallet, "no-code"))
    expect(error).toBeInstanceOf(MfaRequired)
    expectFacadeError(error, "MfaRequired", 0)
    expect(error).toMatchObject({ method: "totp" })
    let asked = 0
    const secret = Totp.fromBase32(mfa.secret)
    if (secret === undefined) throw new Error("the sandbox returned a bad TOTP secret")
    const credential = await feeshare.login(wallet, "with-code", {
      mfaCode: async () => {
        asked++
        return Totp.generate(secret, Date.now())
      }
    })
    expect(asked).toBe(1)
    expect(credential.isSignup).toBe(false)
  })

  it("on chain: no rpcUrl or no signer is InvalidRequest; a wrong launch mint is refused before signing", async () => {
    const launch = await feeshare.launch.createTransaction({
      ipfs: "ipfs://errors",
      initialBuyLamports: 0,
      tokenMint: token.mint,
      wallet: creator.address,
      configKey: token.configKey
    })
    await using noRpc = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, signer: creator })
    expect(await rejection(noRpc.signAndSend.launch(launch, { mint: token.mint }))).toMatchObject({
      tag: "InvalidRequest",
      field: "rpcUrl",
      operation: "signAndSend.launch"
    })
    await using noSigner = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, rpcUrl: sandbox.rpcUrl })
    expect(await rejection(noSigner.signAndSend.launch(launch, { mint: token.mint }))).toMatchObject({
      tag: "InvalidRequest",
      field: "signer"
    })

    const stranger = await generateKeyPairSigner()
    const refused = await rejection(feeshare.signAndSend.launch(launch, { mint: stranger.address }))
    expect(refused).toBeInstanceOf(MissingSigner)
    expectFacadeError(refused, "MissingSigner", 0)
    expect(refused).toMatchObject({ stage: "launch", signer: stranger.address })
    const state = await sandbox.setup((s) => s.state())
    expect(state.tokens.find((t) => t.mint === token.mint)?.launched).toBe(false)
  })

  it("plans: InvalidPlan listing the violations; a throwing onEvent is a Defect carrying what it threw", async () => {
    const claimer = await generateKeyPairSigner()
    await sandbox.setup((s) =>
      s.createFeeShareConfig({
        payload: { mint: token.mint, admin: creator.address, claimers: [{ wallet: claimer.address, bps: 10_000 }] }
      })
    )
    const launch = await feeshare.launch.createTransaction({
      ipfs: "ipfs://errors-plan",
      initialBuyLamports: 0,
      tokenMint: token.mint,
      wallet: creator.address,
      configKey: token.configKey
    })
    await feeshare.signAndSend.launch(launch, { mint: token.mint })
    const quote = await feeshare.trade.quote({ inputMint: NATIVE_MINT, outputMint: token.mint, amount: SOL })
    await feeshare.signAndSend.swap(await feeshare.trade.swap({ quoteResponse: quote, userPublicKey: creator.address }))
    await sandbox.setup((s) => s.airdrop({ payload: { address: claimer.address, lamports: SOL } }))
    const request = { feeClaimer: claimer.address, tokenMint: token.mint, transactionFormat: "v1" } as const
    const plan = await feeshare.claims.createPlan(request)
    expect(plan.transactions.length).toBeGreaterThan(1)
    await using wallet = new FeeShare({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      rpcUrl: sandbox.rpcUrl,
      signer: claimer,
      commitment: "processed"
    })

    const reversed = { ...plan, transactions: [...plan.transactions].reverse() }
    const invalid = await rejection(wallet.executePlan(reversed, { request }))
    expect(invalid).toBeInstanceOf(InvalidPlan)
    expectFacadeError(invalid, "InvalidPlan", 0)
    expect((invalid as InvalidPlan).violations.length).toBeGreaterThan(0)

    const thrown = new Error("progress display failed")
    const defect = await rejection(wallet.executePlan(plan, {
      request,
      onEvent: () => {
        throw thrown
      }
    }))
    expect(defect).toBeInstanceOf(Defect)
    expectFacadeError(defect, "Defect", 0)
    // Effect copies a defect that crosses a span (to add the span to its stack): same class, same message
    expect((defect as Defect).cause).toBeInstanceOf(Error)
    expect((defect as Defect).cause).toMatchObject({ message: thrown.message })
    // nothing was claimed: the same plan is still there to build
    expect((await feeshare.claims.positions({ wallet: claimer.address })).length).toBe(1)
  })

  it("after close(): Closed", async () => {
    const closing = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })
    await closing.ping()
    await closing.close()
    await closing.close()
    const error = await rejection(closing.ping())
    expect(error).toBeInstanceOf(Closed)
    expectFacadeError(error, "Closed", 0)
  })
})
