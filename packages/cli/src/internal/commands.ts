/**
 * The handlers of `feeshare`'s commands (loaded on demand by `Cli`). Each returns an
 * `Output.Result`; the Solana part is loaded only by the commands that need a key pair.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { FeeShareClient } from "@feeshare/client"
import type * as Client from "@feeshare/client/FeeShareClient"
import type * as RateBudget from "@feeshare/client/RateBudget"
import { Api, BasisPoints, FeeShareError, type Plan } from "@feeshare/domain"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { Globals } from "../Cli.js"
import { MissingApiKey, MissingKeypair } from "../CliError.js"
import * as Credentials from "../Credentials.js"
import * as Output from "../Output.js"
import type { Run } from "./signing.js"

type Service = Client.FeeShareClient.Service

const loadSigning = Effect.promise(() => import("./signing.js"))

/** `{root_url}/rpc` of a base URL: where the sandbox serves its ledger. */
export const defaultRpcUrl = (baseUrl: string): string => {
  const base = baseUrl.replace(/\/+$/, "")
  return `${base.endsWith(Api.basePath) ? base.slice(0, -Api.basePath.length) : base}/rpc`
}

/** The RPC endpoint(s): `--rpc-url` may list several, separated by commas. */
export const rpcUrlOf = (g: Globals): ReadonlyArray<string> => {
  const given = Option.map(g.rpcUrl, (text) => text.split(",").map((url) => url.trim()).filter((url) => url !== ""))
  return Option.isSome(given) && given.value.length > 0 ? given.value : [defaultRpcUrl(g.baseUrl)]
}

/** The API key: the flag or env, else the stored one for this base URL. */
export const apiKeyOf = (g: Globals) =>
  Option.isSome(g.apiKey)
    ? Effect.succeed(Option.some(g.apiKey.value))
    : Effect.map(Credentials.lookup(g.baseUrl), Option.map((entry): Redacted.Redacted<string> => entry.apiKey))

/** A visible line for every rate-limit wait, so that a pause does not look like a hang. */
const announceWait = (wait: Client.RateLimitWait) =>
  Console.error(
    `feeshare: waiting ${Math.ceil(wait.waitMillis / 1000)} s for the rate limit to reset (${wait.operation})`
  )

/**
 * With `--redis-url`: the budget shared through Redis (ioredis loads only then), failing closed
 * with `BudgetUnavailable` when Redis does not answer within 1 s.
 */
export const budgetOf = (g: Globals): Effect.Effect<RateBudget.Options | undefined> => {
  const url = g.redisUrl
  return Option.isNone(url)
    ? Effect.succeed(undefined)
    : Effect.map(Effect.promise(() => import("@feeshare/client/RedisBudget")), (RedisBudget) => ({
      limit: g.budgetLimit,
      window: Duration.hours(1),
      key: Option.getOrUndefined(g.budgetKey),
      store: RedisBudget.make({ url: url.value })
    }))
}

const makeClient = (g: Globals, apiKey: Option.Option<Redacted.Redacted<string>>) =>
  Effect.flatMap(budgetOf(g), (budget) =>
    FeeShareClient.make({
      baseUrl: g.baseUrl,
      apiKey: Option.getOrUndefined(apiKey),
      retry: { maxAttempts: 3 },
      onRateLimitWait: announceWait,
      budget
    })).pipe(Effect.provide(FetchHttpClient.layer))

/** The client with the API key; `MissingApiKey` when there is none. */
const client = (g: Globals, operation: string) =>
  Effect.gen(function*() {
    const apiKey = yield* apiKeyOf(g)
    if (Option.isNone(apiKey)) {
      return yield* new MissingApiKey({
        operation,
        message: `no API key for ${Credentials.keyOf(g.baseUrl)}`
      })
    }
    return yield* makeClient(g, apiKey)
  })

const signer = (g: Globals, operation: string) =>
  Effect.gen(function*() {
    if (Option.isNone(g.keypair)) {
      return yield* new MissingKeypair({ operation, message: "this command needs the wallet: pass --keypair FILE" })
    }
    const signing = yield* loadSigning
    return yield* signing.loadSigner(g.keypair.value)
  })

