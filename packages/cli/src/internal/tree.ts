/**
 * Every command of `feeshare`: names, options, a one-line summary, details and an example
 * each. Handlers load on demand (`groups` of `root`), so `feeshare --help` loads neither the
 * client, nor the Solana part, nor the sandbox.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as FeeShare from "@feeshare/domain/FeeShare"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Defaults from "./defaults.js"
import { Environment } from "./environment.js"
import { about } from "./helpDoc.js"
import { environment, groups, handle } from "./root.js"

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
// auth, limits
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
  (args) => handle(groups.auth, (h) => h.login(args))
).pipe(Command.withDescription(about("Sign a challenge with --keypair for a new API key, and store it", {
  details: "The key is stored (mode 0600) in the credentials file (~/.config/feeshare/credentials.json, " +
    "or under FEESHARE_CONFIG_DIR or XDG_CONFIG_HOME), for this base URL; later commands use it.",
  examples: ["feeshare --keypair wallet.json auth login"]
})))

const me = Command.make("me", {}, () => handle(groups.auth, (h) => h.me())).pipe(
  Command.withDescription(about("The user that owns the API key", { examples: ["feeshare auth me"] }))
)

const auth = Command.make("auth").pipe(
  Command.withDescription(about("API keys: log in by wallet signature, show the key's user", {
    examples: ["feeshare --keypair wallet.json auth login"]
  })),
  Command.withSubcommands([login, me])
)

const limits = Command.make("limits", {}, () => handle(groups.auth, (h) => h.limits())).pipe(
  Command.withDescription(about("Ping the service and show the rate-limit budget", {
    details: "Prints the round trip and the X-RateLimit headers: limit, remaining, reset time.",
    examples: ["feeshare limits"]
  }))
)

// ---------------------------------------------------------------------------
// claims
// ---------------------------------------------------------------------------

const positions = Command.make("positions", { wallet }, (args) => handle(groups.claims, (h) => h.positions(args)))
  .pipe(Command.withDescription(about("Claimable fee positions of a wallet", {
    examples: ["feeshare --keypair wallet.json claims positions"]
  })))

const vaults = Command.make("vaults", { wallet }, (args) => handle(groups.claims, (h) => h.vaults(args))).pipe(
  Command.withDescription(about("Partner/deployer aggregate vault balances of a wallet", {
    examples: ["feeshare claims vaults --wallet WALLET"]
  }))
)

/** Every option of a claim plan: `claims plan` and `claims claim` take the same. */
const planOptions = {
  mint,
  format,
  source: Options.text("source").pipe(
    Options.optional,
    Options.withDescription(
      "which claimable to claim from: position, pair, pool:dbc:POOL, pool:damm_v2:POOL or holding:AUTHORITY " +
        "(default: the service picks the position or pair)"
    )
  ),
  quoteMint: Options.text("quote-mint").pipe(
    Options.optional,
    Options.withDescription("the quote mint you expect (refused when the config or holding vault has another)")
  ),
  feeLimits: Options.text("fee-limit").pipe(
    Options.repeated,
    Options.withDescription(
      "a ceiling on the payout asset's transfer fee, MINT:PROGRAM:BPS:MAX_FEE_RAW with PROGRAM token, token-2022 " +
        "or a program id (repeat, at most 4; default: the active schedule)"
    )
  ),
  lookupTables: Options.text("lookup-table").pipe(
    Options.repeated,
    Options.withDescription("an extra address lookup table to compile against (repeat, at most 8; v0 only)")
  )
}

const plan = Command.make(
  "plan",
  { ...planOptions, wallet },
  (args) => handle(groups.claims, (h) => h.plan(args))
).pipe(Command.withDescription(about("Build a claim plan and print its stages", {
  details: "Nothing is verified, signed or sent.",
  examples: ["feeshare claims plan --mint MINT --wallet WALLET --source holding:AUTHORITY"]
})))

const claim = Command.make(
  "claim",
  { ...planOptions, dryRun },
  (args) => handle(groups.claims, (h) => h.claim(args))
).pipe(Command.withDescription(about("Claim a token's fees with --keypair", {
  details: "Builds the plan, verifies every stage, signs and sends, lookup-table setup included. On a terminal the " +
    "progress is a live table (a row per stage, elapsed times, the current wait: rate limit, lookup-table warm-up, " +
    "confirmation); on a pipe, one line per event. Reports what the claim paid: the change of the wallet's token " +
    "account of the plan's asset. The options are checked together before anything is sent; a refusal names the " +
    "flag and the rule. For example, a holding in a Token-2022 quote mint: --source holding:AUTHORITY " +
    "--quote-mint QUOTE --fee-limit QUOTE:token-2022:100:5000000.",
  examples: ["feeshare --keypair wallet.json claims claim --mint MINT"]
})))

