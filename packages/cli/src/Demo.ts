/**
 * `feeshare demo`: the whole product in one run, against an embedded sandbox started in this
 * process. Everything goes the real way: the Effect client over HTTP, local Ed25519 signers,
 * verification before every signature, the JSON-RPC sender against the sandbox's `/rpc`,
 * and the plan executor. Set-up steps that the real service performs elsewhere (creating the
 * token and its fee-share config, airdrops) use the sandbox-only routes through a typed
 * client of `SandboxApi`.
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import { FeeShareClient } from "@feeshare/client"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Signing from "./internal/signing.js"
import * as Output from "./Output.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Print one JSON summary instead of the walkthrough. */
  readonly json: boolean
  /** Milliseconds per slot of the embedded ledger (default 20). */
  readonly slotMillis?: number | undefined
  /** Seed of the sandbox (default `feeshare-demo`). */
  readonly seed?: string | undefined
}

const SOL = 1_000_000_000n

const shares = [
  { role: "creator", bps: 5_000 },
  { role: "claimer-b", bps: 3_000 },
  { role: "claimer-c", bps: 2_000 }
] as const

/**
 * The walkthrough, given a running sandbox (`SandboxInfo`).
 *
 * @since 0.1.0
 * @category demo
 */
export const program = (options: Options) =>
  Effect.gen(function*() {
    const started = Date.now()
    const say = (...lines: ReadonlyArray<string>) => (options.json ? Effect.void : Console.log(lines.join("\n")))
    const step = (n: number, title: string) => say("", `${n}. ${title}`)
    const info = yield* SandboxInfo
    const run: Signing.Run = {
      rpcUrl: info.rpcUrl,
      onLine: (line) => say(line),
      onInterrupted: (inFlight) => Console.error(inFlight.interruptedLine()),
      pollMillis: 25,
      warmupMillis: 50
    }
    const sandbox = yield* HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl })
    let landed = 0

    yield* say(
      "feeshare demo: an embedded sandbox (the whole API over an in-process Solana ledger; nothing touches a real network)",
      ...Output.fields([["base_url", info.baseUrl], ["rpc_url", info.rpcUrl]]).map((line) => `  ${line}`)
    )

    // 1. wallets
    yield* step(1, "Wallets (fresh Ed25519 keys, held in memory)")
    const [creator, claimerB, claimerC, trader] = yield* Effect.all([
      Signing.generate,
      Signing.generate,
      Signing.generate,
      Signing.generate
    ])
    const claimers = [creator, claimerB, claimerC]
    yield* say(
      ...Output.fields([
        ["creator", `${creator.publicKey}  (fee share 50%, admin)`],
        ["claimer B", `${claimerB.publicKey}  (fee share 30%)`],
        ["claimer C", `${claimerC.publicKey}  (fee share 20%)`],
        ["trader", trader.publicKey]
      ]).map((line) => `   ${line}`)
    )

    // 2. login
    yield* step(2, "Log in by wallet signature (agent auth: init, sign the challenge, callback)")
    const anonymous = yield* FeeShareClient.make({ baseUrl: info.baseUrl })
    const credential = yield* anonymous.agentAuth.login({ signer: creator, keyName: "feeshare-demo" })
    const client = yield* FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: credential.apiKey })
    const me = yield* client.identity.me()
    yield* say(
      `   key ${credential.keyId} for user ${me.user.uuid}${credential.isSignup ? " (new account)" : ""}; ` +
        "the key itself stays redacted"
    )

    // 3. funding and the token
    yield* step(3, "Fund the wallets and create a token with a 3-way fee share (sandbox-only set-up routes)")
    for (const wallet of [...claimers, trader]) {
      yield* sandbox.sandbox.airdrop({ payload: { address: wallet.publicKey, lamports: 10n * SOL } })
    }
    yield* say(`   airdropped ${Output.lamports(10n * SOL)} to each of the 4 wallets`)
    const token = yield* sandbox.sandbox.createToken({
      payload: { creator: creator.publicKey, name: "Demo Token", symbol: "DEMO" }
    })
    yield* sandbox.sandbox.createFeeShareConfig({
      payload: {
        mint: token.mint,
        admin: creator.publicKey,
        claimers: claimers.map((wallet, i) => ({ wallet: wallet.publicKey, bps: shares[i]!.bps }))
      }
    })
    yield* say(
      ...Output.fields([
        ["mint", token.mint],
        ["config key", token.configKey],
        ["quote mint", `${token.quoteMint} (wrapped SOL)`],
        ["decimals", String(token.decimals)],
        ["fee share", "50% / 30% / 20%"]
      ]).map((line) => `   ${line}`)
    )

    // 4. launch
    yield* step(4, "Launch: the service returns a transaction signed by the mint; verify, co-sign, send")
    const launchTx = yield* client.launch.createTransaction({
      ipfs: "ipfs://feeshare-demo/metadata.json",
      initialBuyLamports: 0,
      tokenMint: token.mint,
      wallet: creator.publicKey,
      configKey: token.configKey
    })
    const launched = yield* Signing.launch(launchTx, token.mint, creator, run, true)
    landed += launched.length

    // 5. trades
    yield* step(5, "Trades: the trader buys twice and sells once (1% fee on the SOL side accrues to the claimers)")
    const trade = (inputMint: string, outputMint: string, amount: bigint) =>
      Effect.gen(function*() {
        const quote = yield* client.trade.quote({ inputMint, outputMint, amount })
        const decimalsIn = quote.routePlan[0]?.inputMintDecimals ?? null
        const decimalsOut = quote.routePlan[0]?.outputMintDecimals ?? null
        const side = inputMint === token.quoteMint ? "buy " : "sell"
        const unit = (mint: string) => (mint === token.quoteMint ? "SOL" : "DEMO")
        yield* say(
          `   ${side} ${Output.amount(quote.inAmount, decimalsIn, unit(inputMint))} -> ` +
            `${Output.amount(quote.outAmount, decimalsOut, unit(outputMint))}, fee ${
              Output.lamports(quote.platformFee?.amount ?? 0n)
            }`
        )
        const result = yield* client.trade.swap({ quoteResponse: quote, userPublicKey: trader.publicKey })
        const sent = yield* Signing.swap(result, trader, run, true)
        landed += sent.length
        return quote
      })
    const first = yield* trade(token.quoteMint, token.mint, 2n * SOL)
    yield* trade(token.quoteMint, token.mint, SOL)
    yield* trade(token.mint, token.quoteMint, first.outAmount / 2n)

    // 6. positions
    yield* step(6, "Claimable positions of the three claimers")
    const rows: Array<ReadonlyArray<string>> = []
    for (const [i, wallet] of claimers.entries()) {
      const positions = yield* client.claims.positions({ wallet: wallet.publicKey })
      for (const p of positions) {
        rows.push([shares[i]!.role, String(p.userBps ?? ""), Output.lamports(p.totalClaimableLamportsUserShare)])
      }
    }
    yield* say(...Output.table(["claimer", "bps", "claimable (lamports)"], rows).map((line) => `   ${line}`))

    // 7. the claim plan
    yield* step(7, "Claim for claimer B: plan (v0, needs a lookup table) -> setup stages -> warm-up -> claim, landed")
    const request = { feeClaimer: claimerB.publicKey, tokenMint: token.mint, transactionFormat: "v0" as const }
    const plan = yield* client.claims.createPlan(request)
    yield* say(
      `   first answer: readiness ${plan.readiness.status}, ${plan.transactions.length} stage(s): ` +
        plan.transactions.map((s) => `${s.id} (${s.kind})`).join(", ")
    )
    const claimed = yield* Signing.executePlan(
      plan,
      request.transactionFormat,
      () => client.claims.createPlan(request),
      claimerB,
      run
    )
    landed += claimed.stages.length

    // 8. analytics
    yield* step(8, "Analytics")
    const lifetime = yield* client.analytics.lifetimeFees({ tokenMint: token.mint })
    const stats = yield* client.analytics.claimStats({ tokenMint: token.mint })
    const roleOf = (wallet: string) => {
      const i = claimers.findIndex((c) => c.publicKey === wallet)
      return i < 0 ? Output.short(wallet) : shares[i]!.role
    }
    yield* say(
      `   lifetime fees: ${Output.lamports(lifetime)}`,
      ...Output.table(
        ["claimer", "bps", "claimed (lamports)"],
        stats.map((s) => [roleOf(s.wallet), String(s.royaltyBps), Output.lamports(s.totalClaimed)])
      ).map((line) => `   ${line}`)
    )
    const claimedB = stats.find((s) => s.wallet === claimerB.publicKey)?.totalClaimed ?? 0n
    const limit = yield* client.rateLimit.get

    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const summary = {
      baseUrl: info.baseUrl,
      mint: token.mint,
      wallets: {
        creator: creator.publicKey,
        claimerB: claimerB.publicKey,
        claimerC: claimerC.publicKey,
        trader: trader.publicKey
      },
      keyId: credential.keyId,
      transactionsLanded: landed,
      claimPlan: {
        firstReadiness: plan.readiness.status,
        stages: claimed.stages.map((s) => ({ id: s.id, kind: s.kind, signature: s.signature, slot: s.slot })),
        rebuilds: claimed.rebuilds
      },
      lifetimeFeesLamports: lifetime,
      claimedByBLamports: claimedB,
      rateLimitRemaining: Option.getOrNull(Option.map(limit, (l) => l.remaining)),
      seconds: Number(seconds)
    }
    yield* say(
      "",
      "Summary",
      ...Output.fields([
        ["token", `${token.mint} launched, fee share 50/30/20`],
        ["transactions", `${landed} landed (1 launch, 3 swaps, ${claimed.stages.length} claim-plan stages)`],
        ["lifetime fees", Output.lamports(lifetime)],
        ["claimed by B", `${Output.lamports(claimedB)} (30% of the fees, in wrapped SOL)`],
        [
          "claim plan",
          `first answer ${plan.readiness.status}; ${claimed.rebuilds} rebuild(s); every stage verified before signing`
        ],
        ["rate limit", Option.match(limit, { onNone: () => "-", onSome: (l) => `${l.remaining}/${l.limit} left` })],
        ["took", `${seconds} s`]
      ]).map((line) => `  ${line}`)
    )
    if (options.json) yield* Console.log(Output.json(summary))
    return summary
  }).pipe(Effect.provide(FetchHttpClient.layer))

/**
 * Starts the embedded sandbox on a free port, runs the walkthrough, and stops the sandbox.
 *
 * @since 0.1.0
 * @category demo
 */
export const run = (options: Options) =>
  program(options).pipe(
    Effect.provide(
      Sandbox.layer({ port: 0, slotMillis: options.slotMillis ?? 20, seed: options.seed ?? "feeshare-demo" })
    ),
    Effect.scoped,
    Effect.asVoid
  )