/** The wallet: `--wallet` when given, else the public key of `--keypair`. */
const walletOf = (g: Globals, wallet: Option.Option<string>, operation: string) =>
  Option.isSome(wallet) ? Effect.succeed(wallet.value) : Effect.map(signer(g, operation), (s) => s.publicKey)

const runOf = (g: Globals): Run => ({
  rpcUrl: rpcUrlOf(g),
  onLine: (line: string) => (g.json ? Effect.void : Console.log(line)),
  onInterrupted: (inFlight) =>
    g.json
      ? Console.log(Output.json({ interrupted: true, inFlight: inFlight.pending }))
      : Console.error(inFlight.interruptedLine())
})

const invalid = (operation: string, field: string, rule: string) =>
  new FeeShareError.InvalidRequest({ operation, field, rule, message: `${operation}: ${field} ${rule}` })

const yesNo = (flag: boolean) => (flag ? "yes" : "no")

// ---------------------------------------------------------------------------
// auth, limits
// ---------------------------------------------------------------------------

export const authLogin = (
  g: Globals,
  args: { readonly keyName: string; readonly mfaCode: Option.Option<string> }
) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "auth login")
    const anonymous = yield* makeClient(g, Option.none())
    const credential = yield* anonymous.agentAuth.login({
      signer: wallet,
      keyName: args.keyName,
      mfaCode: Option.getOrUndefined(args.mfaCode)
    })
    const file = yield* Credentials.save(g.baseUrl, {
      apiKey: credential.apiKey,
      keyId: credential.keyId,
      keyName: args.keyName,
      wallet: wallet.publicKey
    })
    const summary = {
      wallet: wallet.publicKey,
      keyId: credential.keyId,
      keyName: args.keyName,
      isSignup: credential.isSignup,
      baseUrl: Credentials.keyOf(g.baseUrl),
      credentialsFile: file
    }
    return Output.result(summary, [
      `Logged in as ${wallet.publicKey}${credential.isSignup ? " (new account)" : ""}.`,
      ...Output.fields([
        ["key id", credential.keyId],
        ["key name", args.keyName],
        ["stored in", `${file} (mode 0600; used for ${summary.baseUrl})`]
      ])
    ])
  })

export const authMe = (g: Globals) =>
  Effect.gen(function*() {
    const api = yield* client(g, "auth me")
    const { user } = yield* api.identity.me()
    const entries: Array<readonly [string, string]> = [["uuid", user.uuid]]
    for (const key of ["username", "type", "status", "registered_at", "points", "rank"] as const) {
      const value = user[key]
      if (value !== undefined && value !== null) entries.push([key, String(value)])
    }
    return Output.result({ user }, Output.fields(entries))
  })

export const limits = (g: Globals) =>
  Effect.gen(function*() {
    const apiKey = yield* apiKeyOf(g)
    const api = yield* makeClient(g, apiKey)
    const started = Date.now()
    const pong = yield* api.ping()
    const millis = Date.now() - started
    const info = yield* SubscriptionRef.get(api.rateLimit)
    const budget = Option.map(info, (i) => ({
      limit: i.limit,
      remaining: i.remaining,
      resetAt: i.resetAt,
      resetIso: new Date(i.resetAt * 1000).toISOString()
    }))
    return Output.result(
      { ping: pong.message, millis, rateLimit: Option.getOrNull(budget) },
      Output.fields([
        ["ping", `${pong.message} (${millis} ms)`],
        ...Option.match(budget, {
          onNone: (): ReadonlyArray<readonly [string, string]> => [["rate limit", "no X-RateLimit headers"]],
          onSome: (b): ReadonlyArray<readonly [string, string]> => [
            ["limit", String(b.limit)],
            ["remaining", String(b.remaining)],
            ["resets at", b.resetIso]
          ]
        })
      ])
    )
  })

// ---------------------------------------------------------------------------
// claims
// ---------------------------------------------------------------------------