const events = Command.make(
  "events",
  {
    mint,
    since: Options.text("since").pipe(
      Options.optional,
      Options.withDescription("only claims from this time on: unix seconds, ISO-8601, or a span back such as 24h, 7d")
    ),
    until: Options.text("until").pipe(
      Options.optional,
      Options.withDescription("with --since: only claims up to this time (default now)")
    ),
    limit: Options.integer("limit").pipe(
      Options.optional,
      Options.withDescription("without --since: claims per page, 1 to 100 (default 100)")
    ),
    offset: Options.integer("offset").pipe(
      Options.optional,
      Options.withDescription("without --since: claims to skip, newest first (default 0)")
    )
  },
  (args) => handle(groups.claims, (h) => h.events(args))
).pipe(Command.withDescription(about("Landed claims of a token: who, how much, when", {
  details: "Newest first. Without --since, a page (--limit, --offset); with --since, every claim of the window.",
  examples: ["feeshare claims events --mint MINT --since 24h"]
})))

const all = Command.make(
  "all",
  {
    dryRun,
    min: Options.text("min").pipe(
      Options.repeated,
      Options.withDescription("skip items under this raw amount of an asset, MINT=RAW (repeat; sol=RAW for SOL)")
    ),
    maxRounds: Options.integer("max-rounds").pipe(
      Options.withDefault(10),
      Options.withDescription("deployer claim batches asked for at most (1 to 100)")
    )
  },
  (args) => handle(groups.claimAll, (h) => h.all(args))
).pipe(Command.withDescription(about("Claim everything the wallet of --keypair is owed", {
  details: "Every claimable position (the v3 claim for SOL-quoted ones, a claim plan otherwise), the deployer's " +
    "positions (claim batches until no token remains) and every partner/deployer vault (the gas-sponsored sweep). " +
    "Each transaction is verified before it is signed; a refused item is not signed and the others go on. A row " +
    "per item (kind, token or vault, amount, stages, state), live on a terminal, then a total per payout asset. " +
    "With --dry-run everything is verified and nothing is signed. An item refused before signing exits 8, one that " +
    "failed 9 (the others are claimed all the same); with --json the one document is then the error, naming each " +
    "item not claimed.",
  examples: [
    "feeshare --keypair wallet.json claims all",
    "feeshare --keypair wallet.json claims all --dry-run --min sol=1000000"
  ]
})))

const claims = Command.make("claims").pipe(
  Command.withDescription(about("Claimable positions and vaults, claim plans, claims, claim events", {
    examples: ["feeshare --keypair wallet.json claims claim --mint MINT"]
  })),
  Command.withSubcommands([positions, vaults, plan, claim, all, events])
)

// ---------------------------------------------------------------------------
// fee share, partner
// ---------------------------------------------------------------------------

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
  (args) => handle(groups.feeShare, (h) => h.update(args))
).pipe(Command.withDescription(about("Replace a token's fee claimers, signed by the admin's --keypair", {
  examples: ["feeshare fee-share update --mint MINT --claimer A:7000 --claimer B:3000"]
})))

const admins = Command.make("admins", { wallet }, (args) => handle(groups.feeShare, (h) => h.admins(args))).pipe(
  Command.withDescription(about("Token mints a wallet is fee-share admin of", {
    examples: ["feeshare fee-share admins --wallet WALLET"]
  }))
)

const feeShare = Command.make("fee-share").pipe(
  Command.withDescription(about("Fee-share configuration: who gets a token's fees", {
    examples: ["feeshare fee-share admins --wallet WALLET"]
  })),
  Command.withSubcommands([update, admins])
)

const partnerClaim = Command.make("claim", { dryRun }, (args) => handle(groups.partner, (h) => h.claim(args)))
  .pipe(Command.withDescription(about("Claim accumulated partner fees with --keypair", {
    details: "The vault withdrawal lands last.",
    examples: ["feeshare --keypair partner.json partner claim --dry-run"]
  })))

const partner = Command.make("partner").pipe(
  Command.withDescription(about("Partner fees", { examples: ["feeshare --keypair partner.json partner claim"] })),
  Command.withSubcommands([partnerClaim])
)

// ---------------------------------------------------------------------------
// launch, trade, reads
// ---------------------------------------------------------------------------

