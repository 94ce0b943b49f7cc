/**
 * The rules of the client's options, written once: `FeeShareClient.make` and
 * `withCallOptions` check the same fields with them.
 */
import { FeeShareError } from "@feeshare/domain"
import { Duration, Effect, Option } from "effect"

/** A refused option, naming the field and the rule. */
export const invalid = (operation: string, field: string, rule: string) =>
  new FeeShareError.InvalidRequest({ operation, field, rule, message: `${operation}: ${field} ${rule}` })

/** A positive, finite duration in milliseconds (`fallback` when absent). */
export const positiveMillis = (
  operation: string,
  field: string,
  input: Duration.DurationInput | undefined,
  fallback: Duration.Duration
) => {
  const duration = input === undefined ? Option.some(fallback) : Duration.decodeUnknown(input)
  return Option.isSome(duration) && Duration.toMillis(duration.value) > 0 && Duration.isFinite(duration.value)
    ? Effect.succeed(Duration.toMillis(duration.value))
    : Effect.fail(invalid(operation, field, "must be a positive, finite duration"))
}

/**
 * Whether a duration input is below zero: `Duration.decodeUnknown` clamps a negative number,
 * bigint or tuple to zero, which would turn a mistake into "do not wait".
 */
const isNegative = (input: Duration.DurationInput): boolean =>
  typeof input === "number"
    ? input < 0
    : typeof input === "bigint"
    ? input < 0n
    : Array.isArray(input)
    ? input.some((part) => part < 0)
    : typeof input === "string" && input.trim().startsWith("-")

/** A non-negative duration in milliseconds (`fallback` when absent). */
export const nonNegativeMillis = (
  operation: string,
  field: string,
  input: Duration.DurationInput | undefined,
  fallback: Duration.Duration
) => {
  const millis = input === undefined
    ? Duration.toMillis(fallback)
    : isNegative(input)
    ? -1
    : Option.match(Duration.decodeUnknown(input), { onNone: () => -1, onSome: Duration.toMillis })
  return millis >= 0
    ? Effect.succeed(millis)
    : Effect.fail(invalid(operation, field, "must be a non-negative duration"))
}

/** Whether `n` is a positive safe integer. */
export const isPositiveInt = (n: number) => Number.isSafeInteger(n) && n > 0

/** The rule of `retry.maxAttempts`. */
export const maxAttemptsRule = "must be a positive integer"
