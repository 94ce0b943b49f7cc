/**
 * The `feeshare` command tree. This module holds only the definitions (names, options,
 * descriptions); every handler is loaded on demand, so `feeshare --help` loads neither the
 * client, nor the Solana part, nor the sandbox.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Defaults from "./internal/defaults.js"
import * as Output from "./Output.js"
import packageJson from "../package.json" with { type: "json" }

/**
 * The CLI's version (from its package.json, inlined by the build).
 *
 * @since 0.1.0
 * @category constants
 */
export const version: string = packageJson.version

/**
 * Where `feeshare` talks to unless told otherwise: the port `feeshare sandbox` listens on.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBaseUrl = Defaults.baseUrl

const globals = {
  baseUrl: Options.text("base-url").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_BASE_URL")),
    Options.withDefault(defaultBaseUrl),
    Options.withDescription(`{base_url} of the service (env FEESHARE_BASE_URL; default ${defaultBaseUrl})`)
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
      "Solana JSON-RPC endpoint, or several separated by commas: each transaction goes to all, reads to the " +
        "first that answers (env FEESHARE_RPC_URL; default {root_url}/rpc, the sandbox's)"
    )
  ),
  keypair: Options.file("keypair").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_KEYPAIR")),
    Options.optional,
    Options.withDescription("solana-keygen JSON file of the wallet that signs (env FEESHARE_KEYPAIR)")
  ),
  redisUrl: Options.redacted("redis-url").pipe(
    Options.withFallbackConfig(Config.redacted("FEESHARE_REDIS_URL")),
    Options.optional,
    Options.withDescription(
      "Redis shared by the processes of one account: their requests count in one rate budget, so that " +
        "together they stay under the service's limit (env FEESHARE_REDIS_URL; a password in it is never printed)"
    )
  ),
  budgetLimit: Options.integer("budget-limit").pipe(
    Options.withFallbackConfig(Config.integer("FEESHARE_BUDGET_LIMIT")),
    Options.withDefault(1000),
    Options.withDescription(
      "requests per hour of the shared budget, with --redis-url (env FEESHARE_BUDGET_LIMIT; default 1000; the " +
        "service's X-RateLimit-Limit lowers it when smaller)"
    )
  ),
  budgetKey: Options.text("budget-key").pipe(
    Options.withFallbackConfig(Config.string("FEESHARE_BUDGET_KEY")),
    Options.optional,
    Options.withDescription(
      "name of the account's shared budget, with --redis-url (env FEESHARE_BUDGET_KEY; default: the key's user id, " +
        "which costs one auth/me request per run)"
    )
  ),
  json: Options.boolean("json").pipe(
    Options.withDescription("print exactly one JSON document on stdout and nothing else")
  )
}

/**
 * The global options, as every handler receives them.
 *
 * @since 0.1.0
 * @category models
 */
export type Globals = Command.Command.ParseConfig<typeof globals>

/**
 * The root command without its subcommands (subcommands read the global options from it).
 *
 * @since 0.1.0
 * @category commands
 */
export const root = Command.make("feeshare", globals)

/** The handlers of each command group, loaded when one of its commands runs. */
const groups = {
  auth: () => import("./internal/commands/auth.js"),
  claims: () => import("./internal/commands/claims.js"),
  feeShare: () => import("./internal/commands/feeShare.js"),
  partner: () => import("./internal/commands/partner.js"),
  launch: () => import("./internal/commands/launch.js"),
  trade: () => import("./internal/commands/trade.js"),
  analytics: () => import("./internal/commands/analytics.js"),
  evm: () => import("./internal/commands/evm.js")
}

/**
 * Prints a command's result: its JSON document with `--json`, its human lines otherwise.
 *
 * @since 0.1.0
 * @category output
 */
export const print = (g: Pick<Globals, "json">, result: Output.Result) =>
  g.json ? Console.log(Output.json(result.json)) : Console.log(result.human.join("\n"))

const handle = <H, E, R>(
  load: () => Promise<H>,
  f: (handlers: H, g: Globals) => Effect.Effect<Output.Result, E, R>
) =>
  Effect.gen(function*() {
    const g = yield* root
    const handlers = yield* Effect.promise(load)
    yield* print(g, yield* f(handlers, g))
  }).pipe(Effect.scoped)

// ---------------------------------------------------------------------------
// shared options
// ---------------------------------------------------------------------------

