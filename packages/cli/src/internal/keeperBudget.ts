/**
 * The keeper's request budget, from the account's shared budget (`--redis-url`) and the
 * config's `rateBudget`.
 */
import type * as RateBudget from "@feeshare/client/RateBudget"
import * as Duration from "effect/Duration"

/** The config file's `rateBudget`. */
export interface FileBudget {
  readonly limit: number
  readonly windowSeconds: number
}

/**
 * The budget the keeper stays under:
 * - shared and in the file: the shared store (and its key), the file's limit and window;
 * - shared only: the shared budget as it is;
 * - in the file only: the file's limit and window, counted in this process;
 * - neither: none.
 */
export const merge = (
  shared: RateBudget.Options | undefined,
  file: FileBudget | undefined
): RateBudget.Options | undefined => {
  if (file === undefined) return shared
  const fromFile = { limit: file.limit, window: Duration.seconds(file.windowSeconds) }
  return shared === undefined ? fromFile : { ...shared, ...fromFile }
}
