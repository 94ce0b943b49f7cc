/**
 * What every handler shares: the current client (`login` replaces it), the chain, the policy
 * and its daily spending, the wallets, and the single-use previews with what each would do.
 *
 * @since 0.1.0
 */
import type { Toolkit } from "@effect/ai"
import type { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { Claims, FeeShare, LaunchToken, Plan, Signer, Trade } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as LaunchRecord from "@feeshare/solana/LaunchRecord"
import { type Duration, Effect, Layer, Ref } from "effect"
import * as Previews from "../Previews.js"
import type { Preview, toolkit } from "../Tools.js"
import * as WritePolicy from "../WritePolicy.js"
import type { ClaimBound } from "./claimBound.js"

/**
 * The handler of every tool, as the toolkit types them.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolHandlers = Toolkit.HandlersFrom<Toolkit.Tools<typeof toolkit>>

/**
 * What an `execute` of a preview does, as the preview verified it.
 *
 * @since 0.1.0
 * @category models
 */
export type Pending =
  | {
    readonly action: "claim"
    readonly wallet: Signer.Signer.Service
    readonly request: Claims.ClaimPlanRequest
    readonly plan: Plan.TransactionPlan
    readonly fees: bigint
    readonly bound: ClaimBound
  }
  | {
    readonly action: "swap"
    readonly wallet: Signer.Signer.Service
    readonly result: Trade.SwapResult
    readonly lamports: bigint
    readonly fees: bigint
  }
  | {
    readonly action: "launch"
    readonly wallet: Signer.Signer.Service
    readonly transaction: string
    readonly mint: string
    readonly lamports: bigint
    readonly fees: bigint
  }
  | {
    readonly action: "token_launch"
    readonly wallet: Signer.Signer.Service
    readonly request: LaunchToken.LaunchTokenRequest
    /** The dry run's record: its token info, reused by `execute`. */
    readonly store: LaunchRecord.Store
    /** The initial buy and the tip. */
    readonly lamports: bigint
    readonly fees: bigint
  }
  | {
    readonly action: "claim_all"
    readonly wallet: Signer.Signer.Service
    readonly fees: bigint
  }
  | {
    readonly action: "fee_share_update" | "partner_claim"
    readonly wallet: Signer.Signer.Service
    readonly entries: FeeShare.TransactionEntries
    readonly fees: bigint
  }

/**
 * A preview before it has an id.
 *
 * @since 0.1.0
 * @category models
 */
export type Unsaved = Omit<Preview, "previewId" | "expiresAt">

/** What the human is asked to approve (`askHuman`): the action, wallet, amounts and note of a preview. */
const summaryOf = (preview: Unsaved): string =>
  [
    `${preview.action} by ${preview.wallet}`,
    preview.mints.length === 0 ? undefined : `mints ${preview.mints.join(", ")}`,
    `SOL spent ${preview.lamportsSpent} lamports, network fees ${preview.networkFeesLamports} lamports`,
    `${preview.stages.length} transaction(s): ${preview.stages.map((stage) => stage.kind).join(", ")}`,
    preview.note
  ].filter((line) => line !== undefined).join("\n")

/**
 * The handlers' shared state and the policy checks they make.
 *
 * @since 0.1.0
 * @category models
 */
export interface HandlerContext {
  /** The client of the moment (keyless until `login` sets the one with its key). */
  readonly client: Ref.Ref<FeeShareClient.Service>
  /** The client of the moment (`client`'s value). */
  readonly api: Effect.Effect<FeeShareClient.Service>
  readonly chainLayer: Layer.Layer<Chain.Chain>
  readonly policy: WritePolicy.Policy
  readonly signers: ReadonlyArray<Signer.Signer.Service>
  readonly spending: WritePolicy.Spending
  readonly previews: Previews.Store<{ readonly pending: Pending; readonly summary: string }>
  readonly warmupInterval: Duration.DurationInput | undefined
  /** The signing wallet: the named one, else the first; never in read-only mode. */
  readonly signerFor: (wallet: string | undefined) => Effect.Effect<Signer.Signer.Service, WritePolicy.PolicyViolation>
  /** Refuses fees beyond what is left of today's network-fee cap. */
  readonly checkDailyFees: (fees: bigint) => Effect.Effect<void, WritePolicy.PolicyViolation>
  /** A swap (or a launch's initial buy) spending `lamports` of SOL, against both swap caps. */
  readonly checkSwapCaps: (lamports: bigint) => Effect.Effect<void, WritePolicy.PolicyViolation>
  /** Keeps what `execute` will do under a fresh preview id; answers the preview. */
  readonly save: (pending: Pending, unsaved: Unsaved) => Effect.Effect<Preview>
  /**
   * The token launches prepared in this session (`prepare_token_launch`): preparing the same
   * launch again reuses its token info instead of uploading another.
   */
  readonly launchRecords: LaunchRecord.Store
}

/**
 * The handlers' context over a client, a chain, a policy and its wallets.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly api: FeeShareClient.Service
  readonly chain: Chain.Chain.Service
  readonly policy: WritePolicy.Policy
  readonly signers: ReadonlyArray<Signer.Signer.Service>
  readonly warmupInterval: Duration.DurationInput | undefined
}): Effect.Effect<HandlerContext> =>
  Effect.gen(function*() {
    const { policy, signers } = options
    const client = yield* Ref.make(options.api)
    const spending = yield* WritePolicy.makeSpending(policy)
    const previews = yield* Previews.make<{ readonly pending: Pending; readonly summary: string }>(
      policy.previewTtlSeconds * 1000
    )

    const signerFor = (wallet: string | undefined) =>
      Effect.gen(function*() {
        yield* WritePolicy.checkWritable(policy)
        const found = wallet === undefined ? signers[0] : signers.find((signer) => signer.publicKey === wallet)
        if (found === undefined) {
          return yield* new WritePolicy.PolicyViolation({
            rule: "wallet",
            message: wallet === undefined
              ? "no wallet may sign: start the server with --keypair or the policy's wallets"
              : `the wallet ${wallet} is not one the policy lets sign`
          })
        }
        return found
      })

    const checkDailyFees = (fees: bigint) =>
      Effect.flatMap(spending.remaining, (left) =>
        left.networkFeesLamports !== null && fees > left.networkFeesLamports
          ? Effect.fail(
            new WritePolicy.PolicyViolation({
              rule: "maxNetworkFeesPerDayLamports",
              message:
                `the network fees (${fees} lamports) would pass maxNetworkFeesPerDayLamports (${left.networkFeesLamports} left today)`
            })
          )
          : Effect.void)

    const checkSwapCaps = (lamports: bigint) =>
      Effect.gen(function*() {
        if (policy.maxSwapLamports !== undefined && lamports > BigInt(policy.maxSwapLamports)) {
          return yield* new WritePolicy.PolicyViolation({
            rule: "maxSwapLamports",
            message: `the transaction spends ${lamports} lamports; maxSwapLamports is ${policy.maxSwapLamports}`
          })
        }
        const left = yield* spending.remaining
        if (left.swapLamports !== null && lamports > left.swapLamports) {
          return yield* new WritePolicy.PolicyViolation({
            rule: "maxSwapLamportsPerDay",
            message:
              `the transaction spends ${lamports} lamports; ${left.swapLamports} of maxSwapLamportsPerDay are left today`
          })
        }
      })

    const save = (pending: Pending, unsaved: Unsaved) =>
      Effect.map(previews.put({ pending, summary: summaryOf(unsaved) }), ({ expiresAt, id }): Preview => ({
        ...unsaved,
        previewId: id,
        expiresAt: new Date(expiresAt).toISOString()
      }))

    return {
      client,
      api: Ref.get(client),
      chainLayer: Layer.succeed(Chain.Chain, options.chain),
      policy,
      signers,
      spending,
      previews,
      warmupInterval: options.warmupInterval,
      signerFor,
      checkDailyFees,
      checkSwapCaps,
      save,
      launchRecords: LaunchRecord.memory({ maxRecords: 64 })
    }
  })