export const claimsPositions = (g: Globals, args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(g, args.wallet, "claims positions")
    const api = yield* client(g, "claims positions")
    const positions = yield* api.claims.positions({ wallet })
    return Output.result(positions, [
      `Claimable positions of ${wallet}:`,
      ...Output.table(
        ["base mint", "quote mint", "migrated", "share bps", "claimable (lamports)"],
        positions.map((p) => [
          p.baseMint,
          p.quoteMint ?? "",
          yesNo(p.isMigrated),
          p.userBps === undefined || p.userBps === null ? "" : String(p.userBps),
          Output.lamports(p.totalClaimableLamportsUserShare)
        ])
      )
    ])
  })

export const claimsVaults = (g: Globals, args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(g, args.wallet, "claims vaults")
    const api = yield* client(g, "claims vaults")
    const { vaults } = yield* api.claims.vaults({ wallet })
    return Output.result({ vaults }, [
      `Aggregate vaults of ${wallet}:`,
      ...Output.table(
        ["kind", "quote mint", "vault", "claimable"],
        vaults.map((v) => [v.kind, v.quoteMint, v.vaultAta, Output.amount(v.claimableAmount, v.quoteDecimals)])
      )
    ])
  })

const planLines = (plan: Plan.TransactionPlan): ReadonlyArray<string> => [
  ...Output.fields([
    ["operation", `${plan.operation.kind} of ${plan.operation.baseMint}`],
    ["asset", `${plan.asset.mint} (decimals ${plan.asset.decimals ?? "unknown"})`],
    ["readiness", plan.readiness.status],
    ["stages", String(plan.transactions.length)]
  ]),
  ...(plan.transactions.length === 0 ? [] : Output.table(
    ["id", "kind", "format", "depends on", "signers", "bytes", "compute units", "valid until height"],
    plan.transactions.map((s) => [
      s.id,
      s.kind,
      s.format,
      s.dependsOn.join(",") || "-",
      s.requiredSigners.map((k) => Output.short(k, 4)).join(","),
      String(s.size.bytes),
      String(s.budget.computeUnitLimit),
      String(s.lifetime.lastValidBlockHeight)
    ])
  ))
]

const planJson = (plan: Plan.TransactionPlan) => ({
  operation: plan.operation,
  asset: plan.asset,
  readiness: plan.readiness,
  stages: plan.transactions.map((s) => ({
    id: s.id,
    kind: s.kind,
    format: s.format,
    dependsOn: s.dependsOn,
    requiredSigners: s.requiredSigners,
    messageSha256: s.messageSha256,
    lifetime: s.lifetime,
    budget: s.budget,
    size: s.size
  }))
})

type Format = Option.Option<"v0" | "v1">

const planRequest = (wallet: string, mint: string, format: Format) => ({
  feeClaimer: wallet,
  tokenMint: mint,
  ...(Option.isSome(format) ? { transactionFormat: format.value } : {})
})

export const claimsPlan = (
  g: Globals,
  args: { readonly mint: string; readonly wallet: Option.Option<string>; readonly format: Format }
) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(g, args.wallet, "claims plan")
    const api = yield* client(g, "claims plan")
    const plan = yield* api.claims.createPlan(planRequest(wallet, args.mint, args.format))
    return Output.result(planJson(plan), [`Claim plan for ${wallet}:`, ...planLines(plan)])
  })

