/**
 * `feeshare keeper run | once | status` (loaded only by those commands; the keeper loads the
 * native SQLite binding only when it opens its database).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as FileSystem from "@effect/platform/FileSystem"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import * as Redaction from "@feeshare/domain/Redaction"
import * as Cluster from "@feeshare/keeper/Cluster"
import * as ClusterAuth from "@feeshare/keeper/ClusterAuth"
import * as Keeper from "@feeshare/keeper/Keeper"
import * as KeeperConfig from "@feeshare/keeper/KeeperConfig"
import * as Metrics from "@feeshare/keeper/Metrics"
import * as Status from "@feeshare/keeper/Status"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { createServer } from "node:net"
import { dirname, resolve } from "node:path"
import { ClusterSecret } from "../CliError.js"
import * as Output from "../Output.js"
import { budget as sharedBudget, requireApiKey } from "./context.js"
import { Environment } from "./environment.js"
import * as KeeperBudget from "./keeperBudget.js"
import { KeeperHooks } from "./keeperHooks.js"

/** The options of `keeper run` and `keeper once`. */
export interface RunArgs {
  readonly config: string
  readonly dryRun: boolean
  readonly database: Option.Option<string>
  readonly maxFeesPerHour: Option.Option<number>
  readonly metricsFile: Option.Option<string>
}

/** `keeper run`'s options: with `postgresUrl`, one runner of a cluster. */
export interface ClusterArgs extends RunArgs {
  readonly postgresUrl: Option.Option<Redacted.Redacted<string>>
  readonly runnerHost: string
  readonly runnerPort: Option.Option<number>
}

const loadConfig = (args: Pick<RunArgs, "config" | "dryRun" | "database" | "maxFeesPerHour">) =>
  Effect.gen(function*() {
    const path = resolve(args.config)
    const config = KeeperConfig.override(yield* KeeperConfig.load(path), {
      dryRun: args.dryRun ? true : undefined,
      database: Option.getOrUndefined(args.database),
      maxFeesPerHourLamports: Option.getOrUndefined(args.maxFeesPerHour)
    })
    // a relative database path is relative to the config file, like the key files
    const database = config.database.startsWith("/") ? config.database : resolve(dirname(path), config.database)
    return { path, config: { ...config, database } }
  })

/** With --json, one JSON object per log line on stderr: time, level, message, the annotations. */
const jsonLogger = Logger.make(({ annotations, date, logLevel, message }) => {
  const fields = Object.fromEntries(
    [...HashMap.toEntries(annotations)].map((
      [key, value]
    ) => [key, typeof value === "number" || typeof value === "boolean" ? value : Redaction.line(String(value))])
  )
  // log lines quote servers and URLs: no control characters, no userinfo
  const text = Redaction.line((Array.isArray(message) ? message : [message]).map(String).join(" "))
  process.stderr.write(
    `${JSON.stringify({ time: date.toISOString(), level: logLevel.label.toLowerCase(), message: text, ...fields })}\n`
  )
})

/**
 * The keeper's log lines (one per position) on stderr, info and above: `key=value` fields, or
 * with --json one JSON object per line (for log shippers).
 */
const logger = Layer.unwrapEffect(Effect.map(Environment, (g) =>
  g.json
    ? Layer.merge(
      Layer.locallyScoped(FiberRef.currentLoggers, HashSet.make(jsonLogger)),
      Logger.minimumLogLevel(LogLevel.Info)
    )
    : Logger.minimumLogLevel(LogLevel.Info)))

/** The keeper of `args` in the command's environment: its config, layers and options. */
const setUp = (args: RunArgs) =>
  Effect.gen(function*() {
    const g = yield* Environment
    const { config, path } = yield* loadConfig(args)
    const wallets = yield* KeeperConfig.wallets(config, dirname(path))
    const apiKey = yield* requireApiKey("keeper")
    // --redis-url: the budget shared with every process of the account (all runners of a cluster)
    const shared = yield* sharedBudget
    const budget = KeeperBudget.merge(shared, config.rateBudget)
    const client = FeeShareClient.layer({
      baseUrl: g.baseUrl,
      apiKey,
      ...(budget === undefined ? {} : { budget }),
      onRateLimitWait: (wait) =>
        Effect.zipRight(
          Metric.increment(Metrics.rateLimitWaits),
          Effect.logInfo("waiting for the rate limit").pipe(
            Effect.annotateLogs({ operation: wait.operation, waitMillis: wait.waitMillis, reason: wait.reason })
          )
        )
    }).pipe(Layer.provide(FetchHttpClient.layer))
    const services = Layer.merge(client, ChainRpc.layer(g.rpcUrls))
    const keeper: Keeper.Options = { config, wallets, hooks: yield* KeeperHooks }
    const layer = Keeper.layer(keeper).pipe(
      Layer.provideMerge(Keeper.layerStorage(config.database)),
      Layer.provideMerge(services)
    )
    return { config, layer, keeper, services }
  })

