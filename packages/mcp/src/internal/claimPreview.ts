/**
 * A claim plan's preview: every stage verified for the wallet (nothing signed), its fees
 * against today's cap, and the bound a rebuilt plan must keep. `prepare_claim` makes one;
 * `execute` makes a fresh one when a rebuilt plan leaves the bound.
 *
 * @since 0.1.0
 */
import type { Claims, Plan, Signer } from "@feeshare/domain"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Effect } from "effect"
import { boundOf, rebuiltFeeFactor } from "./claimBound.js"
import type { HandlerContext } from "./context.js"
import { stagePreview, totalFees } from "./stagePreview.js"

const claimNote = (plan: Plan.TransactionPlan) =>
  plan.readiness.status === "setup_required"
    ? "The lookup-table setup stages land first; the plan is then rebuilt and its claim stages are verified and " +
      `signed only while they keep this operation, asset and signers and cost at most ${rebuiltFeeFactor}x the ` +
      "costliest stage shown here."
    : `Every stage verified. A plan rebuilt after a blockhash expiry is signed only while it matches this preview.`

/** The format a claim request asked for (`v0` when it left it out). */
export const formatOf = (request: Claims.ClaimPlanRequest): Claims.TransactionFormat =>
  request.transactionFormat ?? "v0"

/**
 * Verifies a claim plan for `wallet` (the plan's rules, the requested format, every stage
 * against its metadata) and describes each stage.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyClaim = (
  wallet: Signer.Signer.Service,
  request: Claims.ClaimPlanRequest,
  plan: Plan.TransactionPlan
) =>
  Effect.gen(function*() {
    const local = Signers.make(wallet)
    yield* PlanExecutor.verify(plan, { format: formatOf(request) }).pipe(
      Effect.provideService(Signers.Signers, local)
    )
    return yield* Effect.forEach(plan.transactions, (stage) =>
      Effect.map(
        WireTransaction.verifyStage(stage, Signers.forTransaction(local, stage.requiredSigners)),
        (verified) => stagePreview(stage.id, stage.kind, verified)
      ))
  })

/**
 * Verifies a claim plan and keeps it under a preview id, with the bound its rebuilds must keep.
 *
 * @since 0.1.0
 * @category previews
 */
export const previewClaim = (
  context: HandlerContext,
  wallet: Signer.Signer.Service,
  request: Claims.ClaimPlanRequest,
  plan: Plan.TransactionPlan
) =>
  Effect.gen(function*() {
    const stages = yield* verifyClaim(wallet, request, plan)
    const fees = totalFees(stages)
    yield* context.checkDailyFees(fees)
    return yield* context.save(
      { action: "claim", wallet, request, plan, fees, bound: boundOf(wallet.publicKey, plan, stages) },
      {
        action: "claim",
        wallet: wallet.publicKey,
        mints: [request.tokenMint, plan.asset.mint],
        readiness: plan.readiness.status,
        lamportsSpent: "0",
        networkFeesLamports: String(fees),
        stages,
        verification: {
          verified: true,
          checks: [
            "plan rules (ids, dependencies, readiness)",
            `format ${formatOf(request)}`,
            "each stage's bytes against its metadata: message hash, signers, signatures, lifetime, budget, size"
          ]
        },
        note: claimNote(plan)
      }
    )
  })
