/**
 * The root of the command tree: the global options every command reads, and how a handler
 * runs (its group's module loaded on demand, its result printed).
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Output from "../Output.js"
import * as Defaults from "./defaults.js"

/**
 * The global options. Each description starts with a short summary (up to the first ` (`),
 * which the top-level help prints with the environment variable named after `env`.
 */
const globals = {
  baseUrl: Options.text("base-url").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_BASE_URL")),
    Options.withDefault(Defaults.baseUrl),
    Options.withDescription(`base URL of the service (env FEESHARE_BASE_URL; default ${Defaults.baseUrl})`)
  ),
  apiKey: Options.redacted("api-key").pipe(
    Options.withFallbackConfig(Config.redacted("FEESHARE_API_KEY")),
    Options.optional,
    Options.withDescription(
      "API key (env FEESHARE_API_KEY; else the key `auth login` stored for this base URL)"
    )
  ),
  rpcUrl: Options.text("rpc-url").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_RPC_URL")),
    Options.optional,
    Options.withDescription(
      "Solana RPC endpoint(s) (env FEESHARE_RPC_URL; several separated by commas: each transaction goes to all, " +
        "reads to the first that answers; default {root_url}/rpc, the sandbox's)"
    )
  ),
  keypair: Options.file("keypair").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_KEYPAIR")),
    Options.optional,
    Options.withDescription("keygen file of the signing wallet (env FEESHARE_KEYPAIR; a solana-keygen JSON array)")
  ),
  redisUrl: Options.redacted("redis-url").pipe(
    Options.withFallbackConfig(Config.redacted("FEESHARE_REDIS_URL")),
    Options.optional,
    Options.withDescription(
      "Redis of a shared rate budget (env FEESHARE_REDIS_URL; the processes of one account count " +
        "their requests in one budget, so that together they stay under the service's limit; a password in it is " +
        "never printed)"
    )
  ),
  budgetLimit: Options.integer("budget-limit").pipe(
    Options.withFallbackConfig(Config.integer("FEESHARE_BUDGET_LIMIT")),
    Options.withDefault(1000),
    Options.withDescription(
      "shared budget: requests per hour (env FEESHARE_BUDGET_LIMIT; with --redis-url; default 1000; the " +
        "service's X-RateLimit-Limit lowers it when smaller)"
    )
  ),
  budgetKey: Options.text("budget-key").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_BUDGET_KEY")),
    Options.optional,
    Options.withDescription(
      "shared budget: its name (env FEESHARE_BUDGET_KEY; with --redis-url; default: the key's user id, " +
        "which costs one auth/me request per run)"
    )
  ),
  json: Options.boolean("json").pipe(
    Options.withDescription("one JSON document on stdout, nothing else (also on failure)")
  )
}

/** The global options, as every handler receives them. */
export type Globals = Command.Command.ParseConfig<typeof globals>

/** The root command without its subcommands (subcommands read the global options from it). */
export const root = Command.make("feeshare", globals)

/** Prints a command's result: its JSON document with `--json`, its human lines otherwise. */
export const print = (g: Pick<Globals, "json">, result: Output.Result) =>
  g.json ? Console.log(Output.json(result.json)) : Console.log(result.human.join("\n"))

/** The handlers of each command group, loaded when one of its commands runs. */
export const groups = {
  auth: () => import("./commands/auth.js"),
  claims: () => import("./commands/claims.js"),
  feeShare: () => import("./commands/feeShare.js"),
  partner: () => import("./commands/partner.js"),
  launch: () => import("./commands/launch.js"),
  trade: () => import("./commands/trade.js"),
  analytics: () => import("./commands/analytics.js"),
  evm: () => import("./commands/evm.js"),
  keeper: () => import("./keeper.js"),
  mcp: () => import("./mcp.js"),
  demo: () => import("../Demo.js")
}

/** Runs a handler of a group (loaded now) with the global options, and prints its result. */
export const handle = <H, E, R>(
  load: () => Promise<H>,
  f: (handlers: H, g: Globals) => Effect.Effect<Output.Result, E, R>
) =>
  Effect.gen(function*() {
    const g = yield* root
    const handlers = yield* Effect.promise(load)
    yield* print(g, yield* f(handlers, g))
  }).pipe(Effect.scoped)