export const claimsClaim = (
  g: Globals,
  args: { readonly mint: string; readonly format: Format; readonly dryRun: boolean }
) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "claims claim")
    const api = yield* client(g, "claims claim")
    const signing = yield* loadSigning
    const request = planRequest(wallet.publicKey, args.mint, args.format)
    const plan = yield* api.claims.createPlan(request)
    const format = request.transactionFormat ?? "v0"
    if (args.dryRun) {
      const { expired } = yield* signing.verifyPlan(plan, format, wallet, runOf(g))
      const pending = plan.readiness.status === "setup_required"
        ? ["The claim stages are built once the lookup-table setup above has landed."]
        : []
      const expiry = typeof expired === "string"
        ? [`Warning: the blockhash expiry could not be checked (${expired}).`]
        : expired.length > 0
        ? [`Warning: the blockhash of ${expired.join(", ")} has expired; a real run rebuilds the plan first.`]
        : []
      return Output.result(
        {
          dryRun: true,
          verified: plan.transactions.map((s) => s.id),
          expired: typeof expired === "string" ? null : expired,
          plan: planJson(plan)
        },
        [`Dry run: the plan and every stage verified; nothing was signed or sent.`, ...planLines(plan), ...pending, ...expiry]
      )
    }
    const run = runOf(g)
    yield* run.onLine(`Claiming ${args.mint} for ${wallet.publicKey} (${plan.readiness.status}):`)
    const result = yield* signing.executePlan(plan, format, () => api.claims.createPlan(request), wallet, run)
    return Output.result(
      { landed: result.stages, rebuilds: result.rebuilds },
      [
        `Claimed: ${result.stages.length} stage(s) landed.`,
        ...Output.table(
          ["stage", "kind", "signature", "slot"],
          result.stages.map((s) => [s.id, s.kind, s.signature, String(s.slot)])
        )
      ]
    )
  })

// ---------------------------------------------------------------------------
// fee share, partner
// ---------------------------------------------------------------------------

const parseClaimers = (claimers: ReadonlyArray<string>) =>
  Effect.forEach(claimers, (text, i) => {
    const at = text.lastIndexOf(":")
    const address = text.slice(0, at)
    const bps = Number(text.slice(at + 1))
    if (at <= 0 || !/^[0-9]+$/.test(text.slice(at + 1)) || !BasisPoints.isBasisPoints(bps)) {
      return Effect.fail(invalid("fee-share update", `--claimer[${i}]`, `must be ADDR:BPS with BPS ${BasisPoints.rule}`))
    }
    return Effect.succeed({ address, bps })
  })

const sentLines = (sent: ReadonlyArray<{ readonly label: string; readonly signature: string; readonly slot: bigint }>) =>
  Output.table(["transaction", "signature", "slot"], sent.map((s) => [s.label, s.signature, String(s.slot)]))

export const feeShareUpdate = (
  g: Globals,
  args: {
    readonly mint: string
    readonly claimers: ReadonlyArray<string>
    readonly lookupTables: ReadonlyArray<string>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const claimers = yield* parseClaimers(args.claimers)
    const wallet = yield* signer(g, "fee-share update")
    const api = yield* client(g, "fee-share update")
    const entries = yield* api.feeShare.updateConfig({
      baseMint: args.mint,
      claimersArray: claimers.map((c) => c.address),
      basisPointsArray: claimers.map((c) => c.bps),
      payer: wallet.publicKey,
      ...(args.lookupTables.length === 0 ? {} : { additionalLookupTables: args.lookupTables })
    })
    const signing = yield* loadSigning
    const sent = yield* signing.feeShareUpdate(entries, wallet, runOf(g), !args.dryRun)
    const shares = Output.table(["claimer", "bps"], claimers.map((c) => [c.address, String(c.bps)]))
    return args.dryRun
      ? Output.result({ dryRun: true, verified: entries.transactions.length, claimers }, [
        `Dry run: ${entries.transactions.length} transaction(s) verified; nothing was signed or sent.`,
        ...shares
      ])
      : Output.result({ landed: sent, claimers }, [
        `Fee share of ${args.mint} updated:`,
        ...shares,
        ...sentLines(sent)
      ])
  })

export const feeShareAdmins = (g: Globals, args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(g, args.wallet, "fee-share admins")
    const api = yield* client(g, "fee-share admins")
    const { tokenMints } = yield* api.feeShare.adminList({ wallet })
    return Output.result({ tokenMints }, [
      `Tokens ${wallet} administers:`,
      ...(tokenMints.length === 0 ? ["(none)"] : tokenMints.map((mint) => `  ${mint}`))
    ])
  })

