/**
 * A claim preview's bound: what a plan rebuilt during `execute` may be and still be signed.
 *
 * @since 0.1.0
 */
import type { Plan } from "@feeshare/domain"
import type { StagePreview } from "./stagePreview.js"

/**
 * A claim preview's limits on what a rebuilt plan may be.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimBound {
  readonly operation: string
  readonly asset: string
  readonly signers: ReadonlySet<string>
  /** Accounts per stage kind seen in the preview. */
  readonly accounts: ReadonlyMap<string, ReadonlySet<string>>
  readonly maxStageFee: bigint
}

/**
 * How much more than the costliest previewed stage a rebuilt stage may cost in network fees
 * (a claim stage after lookup-table setup uses more compute than the setup stage).
 *
 * @since 0.1.0
 * @category constants
 */
export const rebuiltFeeFactor = 4n

/**
 * Checks a rebuilt claim plan against its preview's bound: the same operation and asset, no
 * signer the preview did not show, for a stage kind the preview showed no account it did
 * not show, and no stage costlier than `rebuiltFeeFactor` times the costliest previewed one.
 *
 * @since 0.1.0
 * @category verification
 */
export const matchesBound = (
  bound: ClaimBound,
  plan: Pick<Plan.TransactionPlan, "operation" | "asset">,
  stages: ReadonlyArray<StagePreview>
): string | undefined => {
  if (JSON.stringify(plan.operation) !== bound.operation) return "the plan's operation changed"
  if (plan.asset.mint !== bound.asset) return "the plan's asset changed"
  for (const stage of stages) {
    // a signer whose signature came with the transaction (verified) is not asked to sign
    const signer = stage.requiredSigners.find((key) => !bound.signers.has(key) && !stage.presigned.includes(key))
    if (signer !== undefined) return `${stage.id}: signer ${signer} was not in the preview`
    const known = bound.accounts.get(stage.kind)
    const account = known === undefined ? undefined : stage.accounts.find((key) => !known.has(key))
    if (account !== undefined) return `${stage.id}: account ${account} was not in the preview's ${stage.kind} stages`
    if (BigInt(stage.networkFeeLamports) > bound.maxStageFee * rebuiltFeeFactor) {
      return `${stage.id}: network fee ${stage.networkFeeLamports} lamports is above the preview's bound`
    }
  }
  return undefined
}

/**
 * The bound a claim preview sets: its operation, asset, signers, accounts per stage kind and
 * costliest stage.
 *
 * @since 0.1.0
 * @category verification
 */
export const boundOf = (
  wallet: string,
  plan: Pick<Plan.TransactionPlan, "operation" | "asset">,
  stages: ReadonlyArray<StagePreview>
): ClaimBound => {
  const accounts = new Map<string, Set<string>>()
  for (const stage of stages) {
    const set = accounts.get(stage.kind) ?? new Set<string>()
    for (const key of stage.accounts) set.add(key)
    accounts.set(stage.kind, set)
  }
  return {
    operation: JSON.stringify(plan.operation),
    asset: plan.asset.mint,
    signers: new Set([wallet, ...stages.flatMap((stage) => stage.requiredSigners)]),
    accounts,
    maxStageFee: stages.reduce((max, stage) => {
      const fee = BigInt(stage.networkFeeLamports)
      return fee > max ? fee : max
    }, 5000n)
  }
}
