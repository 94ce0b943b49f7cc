/**
 * The global options every command reads (`--base-url`, `--api-key`, `--json`, ...) and
 * `Globals`, what a handler receives. Handlers import `Globals` from here, never from the
 * root or `Cli.ts` (which load the handlers).
 */
import type * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Defaults from "./defaults.js"

/**
 * The global options. Each description starts with a short summary (up to the first ` (`),
 * which the top-level help prints with the environment variable named after `env`.
 */
export const options = {
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
export type Globals = Command.Command.ParseConfig<typeof options>
