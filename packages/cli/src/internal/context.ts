/**
 * What the command handlers share: the API key, the client, the wallet, the RPC endpoints
 * and how a run reports its progress, all read from the command's `Environment`.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { FeeShareClient } from "@feeshare/client"
import type * as Client from "@feeshare/client/FeeShareClient"
import type * as RateBudget from "@feeshare/client/RateBudget"
import { FeeShareError } from "@feeshare/domain"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { MissingApiKey, MissingKeypair } from "../CliError.js"
import * as Credentials from "../Credentials.js"
import * as Output from "../Output.js"
import * as Progress from "../Progress.js"
import { Environment } from "./environment.js"
import type { Run } from "./signing.js"

/** The Effect client's service. */
export type Service = Client.FeeShareClient.Service

/** The Solana part (keys, verification, execution), loaded only by the commands that sign. */
export const loadSigning = Effect.promise(() => import("./signing.js"))

/** The API key: the flag or env, else the stored one for this base URL. */
export const findApiKey = Effect.flatMap(Environment, (g) =>
  Option.isSome(g.apiKey)
    ? Effect.succeed(Option.some(g.apiKey.value))
    : Effect.map(Credentials.lookup(g.baseUrl), Option.map((entry): Redacted.Redacted<string> => entry.apiKey)))

/**
 * The live table of a plan's progress, when stdout is a terminal and `--json` is not given
 * (made once: a process runs one command).
 */
let live: Progress.Live | undefined

const liveOf = (g: Environment.Service): Progress.Live | undefined => {
  if (g.json || process.stdout.isTTY !== true) return undefined
  live ??= Progress.live(process.stdout)
  return live
}

/**
 * Every rate-limit wait is visible, so that a pause does not look like a hang: in the live
 * table while one runs, else as a line on stderr.
 */
const announceWait = (wait: Client.RateLimitWait) =>
  live === undefined
    ? Console.error(
      `feeshare: waiting ${Math.ceil(wait.waitMillis / 1000)} s for the rate limit to reset (${wait.operation})`
    )
    : Effect.sync(() => {
      live?.table.rateLimitWait(wait.operation, wait.waitMillis)
      live?.render()
    })

/**
 * With `--redis-url`: the budget shared through Redis (ioredis loads only then), failing closed
 * with `BudgetUnavailable` when Redis does not answer within 1 s.
 */
export const budget: Effect.Effect<RateBudget.Options | undefined, never, Environment> = Effect.flatMap(
  Environment,
  (g) => {
    const url = g.redisUrl
    return Option.isNone(url)
      ? Effect.succeed(undefined)
      : Effect.map(Effect.promise(() => import("@feeshare/client/RedisBudget")), (RedisBudget) => ({
        limit: g.budgetLimit,
        window: Duration.hours(1),
        key: Option.getOrUndefined(g.budgetKey),
        store: RedisBudget.make({ url: url.value })
      }))
  }
)

/** A client with the given API key (none for the anonymous agent-auth calls). */
export const makeClient = (apiKey: Option.Option<Redacted.Redacted<string>>) =>
  Effect.gen(function*() {
    const g = yield* Environment
    return yield* FeeShareClient.make({
      baseUrl: g.baseUrl,
      apiKey: Option.getOrUndefined(apiKey),
      retry: { maxAttempts: 3 },
      onRateLimitWait: announceWait,
      budget: yield* budget
    })
  }).pipe(Effect.provide(FetchHttpClient.layer))

/** The API key (flag, env or stored); `MissingApiKey` when there is none. */
export const requireApiKey = (operation: string) =>
  Effect.gen(function*() {
    const g = yield* Environment
    const key = yield* findApiKey
    if (Option.isSome(key)) return key.value
    return yield* new MissingApiKey({ operation, message: `no API key for ${Credentials.keyOf(g.baseUrl)}` })
  })

/** The client with the API key; `MissingApiKey` when there is none. */
export const client = (operation: string) =>
  Effect.flatMap(requireApiKey(operation), (apiKey) => makeClient(Option.some(apiKey)))

/** The wallet of `--keypair`; `MissingKeypair` when there is none. */
export const signer = (operation: string) =>
  Effect.gen(function*() {
    const g = yield* Environment
    if (Option.isNone(g.keypair)) {
      return yield* new MissingKeypair({ operation, message: "this command needs the wallet: pass --keypair FILE" })
    }
    const signing = yield* loadSigning
    return yield* signing.loadSigner(g.keypair.value)
  })

/** The wallet: `--wallet` when given, else the public key of `--keypair`. */
export const walletOf = (wallet: Option.Option<string>, operation: string) =>
  Option.isSome(wallet) ? Effect.succeed(wallet.value) : Effect.map(signer(operation), (s) => s.publicKey)

/**
 * How a plan or a flow runs: the RPC endpoints, a progress line per event (none with
 * `--json`); with `table`, a plan's progress is a live table on a terminal.
 */
export const runOf = (options: { readonly table?: boolean } = {}): Effect.Effect<Run, never, Environment> =>
  Effect.map(Environment, (g): Run => ({
    rpcUrl: g.rpcUrls,
    live: options.table === true ? liveOf(g) : undefined,
    onLine: (line: string) => (g.json ? Effect.void : Console.log(line)),
    onInterrupted: (inFlight) =>
      g.json
        ? Console.log(Output.json({ interrupted: true, inFlight: inFlight.pending }))
        : Console.error(inFlight.interruptedLine())
  }))

/** An option's value breaks a rule: nothing is sent. */
export const invalid = (operation: string, field: string, rule: string) =>
  new FeeShareError.InvalidRequest({ operation, field, rule, message: `${operation}: ${field} ${rule}` })

/** A boolean as printed. */
export const yesNo = (flag: boolean) => (flag ? "yes" : "no")

/** The table of landed transactions. */
export const sentLines = (
  sent: ReadonlyArray<{ readonly label: string; readonly signature: string; readonly slot: bigint }>
) => Output.table(["transaction", "signature", "slot"], sent.map((s) => [s.label, s.signature, String(s.slot)]))