const launchTransaction = Command.make(
  "transaction",
  {
    ipfs: Options.text("ipfs").pipe(
      Options.withDescription("metadata URL of the token: `tokenMetadata` of its token info")
    ),
    mint: Options.text("mint").pipe(
      Options.withDescription("token mint (base58): `tokenMint` of its token info (the service made it)")
    ),
    configKey: Options.text("config-key").pipe(
      Options.withDescription("config key of the launch: `meteoraConfigKey` of its config creation")
    ),
    initialBuy: Options.integer("initial-buy").pipe(
      Options.withDefault(0),
      Options.withDescription("lamports to buy at launch (the service requires the field; 0 buys nothing)")
    ),
    tipWallet: Options.text("tip-wallet").pipe(Options.optional, Options.withDescription("tip recipient")),
    tipLamports: Options.integer("tip-lamports").pipe(Options.optional, Options.withDescription("tip in lamports")),
    dryRun
  },
  (args) => handle(groups.launch, (h) => h.launch(args))
).pipe(Command.withDescription(about("Send the launch transaction of a token whose token info and config exist", {
  details: "Asks for the launch transaction (signed by the mint), verifies it, co-signs it with --keypair and sends " +
    "it. --ipfs and --mint come from the token info, --config-key from the config creation (`launch token` makes " +
    "all three). `feeshare launch --ipfs … --mint … --config-key …` is the same command (its old spelling).",
  examples: ["feeshare --keypair wallet.json launch transaction --ipfs ipfs://CID --mint MINT --config-key KEY"]
})))

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.optional, Options.withDescription(description))

const launchToken = Command.make(
  "token",
  {
    image: Options.text("image").pipe(
      Options.withDescription(
        "the token's image: a PNG, JPEG, GIF or WebP file (at most 15,000,000 bytes) or an http(s) URL"
      )
    ),
    name: Options.text("name").pipe(Options.withDescription("token name (1 to 32 characters)")),
    symbol: Options.text("symbol").pipe(
      Options.withDescription("token symbol (1 to 10 characters; a leading $ is removed, upper-cased)")
    ),
    description: optionalText("description", "token description (1 to 1000 characters; default: the name)"),
    shares: Options.text("share").pipe(
      Options.atLeast(1),
      Options.withDescription(
        "a fee share: WALLET:BPS, or PROVIDER:USERNAME:BPS for a handle (social, email, main), e.g. social:alice:3000 " +
          "(repeat; the bps sum to 10000)"
      )
    ),
    initialBuy: Options.text("initial-buy").pipe(
      Options.withDefault("0"),
      Options.withDescription("amount to buy at launch: lamports, or SOL with its unit (0.5SOL); default 0")
    ),
    tipWallet: optionalText("tip-wallet", "tip recipient (with --tip)"),
    tip: optionalText("tip", "tip amount: lamports, or SOL with its unit (with --tip-wallet)"),
    partner: optionalText("partner", "partner wallet (with --partner-config)"),
    partnerConfig: optionalText("partner-config", "the partner's config PDA (with --partner)"),
    configType: Options.choice(
      "config-type",
      Object.keys(FeeShare.configTypes) as ReadonlyArray<keyof typeof FeeShare.configTypes>
    ).pipe(
      Options.optional,
      Options.withDescription(
        "the config's terms: one of the seven config types of FeeShare.configTypes (default: default, 2 % fees)"
      )
    ),
    website: optionalText("website", "website URL"),
    telegram: optionalText("telegram", "telegram URL"),
    social: optionalText("social", "social profile URL"),
    recordDir: optionalText(
      "record-dir",
      "where the launch's resume record is kept (default: launches/ in the config directory)"
    ),
    bundleRelay: optionalText(
      "bundle-relay",
      "URL of the bundle relay for configs above 7 claimers (default: the sandbox's, {root_url}/sandbox/bundles)"
    ),
    dryRun: Options.boolean("dry-run").pipe(
      Options.withDescription(
        "check, resolve the handles, upload the token info and verify the config; sign and send nothing"
      )
    )
  },
  (args) => handle(groups.launch, (h) => h.token(args))
).pipe(Command.withDescription(about("Launch a token from nothing: image, split, config, launch", {
  details: "Checks every input, resolves the handles (showing who gets what), uploads the token info (the service " +
    "makes the mint), makes a lookup table above 7 claimers, creates the config (bundles, then transactions; " +
    "--keypair is its deployer) and sends the launch transaction, verified before it is signed. On a terminal the " +
    "progress is a live table; on a pipe, one line per event. A rerun with the same inputs resumes: the token info, " +
    "table and config already made are reused (the record in --record-dir).",
  examples: [
    "feeshare --keypair wallet.json launch token --image logo.png --name Coin --symbol COIN " +
    "--share social:alice:3000 --share WALLET:7000 --initial-buy 0.1SOL"
  ]
})))

