/**
 * What the keeper runs with: its options (the policy, the wallets, intervals, test hooks) as a
 * service.
 *
 * @since 0.1.0
 */
import { Context, type Duration, type Effect } from "effect"
import type * as Policy from "./Policy.js"

/**
 * Points where a test (or an operator's probe) can stop the keeper: after a round's signed
 * stages are journaled (nothing sent yet), and after a stage was sent (not yet confirmed).
 *
 * @since 0.1.0
 * @category models
 */
export interface Hooks {
  readonly afterJournal?: ((stages: ReadonlyArray<string>) => Effect.Effect<void>) | undefined
  readonly afterSend?: ((stage: string, signature: string) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly config: Policy.Config
  readonly wallets: ReadonlyArray<Policy.Wallet>
  /** Warm-up polls of a new lookup table (default 500 ms). */
  readonly warmupInterval?: Duration.DurationInput | undefined
  /** Rebroadcast of an unconfirmed transaction (default 1 second). */
  readonly rebroadcastInterval?: Duration.DurationInput | undefined
  readonly hooks?: Hooks | undefined
  /** This runner's address on a cluster, recorded with every stage and run it journals. */
  readonly runner?: string | undefined
}

/**
 * What the keeper runs with.
 *
 * @since 0.1.0
 * @category tags
 */
export class Settings extends Context.Tag("@feeshare/keeper/Settings")<Settings, {
  readonly options: Options
  readonly wallets: ReadonlyMap<string, Policy.Wallet>
}>() {}
