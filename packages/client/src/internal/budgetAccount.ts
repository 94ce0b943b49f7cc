/**
 * The client-side budget's account: which buckets every call counts against (the given
 * key, or for a shared store the id of the key's user from `auth/me`), resolved once on first
 * use, and the name rule of budget keys and addresses.
 */
import { Api, FeeShareError } from "@feeshare/domain"
import { Clock, Effect, Option, SubscriptionRef } from "effect"
import type * as RateBudget from "../RateBudget.js"
import type * as Settings from "./settings.js"

/** The budget as `make` validated it, before its account is known. */
export interface BudgetOptions {
  readonly store: RateBudget.Store
  readonly key: string | undefined
  readonly address: string | undefined
  readonly limit: number
  /** The window plus the margin. */
  readonly windowMillis: number
}

export const budgetNameRule = "must be 1 to 200 characters, without control characters"

export const isBudgetName = (name: string) =>
  name.length > 0 && name.length <= 200 && !/[\u0000-\u001f\u007f]/.test(name)

/** The user's id in `auth/me`'s answer, if it has one. */
const userIdOf = (answer: unknown): string | undefined => {
  if (typeof answer !== "object" || answer === null || !("user" in answer)) return undefined
  const user = answer.user
  if (typeof user !== "object" || user === null || !("uuid" in user)) return undefined
  return typeof user.uuid === "string" && isBudgetName(user.uuid) ? user.uuid : undefined
}

/**
 * The account's budget name: the given `key`; else, for a store other processes share, the
 * id of the key's user from `auth/me` (`anonymous` without a key); else `default`.
 */
export const accountOf = (
  budget: BudgetOptions,
  hasApiKey: boolean,
  me: (input?: unknown) => Effect.Effect<unknown, FeeShareError.FeeShareError>
): Effect.Effect<string, FeeShareError.FeeShareError> => {
  if (budget.key !== undefined) return Effect.succeed(`account:${budget.key}`)
  if (!budget.store.shared) return Effect.succeed("account:default")
  if (!hasApiKey) return Effect.succeed("account:anonymous")
  return Effect.flatMap(me(), (answer) => {
    const id = userIdOf(answer)
    return id === undefined
      ? Effect.fail(
        new FeeShareError.UnexpectedResponse({
          status: 200,
          message: "auth/me answered without a user id; the shared rate budget cannot name the account",
          operation: Api.operationName("identity", "me"),
          body: ""
        })
      )
      : Effect.succeed(`user:${id}`)
  })
}

/**
 * The buckets of every call, resolved once (a failure is not kept: the next call asks
 * again). The answer that named the account corrects the budget with the next admission.
 */
export const bucketsOf = (
  options: BudgetOptions,
  account: Effect.Effect<string, FeeShareError.FeeShareError>,
  budget: Settings.Budget,
  settings: Settings.Settings
) =>
  Effect.map(Effect.makeSemaphore(1), (lock) => {
    let resolved: ReadonlyArray<RateBudget.Bucket> | undefined
    const bucket = (key: string): RateBudget.Bucket => ({
      key,
      limit: options.limit,
      windowMillis: options.windowMillis
    })
    const resolve = Effect.gen(function*() {
      if (resolved !== undefined) return resolved
      const name = yield* account
      const buckets = options.address === undefined
        ? [bucket(name)]
        : [bucket(name), bucket(`address:${options.address}`)]
      const known = yield* SubscriptionRef.get(settings.rateLimit)
      if (Option.isSome(known) && budget.pending === undefined) {
        budget.pending = {
          used: known.value.limit - known.value.remaining,
          limit: known.value.limit,
          receivedAt: yield* Clock.currentTimeMillis,
          resetAtMillis: known.value.resetAtMillis
        }
      }
      resolved = buckets
      return buckets
    })
    return Effect.suspend(() => resolved !== undefined ? Effect.succeed(resolved) : lock.withPermits(1)(resolve))
  })