export const partnerClaim = (g: Globals, args: { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "partner claim")
    const api = yield* client(g, "partner claim")
    const entries = yield* api.feeShare.partnerClaim({ partnerWallet: wallet.publicKey })
    const signing = yield* loadSigning
    const sent = yield* signing.partnerClaim(entries, wallet, runOf(g), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, verified: entries.transactions.length }, [
        `Dry run: ${entries.transactions.length} transaction(s) verified; nothing was signed or sent.`
      ])
      : Output.result({ landed: sent }, [`Partner fees claimed for ${wallet.publicKey}:`, ...sentLines(sent)])
  })

// ---------------------------------------------------------------------------
// launch, trade
// ---------------------------------------------------------------------------

export const launch = (
  g: Globals,
  args: {
    readonly ipfs: string
    readonly mint: string
    readonly configKey: string
    readonly initialBuy: number
    readonly tipWallet: Option.Option<string>
    readonly tipLamports: Option.Option<number>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "launch")
    const api = yield* client(g, "launch")
    const transaction = yield* api.launch.createTransaction({
      ipfs: args.ipfs,
      tokenMint: args.mint,
      wallet: wallet.publicKey,
      configKey: args.configKey,
      initialBuyLamports: args.initialBuy,
      ...(Option.isSome(args.tipWallet) ? { tipWallet: args.tipWallet.value } : {}),
      ...(Option.isSome(args.tipLamports) ? { tipLamports: args.tipLamports.value } : {})
    })
    const signing = yield* loadSigning
    const sent = yield* signing.launch(transaction, args.mint, wallet, runOf(g), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, mint: args.mint }, [
        `Dry run: the launch transaction is signed by the mint ${args.mint} and verified; nothing was signed or sent.`
      ])
      : Output.result({ mint: args.mint, landed: sent }, [`Launched ${args.mint}:`, ...sentLines(sent)])
  })

interface SwapArgs {
  readonly input: string
  readonly output: string
  readonly amount: string
  readonly slippageBps: Option.Option<number>
}

const quoteOf = (api: Service, args: SwapArgs) => {
  const amount = /^(0|[1-9][0-9]*)$/.test(args.amount) ? BigInt(args.amount) : undefined
  if (amount === undefined) {
    return Effect.fail(invalid("trade.quote", "--amount", "must be a whole number of the input token's smallest unit"))
  }
  return api.trade.quote({
    inputMint: args.input,
    outputMint: args.output,
    amount,
    ...(Option.isSome(args.slippageBps) ? { slippageMode: "manual" as const, slippageBps: args.slippageBps.value } : {})
  })
}

type Quote = Effect.Effect.Success<ReturnType<Service["trade"]["quote"]>>

const quoteLines = (quote: Quote): ReadonlyArray<string> => {
  const first = quote.routePlan[0]
  const last = quote.routePlan[quote.routePlan.length - 1]
  const inDecimals = first?.inputMintDecimals
  const outDecimals = last?.outputMintDecimals
  return Output.fields([
    ["in", `${Output.amount(quote.inAmount, inDecimals)} of ${quote.inputMint}`],
    ["out", `${Output.amount(quote.outAmount, outDecimals)} of ${quote.outputMint}`],
    ["minimum out", Output.amount(quote.minOutAmount, outDecimals)],
    ["price impact", Output.percent(quote.priceImpactPct)],
    ["slippage", `${quote.slippageBps} bps`],
    ["route", quote.routePlan.map((step) => step.venue).join(" -> ") || "-"],
    ...(quote.platformFee === undefined || quote.platformFee === null
      ? []
      : [["platform fee", `${quote.platformFee.amount} (${quote.platformFee.feeBps} bps)`] as const])
  ])
}

export const tradeQuote = (g: Globals, args: SwapArgs) =>
  Effect.gen(function*() {
    const api = yield* client(g, "trade quote")
    const quote = yield* quoteOf(api, args)
    return Output.result(quote, quoteLines(quote))
  })

