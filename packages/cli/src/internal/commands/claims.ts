/**
 * `feeshare claims positions | vaults | plan | claim`.
 */
import type { Plan } from "@feeshare/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Output from "../../Output.js"
import { type ClaimFlags, claimRequest } from "../claimRequest.js"
import { client, loadSigning, runOf, signer, walletOf, yesNo } from "../context.js"

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