const mint = Options.text("mint").pipe(Options.withDescription("token mint (base58 public key)"))
const wallet = Options.text("wallet").pipe(
  Options.optional,
  Options.withDescription("wallet public key (default: the public key of --keypair)")
)
const dryRun = Options.boolean("dry-run").pipe(
  Options.withDescription("verify every transaction and print it, without signing or sending")
)
const format = Options.choice("format", ["v0", "v1"]).pipe(
  Options.optional,
  Options.withDescription("transaction format of the plan (default v0)")
)

// ---------------------------------------------------------------------------
// commands
// ---------------------------------------------------------------------------

const login = Command.make(
  "login",
  {
    keyName: Options.text("key-name").pipe(
      Options.withDefault("feeshare-cli"),
      Options.withDescription("label of the new API key")
    ),
    mfaCode: Options.text("mfa-code").pipe(
      Options.optional,
      Options.withDescription("TOTP code, when the wallet has MFA enabled")
    )
  },
  (args) => handle(groups.auth, (h, g) => h.login(g, args))
).pipe(Command.withDescription(
  "Sign a challenge with --keypair for a new API key, and store it (mode 0600) in the credentials file"
))

const me = Command.make("me", {}, () => handle(groups.auth, (h, g) => h.me(g))).pipe(
  Command.withDescription("The user that owns the API key")
)

const auth = Command.make("auth").pipe(
  Command.withDescription("API keys: log in by wallet signature, show the key's user"),
  Command.withSubcommands([login, me])
)

const limits = Command.make("limits", {}, () => handle(groups.auth, (h, g) => h.limits(g))).pipe(
  Command.withDescription("Ping the service and show the rate-limit budget (limit, remaining, reset)")
)

const positions = Command.make("positions", { wallet }, (args) => handle(groups.claims, (h, g) => h.positions(g, args))).pipe(
  Command.withDescription("Claimable fee positions of a wallet")
)

const vaults = Command.make("vaults", { wallet }, (args) => handle(groups.claims, (h, g) => h.vaults(g, args))).pipe(
  Command.withDescription("Partner/deployer aggregate vault balances of a wallet")
)

const plan = Command.make("plan", { mint, wallet, format }, (args) => handle(groups.claims, (h, g) => h.plan(g, args))).pipe(
  Command.withDescription("Build a claim plan and print its stages (nothing is verified, signed or sent)")
)

const claim = Command.make("claim", { mint, format, dryRun }, (args) => handle(groups.claims, (h, g) => h.claim(g, args))).pipe(
  Command.withDescription(
    "Claim fees with --keypair: build the plan, verify every stage, sign, send, with a progress line per stage " +
      "(lookup-table setup included)"
  )
)

const claims = Command.make("claims").pipe(
  Command.withDescription("Claimable positions, vaults, claim plans and claiming"),
  Command.withSubcommands([positions, vaults, plan, claim])
)

const update = Command.make(
  "update",
  {
    mint,
    claimers: Options.text("claimer").pipe(
      Options.atLeast(1),
      Options.withDescription("a claimer and its share, ADDR:BPS (repeat; the shares sum to 10000)")
    ),
    lookupTables: Options.text("lookup-table").pipe(
      Options.repeated,
      Options.withDescription("extra address lookup table (repeat; required above 7 claimers)")
    ),
    dryRun
  },
  (args) => handle(groups.feeShare, (h, g) => h.update(g, args))
).pipe(Command.withDescription("Replace a token's fee claimers, signed by the admin's --keypair"))

const admins = Command.make("admins", { wallet }, (args) => handle(groups.feeShare, (h, g) => h.admins(g, args))).pipe(
  Command.withDescription("Token mints a wallet is fee-share admin of")
)

const feeShare = Command.make("fee-share").pipe(
  Command.withDescription("Fee-share configuration"),
  Command.withSubcommands([update, admins])
)

const partnerClaim = Command.make("claim", { dryRun }, (args) => handle(groups.partner, (h, g) => h.claim(g, args))).pipe(
  Command.withDescription("Claim accumulated partner fees with --keypair (the vault withdrawal lands last)")
)

const partner = Command.make("partner").pipe(
  Command.withDescription("Partner fees"),
  Command.withSubcommands([partnerClaim])
)

const launch = Command.make(
  "launch",
  {
    ipfs: Options.text("ipfs").pipe(Options.withDescription("IPFS URL of the token metadata")),
    mint,
    configKey: Options.text("config-key").pipe(Options.withDescription("config key of the launch")),
    initialBuy: Options.integer("initial-buy").pipe(
      Options.withDefault(0),
      Options.withDescription("lamports to buy at launch (the service requires the field; 0 buys nothing)")
    ),
    tipWallet: Options.text("tip-wallet").pipe(Options.optional, Options.withDescription("tip recipient")),
    tipLamports: Options.integer("tip-lamports").pipe(Options.optional, Options.withDescription("tip in lamports")),
    dryRun
  },
  (args) => handle(groups.launch, (h, g) => h.launch(g, args))
).pipe(Command.withDescription(
  "Launch a token: verify the launch transaction (signed by the mint), co-sign with --keypair, send"
))

