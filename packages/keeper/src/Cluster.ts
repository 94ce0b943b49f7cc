/**
 * The keeper on a cluster: several runner processes share the wallets through PostgreSQL.
 * `@effect/cluster` runners find each other in the database (no other service), each wallet
 * is an entity owned by one runner at a time, and a singleton schedules the passes. The claim
 * workflows are the same as on one machine, run by the cluster's workflow engine with its
 * storage in PostgreSQL: when a runner dies, the shards it held (its wallets and unfinished
 * workflows) move to the others, and a moved workflow settles its journaled stages with the
 * chain before it builds anything.
 *
 * @since 0.1.0
 */
import {
  ClusterWorkflowEngine,
  Entity,
  MessageStorage,
  RunnerAddress,
  type RunnerStorage,
  ShardingConfig,
  Singleton,
  Snowflake,
  SqlMessageStorage,
  SqlRunnerStorage
} from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { SqlClient } from "@effect/sql"
import { MigrationError } from "@effect/sql/Migrator"
import { SqlError } from "@effect/sql/SqlError"
import { Clock, Context, Duration, Effect, Layer, Option, type Redacted, Ref, Schema } from "effect"
import * as ClusterAuth from "./ClusterAuth.js"
import * as Journal from "./Journal.js"
import * as JournalWrites from "./JournalWrites.js"
import * as Keeper from "./Keeper.js"
import * as Placement from "./Placement.js"
import { firstStartSchedule, intervals, passSchedule } from "./Settings.js"

/**
 * A wallet: its entity id is the wallet's address; `pass` claims what its policy selects.
 *
 * @since 0.1.0
 * @category entities
 */
export const WalletEntity = Entity.make("FeeshareKeeperWallet", [
  Rpc.make("pass", { payload: { pass: Schema.Number }, success: Keeper.WalletReport })
])

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** PostgreSQL holding the cluster's storage and the journal. */
  readonly postgresUrl: Redacted.Redacted<string>
  /** This runner's address, as the other runners reach it (and where it listens). */
  readonly host: string
  readonly port: number
  /** How often runners check each other; a dead runner's shards move within about twice this. */
  readonly healthCheckInterval?: Duration.DurationInput | undefined
  /** Longest wait for one wallet's pass before the scheduler gives up on it for this round. */
  readonly passTimeout?: Duration.DurationInput | undefined
  /** Sees the reports of every round (on the runner that holds the scheduler). */
  readonly onRound?: ((reports: ReadonlyArray<Keeper.WalletReport>) => Effect.Effect<void>) | undefined
  /**
   * The cluster's secret (`ClusterAuth.fromEnvironment`): every peer of the runner socket
   * answers its HMAC challenge before anything it sends is read. Required off loopback.
   */
  readonly secret?: Redacted.Redacted<string> | undefined
}

/**
 * How a runner places and waits for claim workflows, for measuring the cluster against other
 * settings (`bench/cluster.ts`); the defaults are what a runner runs with.
 *
 * @since 0.1.0
 * @category models
 */
export class Tuning extends Context.Reference<Tuning>()("@feeshare/keeper/Cluster/Tuning", {
  defaultValue: (): Tuning.Service => ({ placement: "wallet", replyPollInterval: intervals.workflowReplyPoll })
}) {}

/**
 * @since 0.1.0
 */
export declare namespace Tuning {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * `wallet`: a claim workflow runs on its wallet's runner (`Placement`); `execution-id`: where
     * its plain execution id puts it (the engine's default placement).
     */
    readonly placement: "wallet" | "execution-id"
    /** Between two reads of the replies a runner awaits from storage (those of another runner's entities). */
    readonly replyPollInterval: Duration.DurationInput
  }
}

/** Whether `host` is a loopback address (only this machine can reach a runner bound to it). */
const isLoopback = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase()
  return bare === "localhost" || bare === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
}

/** The runner address as the journal records it. */
export const runnerName = (options: Pick<Options, "host" | "port">): string => `${options.host}:${options.port}`

const failedReport = (wallet: string, tag: string, message: string): Keeper.WalletReport => ({
  wallet,
  positions: [],
  skipped: 0,
  vaults: [],
  sweeps: [],
  error: { tag, message }
})

