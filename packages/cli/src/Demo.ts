/**
 * `feeshare demo`: the whole product in one run, against an embedded sandbox started in this
 * process. Everything goes the real way: the Effect client over HTTP, local Ed25519 signers,
 * verification before every signature, the JSON-RPC sender against the sandbox's `/rpc`,
 * and the plan executor. The token is launched from nothing through the launch flow
 * (`LaunchToken.run`: the project's image `assets/demo-token.png`, a split paying a share to
 * the seeded handle `social:sandbox_alice`, token info, config, launch). Only the airdrops use
 * the sandbox-only routes, through a typed client of `SandboxApi`.
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
import { demoImage } from "./internal/demoImage.js"
import * as LaunchProgress from "./internal/launchProgress.js"
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
  { role: "social:sandbox_alice", bps: 2_000 }
] as const

/** The seeded handle of the sandbox the demo pays a share to. */
const handle = { provider: "social", username: "sandbox_alice" } as const

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
    const [creator, claimerB, trader] = yield* Effect.all([Signing.generate, Signing.generate, Signing.generate])
    yield* say(
      ...Output.fields([
        ["creator", `${creator.publicKey}  (fee share 50%, deployer)`],
        ["claimer B", `${claimerB.publicKey}  (fee share 30%)`],
        ["claimer C", "the handle social:sandbox_alice  (fee share 20%; its wallet is looked up)"],
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

    // 3. funding
    yield* step(3, "Fund the wallets (sandbox-only airdrop)")
    for (const wallet of [creator, claimerB, trader]) {
      yield* sandbox.sandbox.airdrop({ payload: { address: wallet.publicKey, lamports: 10n * SOL } })
    }
    yield* say(`   airdropped ${Output.lamports(10n * SOL)} to each of the 3 wallets`)

    // 4. launch from nothing
    yield* step(
      4,
      "Launch from nothing: the project's image and a 3-way split with a handle -> token info -> config -> launch"
    )
    const launched = yield* Signing.launchToken(
      {
        name: "Demo Token",
        symbol: "DEMO",
        description: "launched from nothing by feeshare demo",
        image: { bytes: demoImage, filename: "demo-token.png" },
        shares: [
          { wallet: creator.publicKey, bps: shares[0].bps },
          { wallet: claimerB.publicKey, bps: shares[1].bps },
          { ...handle, bps: shares[2].bps }
        ],
        initialBuyLamports: 0
      },
      {
        wallets: client.launch.wallets,
        createTokenInfo: client.launch.createTokenInfo,
        createConfig: client.feeShare.createConfig,
        createTransaction: client.launch.createTransaction
      },
      creator,
      run,
      {
        relayUrl: `${info.rootUrl}/sandbox/bundles`,
        store: Signing.memoryRecords(),
        dryRun: false,
        onEvent: (event) => {
          if (event._tag === "Landed") landed++
          return say(...LaunchProgress.line(event).map((line) => ` ${line}`))
        }
      }
    )
    const state = yield* sandbox.sandbox.state()
    const made = state.tokens.find((t) => t.mint === launched.mint)
    const token = {
      mint: launched.mint,
      quoteMint: made?.quoteMint ?? "So11111111111111111111111111111111111111112",
      decimals: Number(made?.["decimals"] ?? 6)
    }
    const claimers = launched.shares.map((share) => share.wallet)
    yield* say(
      ...Output.fields([
        ["mint", token.mint],
        ["metadata", launched.metadataUrl],
        ["config key", launched.configKey ?? "-"],
        ["quote mint", `${token.quoteMint} (wrapped SOL)`],
        ["decimals", String(token.decimals)],
        ["fee share", "50% / 30% / 20%, after the deployer's 25%"]
      ]).map((line) => `   ${line}`)
    )

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
      const positions = yield* client.claims.positions({ wallet })
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
      const i = claimers.indexOf(wallet)
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
        claimerC: claimers[2] ?? null,
        trader: trader.publicKey
      },
      launch: {
        signature: launched.signature ?? null,
        configKey: launched.configKey ?? null,
        metadataUrl: launched.metadataUrl,
        handle: `${handle.provider}:${handle.username}`
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
        ["token", `${token.mint} launched from nothing, fee share 50/30/20 (20% to a handle)`],
        [
          "transactions",
          `${landed} landed (config and launch, 3 swaps, ${claimed.stages.length} claim-plan stages)`
        ],
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
