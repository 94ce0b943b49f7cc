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

/** A non-negative duration in milliseconds (`fallback` when absent). */
export const nonNegativeMillis = (
  operation: string,
  field: string,
  input: Duration.DurationInput | undefined,
  fallback: Duration.Duration
) => {
  const millis = input === undefined
    ? Duration.toMillis(fallback)
    : Option.match(Duration.decodeUnknown(input), { onNone: () => -1, onSome: Duration.toMillis })
  return millis >= 0 ? Effect.succeed(millis) : Effect.fail(invalid(operation, field, "must be a non-negative duration"))
}

/** Whether `n` is a positive safe integer. */
export const isPositiveInt = (n: number) => Number.isSafeInteger(n) && n > 0

/** The rule of `retry.maxAttempts`. */
export const maxAttemptsRule = "must be a positive integer"
