/**
 * Keeper runners as processes (`feeshare keeper run --postgres-url`, the executable the global
 * set-up built from the sources) on a PostgreSQL server started for the test, and reads of the
 * journal they share.
 */
import { Duration, Effect, Schedule } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { appendFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { executables } from "../../../../scripts/test-executables.mjs"
import { freePort, startPostgres } from "./postgres.js"

export interface Runner {
  readonly name: string
  readonly child: ChildProcess
  readonly stderr: () => string
  /** Resolves once the runner printed a line matching `pattern`. */
  readonly printed: (pattern: RegExp) => Promise<void>
}

/** The cluster's secret every test runner shares (the transport's handshake is under test with them). */
export const clusterSecret = "feeshare-keeper-test-cluster-secret"

/** `feeshare keeper run`: one runner of a cluster with `postgresUrl`, else the one-machine loop. */
export const startRunner = (options: {
  readonly config: string
  readonly postgresUrl?: string
  readonly args?: ReadonlyArray<string>
  readonly baseUrl: string
  readonly apiKey: string
  readonly rpcUrl: string
  readonly hook?: string
  /** More of the runner's environment (e.g. `Cluster.Tuning`'s variables: `keeperWithHooks.ts`). */
  readonly env?: Readonly<Record<string, string>>
}) =>
  Effect.promise(async (): Promise<Runner> => {
    const port = await freePort()
    const child = spawn(
      process.execPath,
      [
        executables.feeshareWithHooks,
        "keeper",
        "run",
        "--config",
        options.config,
        ...(options.postgresUrl === undefined ? [] : ["--runner-port", String(port)]),
        ...(options.args ?? [])
      ],
      {
        env: {
          ...process.env,
          NO_COLOR: "1",
          FEESHARE_BASE_URL: options.baseUrl,
          FEESHARE_API_KEY: options.apiKey,
          FEESHARE_RPC_URL: options.rpcUrl,
          ...(options.postgresUrl === undefined ? {} : {
            FEESHARE_KEEPER_POSTGRES_URL: options.postgresUrl,
            // the runners speak to each other only after the cluster's HMAC challenge
            FEESHARE_KEEPER_CLUSTER_SECRET: clusterSecret
          }),
          FEESHARE_KEEPER_HOOK: options.hook ?? "",
          ...options.env
        },
        stdio: ["ignore", "ignore", "pipe"]
      }
    )
    let stderr = ""
    const waiters = new Set<{ readonly pattern: RegExp; readonly done: () => void }>()
    // KEEPER_RUNNER_LOGS=DIR: every runner's stderr also goes to DIR/<port>.log (to read after a failure)
    const logs = process.env.KEEPER_RUNNER_LOGS
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      if (logs !== undefined) appendFileSync(join(logs, `${port}.log`), chunk)
      for (const waiter of waiters) {
        if (waiter.pattern.test(stderr)) {
          waiters.delete(waiter)
          waiter.done()
        }
      }
    })
    return {
      name: `127.0.0.1:${port}`,
      child,
      stderr: () => stderr,
      printed: (pattern) =>
        pattern.test(stderr) ? Promise.resolve() : new Promise((done, fail) => {
          waiters.add({ pattern, done })
          child.once(
            "exit",
            (code, signal) => fail(new Error(`runner exited (${code ?? signal}) before ${pattern}: ${stderr}`))
          )
        })
    }
  })

export const kill = (runner: Runner) =>
  Effect.promise(() =>
    runner.child.exitCode !== null || runner.child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((done) => {
        runner.child.once("exit", () => done())
        runner.child.kill("SIGKILL")
      })
  )

/** A PostgreSQL server and a client of it, for the life of the scope. */
export const postgres = Effect.acquireRelease(
  Effect.promise(async () => {
    const server = await startPostgres()
    const client = new pg.Client({ connectionString: server.url })
    await client.connect()
    return { server, client }
  }),
  ({ client, server }) => Effect.promise(() => client.end().then(() => server.stop()))
)

export const query = <A>(client: pg.Client, text: string, values: ReadonlyArray<unknown> = []) =>
  Effect.promise(async () => (await client.query(text, [...values])).rows as Array<A>)

/** Polls `condition` (a database read) every 250 ms until it holds; fails after `limit`. */
export const until = (what: string, condition: Effect.Effect<boolean>, limit: Duration.DurationInput = "150 seconds") =>
  condition.pipe(
    // the runners create the tables: until they have, a read fails, which counts as not yet
    Effect.catchAllDefect(() => Effect.succeed(false)),
    Effect.repeat({ schedule: Schedule.spaced("250 millis"), until: (holds) => holds }),
    Effect.timeoutFail({ duration: limit, onTimeout: () => new Error(`timed out waiting for ${what}`) }),
    Effect.orDie
  )