const writeMetrics = (args: RunArgs) =>
  Option.match(args.metricsFile, {
    onNone: () => Effect.void,
    onSome: (file) =>
      Effect.gen(function*() {
        const fs = yield* FileSystem.FileSystem
        // written whole then renamed: a scraper never reads half a file
        yield* fs.writeFileString(`${file}.tmp`, yield* Metrics.prometheus)
        yield* fs.rename(`${file}.tmp`, file)
      }).pipe(Effect.orDie)
  })

const reportJson = (report: Keeper.PassReport) => ({
  reconciled: report.reconciled,
  wallets: report.wallets.map((w) => ({
    wallet: w.wallet,
    error: w.error,
    skipped: w.skipped,
    vaults: w.vaults,
    positions: w.positions.map((p) => ({
      mint: p.mint,
      outcome: p.outcome,
      tag: p.tag,
      message: p.message,
      claimable: p.claimable,
      lamports: p.lamports,
      fees: p.fees,
      signatures: p.signatures,
      rebuilds: p.rebuilds,
      ...(p.skipped === undefined ? {} : { skipped: p.skipped })
    })),
    sweeps: w.sweeps.map((p) => ({
      kind: p.kind,
      subject: p.subject,
      quoteMint: p.quoteMint,
      outcome: p.outcome,
      tag: p.tag,
      message: p.message,
      claimable: p.claimable,
      amount: p.lamports,
      fees: p.fees,
      signatures: p.signatures,
      ...(p.skipped === undefined ? {} : { skipped: p.skipped })
    }))
  }))
})

const reportLines = (report: Keeper.PassReport, dryRun: boolean): ReadonlyArray<string> => {
  const rows = report.wallets.flatMap((w) =>
    w.error !== null
      ? [[w.wallet, "-", "error", w.error.tag, "-", "-"]]
      : [
        ...w.positions.map((
          p
        ) => [w.wallet, p.mint, p.outcome, p.tag ?? "", Output.lamports(p.lamports), Output.lamports(p.fees)]),
        ...w.sweeps.map((
          p
        ) => [w.wallet, p.subject, p.outcome, p.tag ?? "", String(p.lamports), Output.lamports(p.fees)])
      ]
  )
  const skipped = report.wallets.flatMap((w) => [
    ...w.positions.map((p) => ({ item: p.mint, skipped: p.skipped })),
    ...w.sweeps.map((p) => ({ item: p.subject, skipped: p.skipped }))
  ]).flatMap(({ item, skipped }) => (skipped === undefined ? [] : [`  skipped ${item}: ${skipped.reason}`]))
  const claimed = report.wallets.flatMap((w) => w.positions).filter((p) => p.outcome === "claimed")
  const swept = report.wallets.flatMap((w) => w.sweeps).filter((p) => p.outcome === "claimed")
  return [
    dryRun ? "Keeper dry run: every plan verified; nothing was signed or sent." : "Keeper pass:",
    `  settled from the journal first: ${report.reconciled.landed} landed, ${report.reconciled.rebroadcast} sent again, ${report.reconciled.dead} could no longer land`,
    ...(rows.length === 0
      ? ["  nothing to claim above the thresholds."]
      : Output.table(["wallet", "item", "outcome", "tag", "amount", "fees"], rows)),
    ...skipped,
    `Claimed ${claimed.length} position(s), ${
      Output.lamports(claimed.reduce((s, p) => s + p.lamports, 0n))
    } lamports; ${swept.length} vault sweep(s) and deployer claim(s).`
  ]
}

