/**
 * A named step of the keeper, in the style of `@effect/workflow`'s activities: a name, the
 * Schema of what it succeeds with, the Schema of what it fails with, and its body, run as a
 * span of its name. The claim (`Claim.ts`) and the journal's writes (`JournalWrites.ts`) are
 * made of steps.
 *
 * Unlike an activity, a step needs no workflow around it (the pass's reconciliation runs
 * outside any), and its result is not journaled by the engine: the claim's one activity is.
 *
 * @since 0.1.0
 */
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"

/**
 * A step: `run` gives the body's effect, whose success and failure are those of the Schemas.
 *
 * @since 0.1.0
 * @category models
 */
export interface Step<
  Args extends ReadonlyArray<unknown>,
  Success extends Schema.Schema.Any,
  Failure extends Schema.Schema.All,
  R
> {
  /** The step's name: its span is `Step.<name>`. */
  readonly name: string
  /** What the step succeeds with. */
  readonly success: Success
  /** What the step can fail with (`Schema.Never`: nothing). */
  readonly error: Failure
  /** The body's effect for `args`, as a span named `Step.<name>`. */
  readonly run: (...args: Args) => Effect.Effect<Success["Type"], Failure["Type"], R>
}

/**
 * A step named `name` whose body is `execute`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <
  Args extends ReadonlyArray<unknown>,
  Success extends Schema.Schema.Any,
  Failure extends Schema.Schema.All,
  R
>(options: {
  readonly name: string
  readonly success: Success
  readonly error: Failure
  readonly execute: (...args: Args) => Effect.Effect<Success["Type"], Failure["Type"], R>
}): Step<Args, Success, Failure, R> => {
  const span = `Step.${options.name}`
  return {
    name: options.name,
    success: options.success,
    error: options.error,
    run: (...args) => Effect.withSpan(options.execute(...args), span)
  }
}

/**
 * `@effect/sql`'s `SqlError` (a data error, not a Schema class) as a Schema, for the steps
 * that read or write the journal.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SqlFailure: Schema.Schema<SqlError> = Schema.declare(
  (input: unknown): input is SqlError => input instanceof SqlError,
  { identifier: "SqlError" }
)