export const tradeSwap = (g: Globals, args: SwapArgs & { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "trade swap")
    const api = yield* client(g, "trade swap")
    const quote = yield* quoteOf(api, args)
    const result = yield* api.trade.swap({ quoteResponse: quote, userPublicKey: wallet.publicKey })
    const signing = yield* loadSigning
    const sent = yield* signing.swap(result, wallet, runOf(g), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, quote }, [
        ...quoteLines(quote),
        `Dry run: the swap transaction is verified; nothing was signed or sent.`
      ])
      : Output.result({ quote, landed: sent }, [...quoteLines(quote), ...sentLines(sent)])
  })

// ---------------------------------------------------------------------------
// analytics, pools
// ---------------------------------------------------------------------------

export const lifetimeFees = (g: Globals, args: { readonly mint: string }) =>
  Effect.gen(function*() {
    const api = yield* client(g, "analytics lifetime-fees")
    const fees = yield* api.analytics.lifetimeFees({ tokenMint: args.mint })
    return Output.result({ tokenMint: args.mint, lifetimeFeesLamports: fees }, [
      `Lifetime fees of ${args.mint}: ${Output.lamports(fees)}`
    ])
  })

export const claimStats = (g: Globals, args: { readonly mint: string }) =>
  Effect.gen(function*() {
    const api = yield* client(g, "analytics claim-stats")
    const stats = yield* api.analytics.claimStats({ tokenMint: args.mint })
    return Output.result(stats, [
      `Claim statistics of ${args.mint}:`,
      ...Output.table(
        ["wallet", "bps", "creator", "admin", "claimed (lamports)"],
        stats.map((s) => [s.wallet, String(s.royaltyBps), yesNo(s.isCreator), yesNo(s.isAdmin), Output.lamports(s.totalClaimed)])
      )
    ])
  })

export const pools = (g: Globals, args: { readonly onlyMigrated: boolean }) =>
  Effect.gen(function*() {
    const api = yield* client(g, "pools")
    const list = yield* api.analytics.pools(args.onlyMigrated ? { onlyMigrated: true } : {})
    return Output.result(list, Output.table(
      ["token mint", "DBC config", "DBC pool", "DAMM v2 pool"],
      list.map((p) => [p.tokenMint, p.dbcConfigKey ?? "-", p.dbcPoolKey ?? "-", p.dammV2PoolKey ?? "-"])
    ))
  })

// ---------------------------------------------------------------------------
// evm
// ---------------------------------------------------------------------------

export const evmIndexStatus = (g: Globals, args: { readonly addresses: ReadonlyArray<string> }) =>
  Effect.gen(function*() {
    const api = yield* client(g, "evm index-status")
    const statuses = yield* api.evm.indexTokenStatus({ tokenAddresses: args.addresses })
    return Output.result(statuses, Output.table(
      ["token", "index token", "basket"],
      statuses.map((s) => [s.tokenAddress, yesNo(s.isIndexToken), s.tokens.join(",") || "-"])
    ))
  })

export const evmPositions = (g: Globals, args: { readonly owner: string }) =>
  Effect.gen(function*() {
    const api = yield* client(g, "evm positions")
    const { positions, truncated } = yield* api.evm.claimablePositions({ owner: args.owner })
    return Output.result({ positions, truncated }, [
      ...Output.table(
        ["token", "symbol", "version", "bps", "actionable (wei)", "lifetime (wei)"],
        positions.map((p) => [
          p.token.address,
          p.token.symbol,
          p.version,
          String(p.userBps),
          Output.amount(p.actionableWei, p.quote.decimals, p.quote.symbol),
          Output.amount(p.lifetimeWei, p.quote.decimals, p.quote.symbol)
        ])
      ),
      ...(truncated ? ["(truncated: discovery hit its bound; positions may be incomplete)"] : [])
    ])
  })

export const evmCreationFee = (g: Globals) =>
  Effect.gen(function*() {
    const api = yield* client(g, "evm creation-fee")
    const { creationFeeWei } = yield* api.evm.creationFee()
    return Output.result({ creationFeeWei }, [`Creation fee: ${Output.wei(creationFeeWei)}`])
  })

