/**
 * `feeshare claims positions | vaults | plan | claim | events`.
 */
import type { Plan } from "@feeshare/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Output from "../../Output.js"
import { type ClaimFlags, claimRequest } from "../claimRequest.js"
import { client, invalid, loadSigning, runOf, signer, walletOf, yesNo } from "../context.js"

export const positions = (args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(args.wallet, "claims positions")
    const api = yield* client("claims positions")
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

export const vaults = (args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(args.wallet, "claims vaults")
    const api = yield* client("claims vaults")
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

export const plan = (args: ClaimFlags & { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(args.wallet, "claims plan")
    const request = yield* claimRequest("claims plan", wallet, args)
    const api = yield* client("claims plan")
    const plan = yield* api.claims.createPlan(request)
    return Output.result(planJson(plan), [`Claim plan for ${wallet}:`, ...planLines(plan)])
  })

export const claim = (args: ClaimFlags & { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer("claims claim")
    const request = yield* claimRequest("claims claim", wallet.publicKey, args)
    const api = yield* client("claims claim")
    const signing = yield* loadSigning
    const plan = yield* api.claims.createPlan(request)
    const format = request.transactionFormat ?? "v0"
    if (args.dryRun) {
      const { expired } = yield* signing.verifyPlan(plan, format, wallet, yield* runOf())
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
        [
          `Dry run: the plan and every stage verified; nothing was signed or sent.`,
          ...planLines(plan),
          ...pending,
          ...expiry
        ]
      )
    }
    const run = yield* runOf({ table: true })
    yield* run.onLine(`Claiming ${args.mint} for ${wallet.publicKey} (${plan.readiness.status}):`)
    const { paid, result } = yield* signing.measurePaid(
      wallet.publicKey,
      plan.asset,
      run,
      signing.executePlan(plan, format, () => api.claims.createPlan(request), wallet, run)
    )
    const asset = plan.asset
    return Output.result(
      {
        landed: result.stages,
        rebuilds: result.rebuilds,
        paid: {
          mint: asset.mint,
          tokenProgram: asset.tokenProgram,
          decimals: asset.decimals,
          raw: paid === undefined ? null : String(paid)
        }
      },
      [
        `Claimed: ${result.stages.length} stage(s) landed; ${
          paid === undefined
            ? "what it paid is unknown (the balance read failed)"
            : `paid ${Output.amount(paid, asset.decimals)} of ${asset.mint} into the wallet's token account`
        }.`,
        ...Output.table(
          ["stage", "kind", "signature", "slot"],
          result.stages.map((s) => [s.id, s.kind, s.signature, String(s.slot)])
        )
      ]
    )
  })

const durationUnits: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }

/** The spellings `--since` and `--until` accept. */
export const timeSyntax = "unix seconds, an ISO-8601 time, or a span back from now such as 90m, 24h, 7d"

/** `--since`/`--until` as unix seconds: unix seconds, an ISO-8601 time, or a span back from `now`. */
const unixSeconds = (flag: string, text: string, now: number) => {
  const span = /^([0-9]{1,9})([smhdw])$/.exec(text)
  const seconds = /^[0-9]{1,12}$/.test(text)
    ? Number(text)
    : span !== null
    ? now - Number(span[1]) * (durationUnits[span[2]!] ?? 0)
    : Math.floor(Date.parse(text) / 1000)
  return Number.isSafeInteger(seconds) && seconds >= 0
    ? Effect.succeed(seconds)
    : Effect.fail(invalid("claims events", flag, `must be ${timeSyntax}`))
}

export const events = (
  args: {
    readonly mint: string
    readonly since: Option.Option<string>
    readonly until: Option.Option<string>
    readonly limit: Option.Option<number>
    readonly offset: Option.Option<number>
  }
) =>
  Effect.gen(function*() {
    const now = Math.floor(Date.now() / 1000)
    if (Option.isNone(args.since) && Option.isSome(args.until)) {
      return yield* invalid("claims events", "--until", "applies with --since only")
    }
    const query = Option.isSome(args.since)
      ? {
        tokenMint: args.mint,
        mode: "time" as const,
        from: yield* unixSeconds("--since", args.since.value, now),
        to: Option.isSome(args.until) ? yield* unixSeconds("--until", args.until.value, now) : now,
        ...(Option.isSome(args.limit) ? { limit: args.limit.value } : {}),
        ...(Option.isSome(args.offset) ? { offset: args.offset.value } : {})
      }
      : {
        tokenMint: args.mint,
        ...(Option.isSome(args.limit) ? { limit: args.limit.value } : {}),
        ...(Option.isSome(args.offset) ? { offset: args.offset.value } : {})
      }
    const api = yield* client("claims events")
    const { events } = yield* api.analytics.claimEvents(query).pipe(
      Effect.mapError((error) =>
        error._tag === "InvalidRequest" && ["limit", "offset", "from", "to"].includes(error.field)
          ? invalid("claims events", flagOf[error.field] ?? error.field, error.rule)
          : error
      )
    )
    const total = events.reduce((sum, e) => sum + e.amount, 0n)
    return Output.result({ tokenMint: args.mint, events, total: String(total) }, [
      `Claims of ${args.mint}${Option.isSome(args.since) ? " in the window" : ""}, newest first:`,
      ...(events.length === 0 ? ["(none)"] : Output.table(
        ["time", "wallet", "creator", "amount (lamports)", "signature"],
        events.map((e) => [
          e.timestamp.toISOString(),
          e.wallet,
          yesNo(e.isCreator),
          Output.lamports(e.amount),
          Output.short(e.signature, 8)
        ])
      )),
      `${events.length} claim(s), ${Output.lamports(total)} in all.`
    ])
  })

const flagOf: Readonly<Record<string, string>> = {
  limit: "--limit",
  offset: "--offset",
  from: "--since",
  to: "--until"
}