/** `keeper once`: one pass, then the report. */
export const once = (args: RunArgs) =>
  Effect.gen(function*() {
    const { config, layer } = yield* setUp(args)
    const report = yield* Keeper.pass.pipe(Effect.provide(layer))
    yield* writeMetrics(args)
    return Output.result(reportJson(report), reportLines(report, config.dryRun))
  }).pipe(Effect.provide(Layer.merge(NodeFileSystem.layer, logger)))

/** A free TCP port on `host` (asked of the kernel, then released for the runner to take). */
const freePort = (host: string) =>
  Effect.async<number>((resume) => {
    const server = createServer()
    server.listen(0, host, () => {
      const address = server.address()
      server.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
    })
  })

/** Whether `host` is a loopback address. */
const isLoopback = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase()
  return bare === "localhost" || bare === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
}

const pgQueryQueueWarning = "Calling client.query() when the client is already executing a query is deprecated"

/**
 * The cluster's storage queues queries on one pg client, which pg 8 reports as deprecated on
 * every start; nothing a user can act on. That one warning is dropped; every other warning
 * (deprecations included) is emitted as before.
 */
const silencePgQueryQueueWarning = () => {
  const emit = process.emitWarning
  const filtered: typeof process.emitWarning = (warning: string | Error, ...rest: Array<never>) => {
    const message = typeof warning === "string" ? warning : warning.message
    if (message.startsWith(pgQueryQueueWarning)) return
    emit.call(process, warning, ...rest)
  }
  process.emitWarning = filtered
}

/** `keeper run --postgres-url`: this process is one runner of the cluster, until stopped. */
const runCluster = (args: ClusterArgs, postgresUrl: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    // the cluster's secret: from the environment or a file, never a flag (ps would show it)
    const secret = yield* ClusterAuth.fromEnvironment().pipe(
      Effect.mapError((error) => new ClusterSecret({ operation: "keeper run", message: error.message }))
    )
    if (Option.isNone(secret) && !isLoopback(args.runnerHost)) {
      return yield* new ClusterSecret({
        operation: "keeper run",
        message: `a runner on ${args.runnerHost} (not loopback) needs the cluster's secret: set ` +
          "FEESHARE_KEEPER_CLUSTER_SECRET or FEESHARE_KEEPER_CLUSTER_SECRET_FILE (the same on every runner)"
      })
    }
    const { keeper, services } = yield* setUp(args)
    const port = Option.isSome(args.runnerPort) ? args.runnerPort.value : yield* freePort(args.runnerHost)
    silencePgQueryQueueWarning()
    yield* Effect.logInfo("runner starting").pipe(Effect.annotateLogs({ runner: `${args.runnerHost}:${port}` }))
    return yield* Layer.launch(
      Cluster.layer(keeper, {
        postgresUrl,
        host: args.runnerHost,
        port,
        secret: Option.getOrUndefined(secret),
        onRound: () => writeMetrics(args).pipe(Effect.provide(NodeFileSystem.layer))
      }).pipe(Layer.provide(services))
    )
  }).pipe(Effect.provide(Layer.merge(NodeFileSystem.layer, logger)))

/** `keeper run`: passes forever, a log line per position, the metrics file after each pass. */
export const run = (args: ClusterArgs) =>
  Effect.gen(function*() {
    if (Option.isSome(args.postgresUrl)) return yield* runCluster(args, args.postgresUrl.value)
    const { layer } = yield* setUp(args)
    return yield* Keeper.runForever((report) =>
      Effect.zipRight(
        writeMetrics(args),
        Effect.logInfo("pass done").pipe(Effect.annotateLogs({
          claimed: report.wallets.flatMap((w) => w.positions).filter((p) => p.outcome === "claimed").length,
          wallets: report.wallets.length
        }))
      )
    ).pipe(Effect.provide(layer))
  }).pipe(Effect.provide(Layer.merge(NodeFileSystem.layer, logger)))

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString())

const walletJson = (w: Status.WalletStatus) => ({
  ...w,
  lastRunAt: iso(w.lastRunAt),
  owner: w.owner === null
    ? null
    : { runner: w.owner.runner, startedAt: iso(w.owner.startedAt), finishedAt: iso(w.owner.finishedAt) }
})

