/**
 * What a failed `FeeShare` call rejects with: `FeeShareError` (the union of the classes
 * `Errors` exports under the core's failure tags, and `Aborted`, `Closed`, `Defect`), its
 * guard `isFeeShareError`, and `fromCause`, which turns a failure into its facade class.
 *
 * @since 0.1.0
 */
import * as Failures from "@feeshare/solana/Failures"
import { Cause } from "effect"
// the classes of `Errors` by the table's tags (types only)
import type * as Errors from "./Errors.js"
import { Aborted, Closed, Defect } from "./Errors.js"
import { registered } from "./internal/facade.js"

/**
 * Every class a `FeeShare` call can reject with: the facade class of every core failure, and
 * `Aborted`, `Closed` and `Defect`.
 *
 * @since 0.1.0
 * @category models
 */
export type FeeShareError = InstanceType<(typeof Errors)[Failures.Tag]> | Aborted | Closed | Defect

const isCoreFailure = (u: unknown): u is Failures.Failure => Failures.all.some((core) => u instanceof core)

/**
 * `true` for an instance of one of the classes a `FeeShare` call rejects with.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeShareError = (u: unknown): u is FeeShareError =>
  u instanceof Aborted || u instanceof Closed || u instanceof Defect || registered.some((facade) => u instanceof facade)

/** The facade class of `failure`'s tag, made from its fields. */
const toFacade = (failure: Failures.Failure): FeeShareError | undefined => {
  const facadeClass = registered.find((facade) => facade._tag === failure._tag)
  if (facadeClass === undefined) return undefined
  // `message` is not enumerable on an Error: copy it explicitly
  const props = { ...failure, message: failure.message }
  // the class's props are its own core class's; `Reflect.construct` is untyped, so check the result
  const made: unknown = Reflect.construct(facadeClass, [props, { disableValidation: true }])
  return isFeeShareError(made) ? made : undefined
}

const describe = (u: unknown): string => u instanceof Error ? u.message : String(u)

/**
 * The rejection for a failed call: the facade class of the typed failure; `Aborted` when
 * the call was only interrupted; `Defect` for anything else.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromCause = (cause: Cause.Cause<unknown>, signal?: AbortSignal): FeeShareError => {
  if (Cause.isInterruptedOnly(cause)) {
    const reason: unknown = signal?.aborted === true ? signal.reason : undefined
    return new Aborted({
      status: 0,
      message: reason === undefined ? "the call was interrupted" : `the call was aborted: ${describe(reason)}`,
      reason
    })
  }
  const error = Cause.squash(cause)
  if (isFeeShareError(error)) return error
  return (isCoreFailure(error) ? toFacade(error) : undefined) ??
    new Defect({ status: 0, message: `unexpected: ${describe(error)}`, cause: error })
}
