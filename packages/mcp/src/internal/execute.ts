/**
 * The `execute` tool's handler: takes a preview once, asks the human when the policy says so,
 * counts its spending against the daily caps, then signs and sends what the preview verified.
 * A claim plan rebuilt meanwhile is signed only while it keeps the preview's bound.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import * as Flows from "@feeshare/solana/Flows"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Layer, Schema } from "effect"
import { ToolFailure } from "../Tools.js"
import * as WritePolicy from "../WritePolicy.js"
import * as ClaimAll from "./claimAll.js"
import { matchesBound } from "./claimBound.js"
import { formatOf, previewClaim, verifyClaim } from "./claimPreview.js"
import type { HandlerContext, Pending, ToolHandlers } from "./context.js"
import { failing } from "./failures.js"
import { totalFees } from "./stagePreview.js"
import * as TokenLaunch from "./tokenLaunch.js"

/**
 * The policy's `askHuman`: the human approves the preview through MCP elicitation; a
 * decline, a cancel, or a client without elicitation refuses the execution (nothing signed).
 */
const askHuman = (summary: string) =>
  McpServer.elicit({
    message: `An agent asks to sign and send:\n${summary}\nApprove?`,
    schema: Schema.Struct({ approve: Schema.Boolean.annotations({ description: "sign and send it" }) })
  }).pipe(
    Effect.catchAllCause(() => Effect.succeed({ approve: false })),
    Effect.flatMap(({ approve }) =>
      approve
        ? Effect.void
        : Effect.fail(
          new ToolFailure({
            error: "PolicyViolation",
            rule: "askHuman",
            message: "the human did not approve (declined, cancelled, or the client cannot ask): nothing was signed"
          })
        )
    )
  )

const executeClaim = (context: HandlerContext, previewId: string, pending: Extract<Pending, { action: "claim" }>) =>
  Effect.gen(function*() {
    const { chainLayer, spending, warmupInterval } = context
    yield* failing(spending.spend("fees", pending.fees))
    const rebuild = () =>
      Effect.gen(function*() {
        const next = yield* Effect.flatMap(context.api, (client) => client.claims.createPlan(pending.request))
        const stages = yield* verifyClaim(pending.wallet, pending.request, next)
        const mismatch = matchesBound(pending.bound, next, stages)
        if (mismatch !== undefined) {
          const fresh = yield* previewClaim(context, pending.wallet, pending.request, next)
          return yield* new ToolFailure({
            error: "PreviewMismatch",
            message: `the rebuilt plan no longer matches the preview (${mismatch}): nothing of it was signed; ` +
              `review the new preview ${fresh.previewId}`,
            newPreviewId: fresh.previewId
          })
        }
        yield* spending.spend("fees", totalFees(stages))
        return next
      }).pipe(failing)
    const result = yield* PlanExecutor.execute(pending.plan, {
      rebuild,
      format: formatOf(pending.request),
      warmupInterval: warmupInterval ?? "1 second",
      rebroadcastInterval: "1 second"
    }).pipe(
      Effect.provide(Layer.merge(Signers.layer(pending.wallet), chainLayer)),
      failing
    )
    return {
      previewId,
      action: "claim" as const,
      landed: result.stages.map((stage) => ({
        id: stage.id,
        kind: stage.kind,
        signature: stage.signature,
        slot: String(stage.slot)
      })),
      rebuilds: result.rebuilds
    }
  })

const executeSwap = (
  { chainLayer, spending }: HandlerContext,
  previewId: string,
  pending: Extract<Pending, { action: "swap" }>
) =>
  Effect.gen(function*() {
    yield* spending.spend("swap", pending.lamports)
    yield* spending.spend("fees", pending.fees)
    const landed = yield* Flows.swap(pending.result, { rebroadcastInterval: "1 second" }).pipe(
      Effect.provide(Layer.merge(Signers.layer(pending.wallet), chainLayer))
    )
    return {
      previewId,
      action: "swap" as const,
      landed: [{ id: "swap", kind: "swap", signature: landed.signature, slot: String(landed.slot) }],
      rebuilds: 0
    }
  }).pipe(failing)

const executeOther = (
  { chainLayer, spending }: HandlerContext,
  previewId: string,
  pending: Exclude<Pending, { action: "claim" | "swap" | "token_launch" | "claim_all" }>
) =>
  Effect.gen(function*() {
    if (pending.action === "launch") yield* spending.spend("swap", pending.lamports)
    yield* spending.spend("fees", pending.fees)
    const environment = Layer.merge(Signers.layer(pending.wallet), chainLayer)
    const options = { rebroadcastInterval: "1 second" } as const
    const landed = pending.action === "launch"
      ? [yield* Flows.launch(pending.transaction, { ...options, mint: pending.mint }).pipe(Effect.provide(environment))]
      : pending.action === "fee_share_update"
      ? yield* Flows.feeShareUpdate(pending.entries, options).pipe(Effect.provide(environment))
      : yield* Flows.partnerClaim(pending.entries, options).pipe(Effect.provide(environment))
    return {
      previewId,
      action: pending.action,
      landed: landed.map((one, i) => ({
        id: pending.action === "launch" ? "launch" : `entry ${i}`,
        kind: pending.action,
        signature: one.signature,
        slot: String(one.slot)
      })),
      rebuilds: 0
    }
  }).pipe(failing)

const executeTokenLaunch = (
  context: HandlerContext,
  previewId: string,
  pending: Extract<Pending, { action: "token_launch" }>
) =>
  Effect.map(TokenLaunch.execute(context, pending), ({ landed }) => ({
    previewId,
    action: "token_launch" as const,
    landed,
    rebuilds: 0
  })).pipe(failing)

/**
 * The `execute` handler.
 *
 * @since 0.1.0
 * @category handlers
 */
export const make = (context: HandlerContext): Pick<ToolHandlers, "execute"> => ({
  execute: ({ previewId }) =>
    Effect.gen(function*() {
      const { pending, summary } = yield* failing(context.previews.take(previewId))
      yield* failing(WritePolicy.checkWritable(context.policy))
      if (context.policy.askHuman) yield* askHuman(summary)
      return pending.action === "claim"
        ? yield* executeClaim(context, previewId, pending)
        : pending.action === "swap"
        ? yield* executeSwap(context, previewId, pending)
        : pending.action === "token_launch"
        ? yield* executeTokenLaunch(context, previewId, pending)
        : pending.action === "claim_all"
        ? yield* failing(ClaimAll.execute(context, previewId, pending))
        : yield* executeOther(context, previewId, pending)
    })
})