const launch = Command.make("launch").pipe(
  Command.withDescription(about("Launch tokens: from nothing, or the launch transaction alone", {
    examples: [
      "feeshare --keypair wallet.json launch token --image logo.png --name Coin --symbol COIN --share WALLET:10000"
    ]
  })),
  Command.withSubcommands([launchToken, launchTransaction])
)

const swapOptions = {
  input: Options.text("in").pipe(Options.withDescription("input mint")),
  output: Options.text("out").pipe(Options.withDescription("output mint")),
  amount: Options.text("amount").pipe(Options.withDescription("amount in the input token's smallest unit")),
  slippageBps: Options.integer("slippage-bps").pipe(
    Options.optional,
    Options.withDescription("manual slippage in basis points (default: automatic)")
  )
}

const quote = Command.make("quote", swapOptions, (args) => handle(groups.trade, (h) => h.quote(args))).pipe(
  Command.withDescription(
    about("Quote a swap", { examples: ["feeshare trade quote --in MINT_A --out MINT_B --amount 1000000"] })
  )
)

const swap = Command.make("swap", { ...swapOptions, dryRun }, (args) => handle(groups.trade, (h) => h.swap(args)))
  .pipe(Command.withDescription(about("Quote, then build, verify, sign with --keypair and send a swap", {
    examples: ["feeshare --keypair wallet.json trade swap --in MINT_A --out MINT_B --amount 1000000"]
  })))

const trade = Command.make("trade").pipe(
  Command.withDescription(
    about("Quotes and swaps", { examples: ["feeshare trade quote --in MINT_A --out MINT_B --amount 1000000"] })
  ),
  Command.withSubcommands([quote, swap])
)

const lifetimeFees = Command.make(
  "lifetime-fees",
  { mint },
  (args) => handle(groups.analytics, (h) => h.lifetimeFees(args))
)
  .pipe(
    Command.withDescription(
      about("Lifetime fees of a token", { examples: ["feeshare analytics lifetime-fees --mint MINT"] })
    )
  )

const claimStats = Command.make(
  "claim-stats",
  { mint },
  (args) => handle(groups.analytics, (h) => h.claimStats(args))
)
  .pipe(Command.withDescription(about("What every fee claimer of a token has claimed", {
    examples: ["feeshare analytics claim-stats --mint MINT"]
  })))

const analytics = Command.make("analytics").pipe(
  Command.withDescription(about("Launch analytics: lifetime fees, claim statistics", {
    examples: ["feeshare analytics lifetime-fees --mint MINT"]
  })),
  Command.withSubcommands([lifetimeFees, claimStats])
)

const pools = Command.make(
  "pools",
  { onlyMigrated: Options.boolean("only-migrated").pipe(Options.withDescription("only pools migrated to DAMM v2")) },
  (args) => handle(groups.analytics, (h) => h.pools(args))
).pipe(
  Command.withDescription(
    about("Pools with their DBC and DAMM v2 keys", { examples: ["feeshare pools --only-migrated"] })
  )
)

const indexStatus = Command.make(
  "index-status",
  { addresses: Args.text({ name: "address" }).pipe(Args.atLeast(1), Args.withDescription("EVM token addresses")) },
  (args) => handle(groups.evm, (h) => h.indexStatus(args))
).pipe(Command.withDescription(about("Whether EVM tokens are index tokens (1 to 100 addresses)", {
  examples: ["feeshare evm index-status 0xTOKEN_A 0xTOKEN_B"]
})))

const evmPositions = Command.make(
  "positions",
  { owner: Options.text("owner").pipe(Options.withDescription("EVM owner address (any casing)")) },
  (args) => handle(groups.evm, (h) => h.positions(args))
).pipe(Command.withDescription(about("Claimable EVM fee positions of an owner", {
  examples: ["feeshare evm positions --owner 0xOWNER"]
})))

const creationFee = Command.make("creation-fee", {}, () => handle(groups.evm, (h) => h.creationFee())).pipe(
  Command.withDescription(
    about("Current token creation fee on the EVM chain", { examples: ["feeshare evm creation-fee"] })
  )
)

const evm = Command.make("evm").pipe(
  Command.withDescription(about("EVM-chain reads: index tokens, positions, creation fee", {
    examples: ["feeshare evm creation-fee"]
  })),
  Command.withSubcommands([indexStatus, evmPositions, creationFee])
)

