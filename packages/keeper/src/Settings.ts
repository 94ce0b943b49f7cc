/**
 * What the keeper runs with: its options (the policy, the wallets, intervals, test hooks) as a
 * service, and every interval the keeper waits, named for what it is.
 *
 * @since 0.1.0
 */
import type * as Chain from "@feeshare/solana/Chain"
import { Context, Duration, type Effect, Schedule } from "effect"
import type * as KeeperConfig from "./KeeperConfig.js"

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
  readonly config: KeeperConfig.Config
  readonly wallets: ReadonlyArray<KeeperConfig.Wallet>
  /** Warm-up polls of a new lookup table (default `intervals.warmup`). */
  readonly warmupInterval?: Duration.DurationInput | undefined
  /** Rebroadcast of an unconfirmed transaction (default `intervals.rebroadcast`). */
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
export class Settings extends Context.Tag("@feeshare/keeper/Settings")<Settings, Settings.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Settings {
  /**
   * The options as given, and what they resolve to (each default applied here, once).
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly options: Options
    /** The wallets by address. */
    readonly wallets: ReadonlyMap<string, KeeperConfig.Wallet>
    readonly rebroadcastInterval: Duration.Duration
    readonly warmupInterval: Duration.Duration
    /** The commitment a stage must reach to count as landed. */
    readonly commitment: Chain.Commitment
    /** `maxFeesPerHourLamports` as lamports; null: no cap. */
    readonly feeCap: bigint | null
    /** This runner's address on a cluster; null on one machine. */
    readonly runner: string | null
  }
}

/**
 * The settings of `options`, their defaults applied.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Settings.Service => ({
  options,
  wallets: new Map(options.wallets.map((wallet) => [wallet.signer.publicKey, wallet])),
  rebroadcastInterval: Duration.decode(options.rebroadcastInterval ?? intervals.rebroadcast),
  warmupInterval: Duration.decode(options.warmupInterval ?? intervals.warmup),
  commitment: options.config.commitment,
  feeCap: options.config.maxFeesPerHourLamports === undefined ? null : BigInt(options.config.maxFeesPerHourLamports),
  runner: options.runner ?? null
})

/**
 * The keeper's intervals, each named for what it is. The interval between passes is the
 * config's `intervalSeconds` (`passSchedule`).
 *
 * @since 0.1.0
 * @category intervals
 */
export const intervals = {
  /** Between two sends of the same transaction while it is unconfirmed. */
  rebroadcast: Duration.seconds(1),
  /** Between two looks at a new lookup table while it warms up. */
  warmup: Duration.millis(500),
  /** The longest wait for one wallet's pass on a cluster before the round goes on without it. */
  passTimeout: Duration.minutes(10),
  /** Between two health checks of the runners (and shard-lock refreshes) on a cluster. */
  runnerHealthCheck: Duration.seconds(5),
  /** Between two reads of the shard assignments on a cluster. */
  shardAssignmentsRefresh: Duration.seconds(1),
  /** Between two polls of a runner's unprocessed entity messages on a cluster. */
  entityMessagePoll: Duration.seconds(1),
  /**
   * Between two reads of the replies a runner awaits from another runner's entities on a
   * cluster (a claim's reply comes in memory from its own runner: `Placement`).
   */
  workflowReplyPoll: Duration.millis(200),
  /** Between two tries of a first start that raced other runners to create tables. */
  firstStartRetry: Duration.millis(250),
  /** Tries of a first start that raced other runners to create tables. */
  firstStartRetries: 20
} as const

/**
 * Passes (of one machine, or a cluster's rounds): the next one `intervalSeconds` after the
 * last one ended.
 *
 * @since 0.1.0
 * @category intervals
 */
export const passSchedule = (config: Pick<KeeperConfig.Config, "intervalSeconds">): Schedule.Schedule<number> =>
  Schedule.spaced(Duration.seconds(config.intervalSeconds))

/**
 * Retries of a first start that raced other runners to create tables (the engine's, the
 * journal's migrations): jittered, `intervals.firstStartRetries` at most.
 *
 * @since 0.1.0
 * @category intervals
 */
export const firstStartSchedule: Schedule.Schedule<[number, number]> = Schedule.spaced(
  intervals.firstStartRetry
).pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(intervals.firstStartRetries)))