/**
 * The wallet entity on this runner: at most `concurrency` of its wallets worked on at once;
 * every pass records the runner as the wallet's owner when it begins and ends.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWallets = Layer.unwrapEffect(Effect.gen(function*() {
  const { options } = yield* Keeper.Settings
  const permits = yield* Effect.makeSemaphore(options.config.concurrency)
  return WalletEntity.toLayer(Effect.gen(function*() {
    const { wallets, options } = yield* Keeper.Settings
    const address = yield* Entity.CurrentAddress
    const runner = options.runner ?? "local"
    const wallet = wallets.get(address.entityId)
    return WalletEntity.of({
      pass: () =>
        wallet === undefined
          ? Effect.succeed(
            failedReport(address.entityId, "UnknownWallet", `this runner has no key for ${address.entityId}`)
          )
          : permits.withPermits(1)(Effect.gen(function*() {
            const startedAt = yield* Clock.currentTimeMillis
            yield* JournalWrites.recordOwner.run({ wallet: address.entityId, runner, startedAt, finishedAt: null })
              .pipe(
                Effect.orDie
              )
            const report = yield* Keeper.walletPass(wallet)
            const finishedAt = yield* Clock.currentTimeMillis
            yield* JournalWrites.recordOwner.run({ wallet: address.entityId, runner, startedAt, finishedAt }).pipe(
              Effect.orDie
            )
            return report
          }))
    })
  }))
}))

/**
 * The scheduler, a cluster singleton (on exactly one runner at a time): every
 * `intervalSeconds`, a pass of every wallet, sent to the runner that owns it.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerScheduler = (options: Pick<Options, "passTimeout" | "onRound"> = {}) =>
  Singleton.make(
    "FeeshareKeeperScheduler",
    Effect.gen(function*() {
      const { options: keeper, wallets } = yield* Keeper.Settings
      const client = yield* WalletEntity.client
      const timeout = options.passTimeout ?? intervals.passTimeout
      const rounds = yield* Ref.make(0)
      const round = Effect.gen(function*() {
        const round = yield* Ref.updateAndGet(rounds, (n) => n + 1)
        const reports = yield* Effect.forEach(
          [...wallets.keys()],
          (wallet) =>
            client(wallet).pass({ pass: round }).pipe(
              Effect.timeoutFail({
                duration: timeout,
                onTimeout: () => ({
                  _tag: "PassTimeout",
                  message: `no report within ${Duration.format(Duration.decode(timeout))}`
                })
              }),
              Effect.catchAllCause((cause) =>
                Effect.as(
                  Effect.logWarning("wallet pass did not report").pipe(
                    Effect.annotateLogs({ wallet }),
                    Effect.annotateLogs("cause", cause)
                  ),
                  failedReport(
                    wallet,
                    "PassUnreported",
                    "the wallet's runner did not report (it may have died: the next round retries)"
                  )
                )
              )
            ),
          { concurrency: "unbounded" }
        )
        yield* Effect.logInfo("round done").pipe(Effect.annotateLogs({
          round,
          wallets: reports.length,
          claimed: reports.flatMap((r) => r.positions).filter((p) => p.outcome === "claimed").length
        }))
        if (options.onRound !== undefined) yield* options.onRound(reports)
      })
      yield* Effect.repeat(round, passSchedule(keeper.config))
    })
  )

/**
 * A runner: the cluster (socket transport between runners, shard locks and messages in
 * PostgreSQL), its workflow engine, and the journal in the same database. `@effect/sql-pg` and
 * the socket transport are imported when this layer is built.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRunner = (options: Options) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const [{ PgClient }, { layer: socketLayer }] = yield* Effect.promise(() =>
      Promise.all([import("@effect/sql-pg"), import("@effect/platform-node/NodeClusterSocket")])
    )
    if (options.secret === undefined && !isLoopback(options.host)) {
      return yield* Effect.die(
        new ClusterAuth.ClusterSecretError({
          message: `a runner on ${options.host} (not loopback) needs the cluster's secret: ` +
            "FEESHARE_KEEPER_CLUSTER_SECRET or FEESHARE_KEEPER_CLUSTER_SECRET_FILE"
        })
      )
    }
    const address = Option.some(RunnerAddress.make(options.host, options.port))
    const interval = options.healthCheckInterval ?? intervals.runnerHealthCheck
    const tuning = yield* Tuning
    const shardingConfig: Partial<ShardingConfig.ShardingConfig["Type"]> = {
      runnerAddress: address,
      runnerListenAddress: address,
      runnerHealthCheckInterval: interval,
      shardLockRefreshInterval: interval,
      shardLockExpiration: Duration.times(Duration.decode(interval), 3),
      refreshAssignmentsInterval: intervals.shardAssignmentsRefresh,
      entityMessagePollInterval: intervals.entityMessagePoll,
      entityReplyPollInterval: tuning.replyPollInterval
    }
    const storage = layerStorage.pipe(Layer.provide(ShardingConfig.layer(shardingConfig)))
    return Layer.mergeAll(ClusterWorkflowEngine.layer, Journal.layer.pipe(Layer.retry(firstStartSchedule), Layer.orDie))
      .pipe(
        Layer.provideMerge(
          options.secret === undefined
            ? socketLayer({ storage: "byo", shardingConfig })
            : ClusterAuth.layer(options.secret, shardingConfig)
        ),
        Layer.provideMerge(storage),
        Layer.provideMerge(
          PgClient.layer({ url: options.postgresUrl, applicationName: `feeshare-keeper ${runnerName(options)}` }).pipe(
            Layer.orDie
          )
        )
      )
  }))

/**
 * The cluster's storage (messages, runners and shard locks) in the runner's database. Runners
 * starting at once race to create its tables; the losers try again. `SqlMessageStorage` runs its
 * migrations under `orDie`, so a lost race there is a defect: that one (a `SqlError` or a
 * `MigrationError`) is tried again like a failure, any other defect is not.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStorage: Layer.Layer<
  MessageStorage.MessageStorage | RunnerStorage.RunnerStorage,
  never,
  SqlClient.SqlClient | ShardingConfig.ShardingConfig
> = Layer.mergeAll(
  Layer.scoped(
    MessageStorage.MessageStorage,
    SqlMessageStorage.make().pipe(
      Effect.catchSomeDefect((defect) => isStartRace(defect) ? Option.some(Effect.fail(defect)) : Option.none())
    )
  ).pipe(Layer.provide(Snowflake.layerGenerator)),
  SqlRunnerStorage.layer
).pipe(Layer.retry(firstStartSchedule), Layer.orDie)

const isStartRace = (defect: unknown): defect is SqlError | MigrationError =>
  defect instanceof SqlError || defect instanceof MigrationError

/**
 * Everything a runner runs: the claim workflow, the wallet entity and the scheduler over
 * `layerRunner`. Launch it with `Layer.launch`; the service client and the chain come from
 * the caller.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (keeper: Keeper.Options, options: Options) =>
  Layer.mergeAll(layerWallets, layerScheduler(options)).pipe(
    Layer.provide(layerPlacement),
    Layer.provideMerge(Keeper.layer({ ...keeper, runner: runnerName(options) })),
    Layer.provideMerge(layerRunner(options))
  )

/**
 * Claim workflows placed on their wallet's runner (`Placement`), unless `Tuning` says
 * otherwise.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerPlacement = Layer.unwrapEffect(
  Effect.map(
    Tuning,
    (tuning) =>
      tuning.placement === "wallet"
        ? Placement.layer((entityId) => WalletEntity.getShardGroup(entityId))
        : Layer.succeed(Placement.Placement, Placement.Placement.defaultValue())
  )
)

/**
 * The journal alone on PostgreSQL (for `status`): no runner.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerJournal = (postgresUrl: Redacted.Redacted<string>) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => import("@effect/sql-pg")),
      ({ PgClient }) =>
        Journal.layer.pipe(
          Layer.provideMerge(PgClient.layer({ url: postgresUrl, applicationName: "feeshare-keeper status" }))
        )
    )
  )

/**
 * A runner as the cluster sees it.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunnerStatus {
  readonly address: string
  readonly healthy: boolean
  readonly lastHeartbeat: string
}

/**
 * The runners registered in the cluster's storage.
 *
 * @since 0.1.0
 * @category status
 */
export const runners = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const exists = yield* sql<{ readonly name: string | null }>`SELECT to_regclass('cluster_runners')::text AS name`
  if (exists[0]?.name === null || exists[0]?.name === undefined) return []
  const rows = yield* sql<
    { readonly address: string; readonly healthy: boolean; readonly last_heartbeat: Date | string }
  >`
    SELECT address, healthy, last_heartbeat FROM cluster_runners ORDER BY address`
  return rows.map((row): RunnerStatus => {
    const parsed = Schema.decodeUnknownOption(
      Schema.parseJson(Schema.Struct({ host: Schema.String, port: Schema.Number }))
    )(row.address)
    return {
      address: Option.match(parsed, { onNone: () => row.address, onSome: (a) => `${a.host}:${a.port}` }),
      healthy: row.healthy,
      lastHeartbeat: row.last_heartbeat instanceof Date ? row.last_heartbeat.toISOString() : String(row.last_heartbeat)
    }
  })
})