const swapOptions = {
  input: Options.text("in").pipe(Options.withDescription("input mint")),
  output: Options.text("out").pipe(Options.withDescription("output mint")),
  amount: Options.text("amount").pipe(Options.withDescription("amount in the input token's smallest unit")),
  slippageBps: Options.integer("slippage-bps").pipe(
    Options.optional,
    Options.withDescription("manual slippage in basis points (default: automatic)")
  )
}

const quote = Command.make("quote", swapOptions, (args) => handle(groups.trade, (h, g) => h.quote(g, args))).pipe(
  Command.withDescription("Quote a swap")
)

const swap = Command.make("swap", { ...swapOptions, dryRun }, (args) => handle(groups.trade, (h, g) => h.swap(g, args))).pipe(
  Command.withDescription("Quote, then build, verify, sign with --keypair and send the swap")
)

const trade = Command.make("trade").pipe(
  Command.withDescription("Quotes and swaps"),
  Command.withSubcommands([quote, swap])
)

const lifetimeFees = Command.make("lifetime-fees", { mint }, (args) => handle(groups.analytics, (h, g) => h.lifetimeFees(g, args))).pipe(
  Command.withDescription("Lifetime fees of a token")
)

const claimStats = Command.make("claim-stats", { mint }, (args) => handle(groups.analytics, (h, g) => h.claimStats(g, args))).pipe(
  Command.withDescription("What every fee claimer of a token has claimed")
)

const analytics = Command.make("analytics").pipe(
  Command.withDescription("Launch analytics"),
  Command.withSubcommands([lifetimeFees, claimStats])
)

const pools = Command.make(
  "pools",
  { onlyMigrated: Options.boolean("only-migrated").pipe(Options.withDescription("only pools migrated to DAMM v2")) },
  (args) => handle(groups.analytics, (h, g) => h.pools(g, args))
).pipe(Command.withDescription("Pools with their DBC and DAMM v2 keys"))

const indexStatus = Command.make(
  "index-status",
  { addresses: Args.text({ name: "address" }).pipe(Args.atLeast(1), Args.withDescription("EVM token addresses")) },
  (args) => handle(groups.evm, (h, g) => h.indexStatus(g, args))
).pipe(Command.withDescription("Whether EVM tokens are index tokens (1 to 100 addresses)"))

const evmPositions = Command.make(
  "positions",
  { owner: Options.text("owner").pipe(Options.withDescription("EVM owner address (any casing)")) },
  (args) => handle(groups.evm, (h, g) => h.positions(g, args))
).pipe(Command.withDescription("Claimable EVM fee positions of an owner"))

const creationFee = Command.make("creation-fee", {}, () => handle(groups.evm, (h, g) => h.creationFee(g))).pipe(
  Command.withDescription("Current token creation fee on the EVM chain")
)

const evm = Command.make("evm").pipe(
  Command.withDescription("EVM-chain reads"),
  Command.withSubcommands([indexStatus, evmPositions, creationFee])
)