const walletLines = (wallets: ReadonlyArray<Status.WalletStatus>, cluster: boolean) =>
  Output.table(
    [
      "wallet",
      ...(cluster ? ["runner"] : []),
      "last run",
      "claims",
      "claimed (lamports)",
      "fees",
      "pending",
      "failures"
    ],
    wallets.map((w) => [
      w.wallet,
      ...(cluster ? [w.owner?.runner ?? "-"] : []),
      iso(w.lastRunAt) ?? "-",
      String(w.claims),
      Output.lamports(w.claimedLamports),
      Output.lamports(w.feesLamports),
      String(w.pending.length),
      w.failures.length === 0 ? "0" : `${w.failures.length} (last: ${w.failures[w.failures.length - 1]?.tag ?? "-"})`
    ])
  )

/** Per wallet and kind of item (positions, vaults, deployer): claims, amount, fees, skipped, failures. */
const kindLines = (wallets: ReadonlyArray<Status.WalletStatus>) =>
  Output.table(
    ["wallet", "kind", "claims", "claimed", "fees", "skipped", "failures"],
    wallets.flatMap((w) =>
      Object.entries(w.kinds).map(([kind, t]) => [
        w.wallet,
        kind,
        String(t.claims),
        String(t.claimed),
        Output.lamports(t.fees),
        String(t.skipped),
        String(t.failures)
      ])
    )
  )

/** `keeper status --postgres-url`: the runners, the wallets each owns and how far behind they are. */
const clusterStatus = (args: { readonly config: Option.Option<string> }, postgresUrl: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const intervalSeconds = Option.isSome(args.config)
      ? (yield* loadConfig({
        config: args.config.value,
        dryRun: false,
        database: Option.none(),
        maxFeesPerHour: Option.none()
      })).config
        .intervalSeconds
      : 60
    const { runners, wallets } = yield* Effect.all({ runners: Cluster.runners, wallets: Status.read }).pipe(
      Effect.provide(Cluster.layerJournal(postgresUrl))
    )
    const now = Date.now()
    const lag = (
      w: Status.WalletStatus
    ) => (w.owner === null ? 0 : Status.lagMillis(w.owner, now, intervalSeconds * 1000))
    const byRunner = runners.map((runner) => {
      const owned = wallets.filter((w) => w.owner?.runner === runner.address)
      return {
        ...runner,
        wallets: owned.map((w) => w.wallet),
        maxLagMillis: owned.reduce((max, w) => Math.max(max, lag(w)), 0)
      }
    })
    return Output.result(
      { runners: byRunner, wallets: wallets.map((w) => ({ ...walletJson(w), lagMillis: lag(w) })) },
      [
        `Keeper cluster: ${runners.filter((r) => r.healthy).length} healthy runner(s) of ${runners.length}`,
        ...Output.table(
          ["runner", "healthy", "last heartbeat", "wallets", "max lag"],
          byRunner.map((
            r
          ) => [
            r.address,
            r.healthy ? "yes" : "no",
            r.lastHeartbeat,
            String(r.wallets.length),
            `${Math.round(r.maxLagMillis / 1000)} s`
          ])
        ),
        ...walletLines(wallets, true),
        ...kindLines(wallets)
      ]
    )
  })

/** `keeper status`: reads the journal only (and, on a cluster, its runners). */
export const status = (
  args: {
    readonly config: Option.Option<string>
    readonly database: Option.Option<string>
    readonly postgresUrl: Option.Option<Redacted.Redacted<string>>
  }
) =>
  Effect.gen(function*() {
    if (Option.isSome(args.postgresUrl)) return yield* clusterStatus(args, args.postgresUrl.value)
    const database = Option.isSome(args.database)
      ? resolve(args.database.value)
      : Option.isSome(args.config)
      ? (yield* loadConfig({
        config: args.config.value,
        dryRun: false,
        database: Option.none(),
        maxFeesPerHour: Option.none()
      })).config.database
      : resolve("feeshare-keeper.db")
    const fs = yield* FileSystem.FileSystem
    if (!(yield* fs.exists(database).pipe(Effect.orElseSucceed(() => false)))) {
      return Output.result({ database, wallets: [] }, [`No keeper journal at ${database} yet.`])
    }
    const wallets = yield* Status.read.pipe(Effect.provide(Keeper.layerJournal(database)))
    return Output.result(
      { database, wallets: wallets.map(walletJson) },
      [`Keeper journal ${database}:`, ...walletLines(wallets, false), ...kindLines(wallets)]
    )
  }).pipe(Effect.provide(NodeFileSystem.layer))