// ---------------------------------------------------------------------------
// keeper
// ---------------------------------------------------------------------------

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
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription("verify every plan and report; sign and send nothing")
  ),
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
  Options.withDescription(
    "run as one runner of a cluster whose storage and journal are in this PostgreSQL (env FEESHARE_KEEPER_POSTGRES_URL)"
  )
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
const loadKeeper = Effect.promise(groups.keeper)
const keeper = Command.make("keeper").pipe(
  Command.withDescription(about("Claim fees for many wallets, unattended and exactly once", {
    details: "Survives crashes; a cluster shares the wallets between runners (docs/keeper.md).",
    examples: ["feeshare keeper once --config keeper.yaml"]
  })),
  Command.withSubcommands([
    Command.make(
      "run",
      keeperClusterOptions,
      (args) => Effect.flatMap(loadKeeper, (k) => k.run(args)).pipe(Effect.provide(environment))
    ).pipe(
      Command.withDescription(about("Claim in passes forever (`intervalSeconds` apart); logs on stderr", {
        details: "With --postgres-url: one runner of a cluster.",
        examples: ["feeshare keeper run --config keeper.yaml --metrics-file metrics.prom"]
      }))
    ),
    Command.make("once", keeperRunOptions, (args) => handle(groups.keeper, (k) => k.once(args))).pipe(
      Command.withDescription(about("One pass: settle the journal, claim what passes the policy, report", {
        details: "Positions, vault sweeps, the deployer claim; --json: one report (docs/keeper.md).",
        examples: ["feeshare keeper once --config keeper.yaml --dry-run"]
      }))
    ),
    Command.make("status", {
      config: keeperConfig.pipe(Options.optional),
      database: keeperDatabase,
      postgresUrl: keeperPostgresUrl
    }, (args) => handle(groups.keeper, (k) => k.status(args))).pipe(
      Command.withDescription(about("Per wallet: last run, claimed totals, pending plans, failures", {
        details: "Totals per kind: positions, vaults, deployer. On a cluster, its runners too.",
        examples: ["feeshare keeper status --config keeper.yaml"]
      }))
    )
  ])
)

// ---------------------------------------------------------------------------
// mcp
// ---------------------------------------------------------------------------

const loadMcp = Effect.promise(groups.mcp)
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
  (args) => Effect.flatMap(loadMcp, (m) => m.run(args)).pipe(Effect.provide(environment))
).pipe(Command.withDescription(about("Serve the toolkit to an AI agent over MCP (stdio, or --http)", {
  details: "Every read as a tool; writes prepared, verified and executed once under the policy the human sets " +
    "(docs/mcp.md).",
  examples: ["feeshare --keypair wallet.json mcp --policy policy.json"]
})))

// ---------------------------------------------------------------------------
// local
// ---------------------------------------------------------------------------

/**
 * `feeshare sandbox`: named here for help and completions only; the bin hands its flags to the
 * sandbox's own parser (`Flags` of @feeshare/sandbox) before @effect/cli sees them, and
 * `feeshare sandbox --help` lists them.
 */
const sandbox = Command.make(
  "sandbox",
  {},
  () => Effect.dieMessage("feeshare sandbox is dispatched by the bin before @effect/cli parses it")
).pipe(Command.withDescription(about("Serve the whole API locally, over an in-process Solana ledger", {
  details: `Listens on port ${Defaults.sandboxPort} by default (where feeshare looks); prints the URLs, a demo API ` +
    "key and a demo wallet with claimable fees. `feeshare sandbox --help` lists its flags.",
  examples: ["feeshare sandbox --slot-millis 100"]
})))

const demo = Command.make("demo", {}, () =>
  Effect.gen(function*() {
    const { json } = yield* Environment
    const Demo = yield* Effect.promise(groups.demo)
    yield* Demo.run({ json })
  }).pipe(Effect.provide(environment))).pipe(Command.withDescription(about("A guided tour on an embedded sandbox", {
    details:
      "Login, a token launched from nothing (the project's image, a 3-way split with a social handle), trades, " +
      "positions, a claim plan with setup, analytics.",
    examples: ["feeshare demo"]
  })))

/** The commands in help order, by section (the top-level help prints one heading per section). */
export const sections = {
  "Accounts and fees": [auth, limits, claims, feeShare, partner, keeper, mcp],
  "Tokens and trading": [launch, trade, analytics, pools, evm],
  "Local": [sandbox, demo]
} as const

/** Every subcommand of `feeshare`, in help order. */
export const subcommands = [
  ...sections["Accounts and fees"],
  ...sections["Tokens and trading"],
  ...sections["Local"]
] as const