const keeperConfig = Options.file("config").pipe(
  Options.withFallbackConfig(Config.string("FEESHARE_KEEPER_CONFIG")),
  Options.withDescription("keeper configuration, JSON or YAML (env FEESHARE_KEEPER_CONFIG); see docs/keeper.md")
)
const keeperDatabase = Options.text("database").pipe(
  Options.optional,
  Options.withDescription("the keeper's SQLite journal (default: the config's `database`)")
)
const keeperRunOptions = {
  config: keeperConfig,
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("verify every plan and report; sign and send nothing")),
  database: keeperDatabase,
  maxFeesPerHour: Options.integer("max-fees-per-hour").pipe(
    Options.optional,
    Options.withDescription("cap on network fees (lamports) spent in any hour")
  ),
  metricsFile: Options.text("metrics-file").pipe(
    Options.optional,
    Options.withDescription("write the metrics (Prometheus text format) to this file after each pass")
  )
}
const keeperPostgresUrl = Options.redacted("postgres-url").pipe(
  Options.withFallbackConfig(Config.redacted("FEESHARE_KEEPER_POSTGRES_URL")),
  Options.optional,
  Options.withDescription("run as one runner of a cluster whose storage and journal are in this PostgreSQL (env FEESHARE_KEEPER_POSTGRES_URL)")
)
const keeperClusterOptions = {
  ...keeperRunOptions,
  postgresUrl: keeperPostgresUrl,
  runnerHost: Options.text("runner-host").pipe(
    Options.withDefault("127.0.0.1"),
    Options.withDescription("with --postgres-url: the address other runners reach this one at (and where it listens)")
  ),
  runnerPort: Options.integer("runner-port").pipe(
    Options.optional,
    Options.withDescription("with --postgres-url: this runner's port (default: a free one)")
  )
}
const loadKeeper = Effect.promise(() => import("./internal/keeper.js"))
const keeper = Command.make("keeper").pipe(
  Command.withDescription("Claim fees for many wallets, unattended and exactly once, surviving crashes"),
  Command.withSubcommands([
    Command.make("run", keeperClusterOptions, (args) =>
      Effect.flatMap(root, (g) => Effect.flatMap(loadKeeper, (k) => k.run(g, args)))).pipe(
        Command.withDescription("Claim in passes forever (`intervalSeconds` apart); logs on stderr; --postgres-url: one runner of a cluster")
      ),
    Command.make("once", keeperRunOptions, (args) =>
      Effect.gen(function*() {
        const g = yield* root
        yield* print(g, yield* (yield* loadKeeper).once(g, args))
      })).pipe(Command.withDescription("One pass: settle the journal, claim what passes the policy, report")),
    Command.make("status", { config: keeperConfig.pipe(Options.optional), database: keeperDatabase, postgresUrl: keeperPostgresUrl }, (args) =>
      Effect.gen(function*() {
        const g = yield* root
        yield* print(g, yield* (yield* loadKeeper).status(g, args))
      })).pipe(Command.withDescription("Per wallet: last run, claimed totals, pending plans, failures with their tag; on a cluster, its runners"))
  ])
)

const loadMcp = Effect.promise(() => import("./internal/mcp.js"))
const mcp = Command.make(
  "mcp",
  {
    policy: Options.file("policy").pipe(
      Options.withFallbackConfig(Config.string("FEESHARE_MCP_POLICY")),
      Options.optional,
      Options.withDescription(
        "the policy (JSON): wallets that may sign, allowed mints, swap and fee caps, read-only (env FEESHARE_MCP_POLICY); see docs/mcp.md"
      )
    ),
    readOnly: Options.boolean("read-only").pipe(
      Options.withDescription("load no signer at all: every prepare and execute tool is refused")
    ),
    http: Options.integer("http").pipe(
      Options.optional,
      Options.withDescription(
        "serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: a free port): loopback Origin and Host only, " +
          "and the bearer token printed on stderr at start (or FEESHARE_MCP_TOKEN)"
      )
    )
  },
  (args) => Effect.flatMap(root, (g) => Effect.flatMap(loadMcp, (m) => m.run(g, args, version)))
).pipe(Command.withDescription(
  "Serve the toolkit to an AI agent over MCP (stdio): every read as a tool; writes prepared, verified and executed once under the policy"
))

/**
 * `feeshare sandbox`: named here for help and completions only; the bin hands its flags to the
 * sandbox's own parser (`Flags` of @feeshare/sandbox) before @effect/cli sees them, and
 * `feeshare sandbox --help` lists them.
 *
 * @since 0.1.0
 * @category commands
 */
export const sandbox = Command.make(
  "sandbox",
  {},
  () => Effect.dieMessage("feeshare sandbox is dispatched by the bin before @effect/cli parses it")
).pipe(Command.withDescription(
  `Serve the whole API locally over an in-process Solana ledger (default port ${Defaults.sandboxPort}); prints the URLs and a demo key`
))

const demo = Command.make("demo", {}, () =>
  Effect.gen(function*() {
    const g = yield* root
    const Demo = yield* Effect.promise(() => import("./Demo.js"))
    yield* Demo.run({ json: g.json })
  })).pipe(Command.withDescription(
    "Start an embedded sandbox and walk through login, token and 3-way fee share, launch, trades, positions, " +
      "a claim plan with setup, analytics"
  ))

/**
 * Every subcommand of `feeshare`, in help order.
 *
 * @since 0.1.0
 * @category commands
 */
export const subcommands = [auth, limits, claims, feeShare, partner, launch, trade, analytics, pools, evm, keeper, mcp, sandbox, demo] as const

/**
 * The `feeshare` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = root.pipe(
  Command.withDescription("feeshare: fee sharing, token launches and trading on Solana, from the command line"),
  Command.withSubcommands(subcommands)
)

/**
 * Runs `feeshare` on `process.argv`-shaped arguments (the first two are skipped).
 *
 * @since 0.1.0
 * @category commands
 */
export const run = Command.run(command, { name: "feeshare", version })
