/**
 * Typed failures as the agent sees them: every handler's failure becomes a `ToolFailure`.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { ToolFailure } from "../Tools.js"

/**
 * What `toFailure` reads of a failure.
 *
 * @since 0.1.0
 * @category models
 */
export interface Failing {
  readonly _tag: string
  readonly message: string
}

const stringField = (error: object, key: string): string | undefined => {
  const value: unknown = Reflect.get(error, key)
  return typeof value === "string" ? value : undefined
}

/**
 * Any typed failure as a `ToolFailure`: its tag, its message, and its field and rule (an
 * `InvalidRequest`), policy rule (a `PolicyViolation`) or HTTP status when it has them.
 *
 * @since 0.1.0
 * @category failures
 */
export const toFailure = (error: Failing): ToolFailure => {
  if (error instanceof ToolFailure) return error
  const status: unknown = Reflect.get(error, "status")
  const field = stringField(error, "field")
  const rule = stringField(error, "rule")
  return new ToolFailure({
    error: error._tag,
    message: error.message,
    ...(field === undefined ? {} : { field }),
    ...(rule === undefined ? {} : { rule }),
    ...(typeof status === "number" ? { status } : {})
  })
}

/**
 * The effect with its failures as `ToolFailure`s.
 *
 * @since 0.1.0
 * @category failures
 */
export const failing = <A, E extends Failing, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ToolFailure, R> =>
  Effect.mapError(effect, toFailure)
