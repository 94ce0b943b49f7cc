/**
 * How a position's run ended, and the rules that say so, written once: the claim, the dry
 * run, the journal's runs and `status` all read them from here.
 *
 * @since 0.1.0
 */
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Schema } from "effect"

/**
 * The kinds of ending: `claimed`, `nothing` (nothing left to claim), `dry-run` (verified, not
 * signed), `refused` (a verification refused the plan: nothing signed), `failed`, `fee-cap`
 * (the plan would pass `maxFeesPerHourLamports`), `skipped` (it does not pay: its fees and rent
 * exceed `maxCostFraction` of what it would claim; nothing signed).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Kind = Schema.Literal("claimed", "nothing", "dry-run", "refused", "failed", "fee-cap", "skipped")

/**
 * @since 0.1.0
 * @category models
 */
export type Kind = typeof Kind.Type

/**
 * Why an item was skipped: what its verified transactions would cost the wallet (network
 * fees, rent of the accounts they create) against what it would claim, and the rule.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Skipped = Schema.Struct({
  reason: Schema.String,
  fees: Schema.BigInt,
  rent: Schema.BigInt,
  claimable: Schema.BigInt
})

/**
 * @since 0.1.0
 * @category models
 */
export type Skipped = typeof Skipped.Type

/**
 * How a position's run ended.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Outcome = Schema.Struct({
  outcome: Kind,
  tag: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String),
  lamports: Schema.BigInt,
  fees: Schema.BigInt,
  signatures: Schema.Array(Schema.String),
  rebuilds: Schema.Number,
  /** Set when the outcome is `skipped` (absent in the replies of keepers from before it). */
  skipped: Schema.optionalWith(Skipped, { exact: true })
})

/**
 * @since 0.1.0
 * @category models
 */
export type Outcome = typeof Outcome.Type

/**
 * An `Outcome` with nothing claimed, spent or signed unless given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (fields: Partial<Outcome> & Pick<Outcome, "outcome">): Outcome => ({
  tag: null,
  message: null,
  lamports: 0n,
  fees: 0n,
  signatures: [],
  rebuilds: 0,
  ...fields
})

/**
 * The tag of a `skipped` outcome.
 *
 * @since 0.1.0
 * @category constants
 */
export const costExceedsClaim = "CostExceedsClaim"

/**
 * The outcome of an item left alone because it does not pay: its `cost` is more than
 * `maxCostFraction` of `claimable`. Nothing was signed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const skip = (
  cost: { readonly fees: bigint; readonly rent: bigint },
  claimable: bigint,
  maxCostFraction: number
): Outcome => {
  const reason = `fees ${cost.fees} + rent ${cost.rent} lamports exceed ${
    maxCostFraction * 100
  }% (maxCostFraction) of the ${claimable} it would claim`
  return make({
    outcome: "skipped",
    tag: costExceedsClaim,
    message: reason,
    skipped: { reason, fees: cost.fees, rent: cost.rent, claimable }
  })
}

/**
 * Whether a failure is one of the verification refusals (nothing was signed).
 *
 * @since 0.1.0
 * @category rules
 */
export const isRefusal = Schema.is(WireTransaction.Refusal)

/**
 * The kind of a run that ended in `error`: the fee cap; a claim that does not pay; a refusal (a verification, or a plan
 * the executor found invalid: nothing signed); else a failure.
 *
 * @since 0.1.0
 * @category rules
 */
export const kindOfError = (error: { readonly _tag: string }): Kind =>
  error._tag === "FeeCapReached"
    ? "fee-cap"
    : error._tag === costExceedsClaim
    ? "skipped"
    : isRefusal(error) || error._tag === "InvalidPlan"
    ? "refused"
    : "failed"

/**
 * The outcome of a run that ended in `error`, with the fees it had paid by then.
 *
 * @since 0.1.0
 * @category rules
 */
export const fromError = (error: { readonly _tag: string; readonly message: string }, fees = 0n): Outcome =>
  make({ outcome: kindOfError(error), tag: error._tag, message: error.message, fees })

/**
 * Whether a kind is a failure to claim (`refused`, `failed`, `fee-cap`): logged as a warning,
 * counted as a failure, listed by `status`.
 *
 * @since 0.1.0
 * @category rules
 */
export const isFailure = (kind: Kind): boolean => kind === "refused" || kind === "failed" || kind === "fee-cap"
