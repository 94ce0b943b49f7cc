/**
 * The sandbox explorer: a web page at the sandbox's root (`/`, same port as the API) showing
 * what the ledger and the service hold (overview, tokens, wallets, transactions, plans,
 * requests), live over server-sent events. Its routes are `GET`s that change nothing; the page
 * offers one of the sandbox's own set-up actions (advance the block clock by a blockhash's
 * life, through `/sandbox/slots/advance`). API keys appear by id and name only, never the key.
 *
 * Off loopback (when the sandbox has an admin token), the state and the events need that token
 * too: `Authorization: Bearer TOKEN`, or `?token=TOKEN` (the page passes on its own `?token=`).
 *
 * @since 0.1.0
 */
import { HttpApi, HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Deferred, Effect, Option, Redacted, Schedule, Schema, Stream } from "effect"
import { Accounts, type KeyInfo } from "./Accounts.js"
import { AdminToken, authorizes } from "./AdminToken.js"
import * as ExplorerAssets from "./ExplorerAssets.js"
import * as Format from "./ExplorerFormat.js"
import { History, type Snapshot } from "./History.js"
import { initialStateId, type Page, pages, paths } from "./internal/http/explorerPaths.js"
import { Ledger } from "./Ledger.js"
import { LedgerState, Market } from "./Market.js"
import { economics } from "./MarketLive.js"
import type * as Options from "./Options.js"
import { type BucketState, RateLimiter } from "./RateLimiter.js"
import { SandboxApi } from "./SandboxApi.js"
import type { Mount } from "./Server.js"

/**
 * The explorer's routes.
 *
 * @since 0.1.0
 * @category constants
 */
export { paths }

/**
 * The explorer's pages, in menu order (`#tokens`, ...), and their type.
 *
 * @since 0.1.0
 * @category constants
 */
export { type Page, pages }

/**
 * Bounds of what the explorer reads and serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = {
  /** Event streams open at once; past it `/explorer/events` answers 503. */
  streams: 16,
  /**
   * Event streams one client address may hold at once (under `streams`, so one local process
   * cannot take them all); past it `/explorer/events` answers 429.
   */
  streamsPerClient: 4,
  /** Rate-limit buckets, API keys and wallets listed. */
  buckets: 200,
  keys: 200,
  wallets: 200,
  /** How often an event stream looks for a change. */
  pollMillis: 250
} as const

const Amount = Schema.String

/**
 * The market as the explorer reads it (the fields of `Market.state` it shows; raw amounts as
 * decimal strings).
 *
 * @since 0.1.0
 * @category schemas
 */
export const MarketView = Schema.Struct({
  tokens: Schema.Array(Schema.Struct({
    mint: Schema.String,
    symbol: Schema.String,
    name: Schema.optionalWith(Schema.String, { default: () => "" }),
    // null for a token made by token info until its launch lands
    creator: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    // whether the token has an image the sandbox serves (uploaded with token info)
    imageUploaded: Schema.optional(Schema.Boolean),
    // the path of that image on the sandbox (set by the explorer, not read from the state)
    imagePath: Schema.optional(Schema.NullOr(Schema.String)),
    decimals: Schema.optionalWith(Schema.Number, { default: () => 0 }),
    flow: Schema.optionalWith(Schema.String, { default: () => "" }),
    launched: Schema.Boolean,
    migrated: Schema.Boolean,
    quoteMint: Schema.String,
    lifetimeFees: Amount,
    solReserve: Schema.optionalWith(Amount, { default: () => "0" }),
    tokenReserve: Schema.optionalWith(Amount, { default: () => "0" }),
    unpaidFees: Schema.optionalWith(Amount, { default: () => "0" }),
    feeShare: Schema.optionalWith(
      Schema.Struct({
        admin: Schema.String,
        partner: Schema.NullOr(Schema.String),
        claimers: Schema.Array(Schema.Struct({ wallet: Schema.String, bps: Schema.Number })),
        // the config type of a config made by config creation (`POST /fee-share/config`), else null
        configType: Schema.NullOr(Schema.String),
        // the deployer of such a config (its payer), earning 2 500 bps of the claimers pool
        deployer: Schema.NullOr(Schema.String)
      }),
      { default: () => ({ admin: "", partner: null, claimers: [], configType: null, deployer: null }) }
    ),
    shares: Schema.optionalWith(
      Schema.Array(Schema.Struct({ wallet: Schema.String, unclaimed: Amount, claimed: Amount })),
      { default: () => [] }
    ),
    // the latest landed claims, newest first (block time in unix seconds); absent in older states
    claimEvents: Schema.optional(
      Schema.Array(Schema.Struct({
        wallet: Schema.String,
        isCreator: Schema.Boolean,
        amount: Amount,
        signature: Schema.String,
        blockTime: Schema.Number
      }))
    )
  })),
  partnerVaults: Schema.optionalWith(
    Schema.Array(Schema.Struct({ partner: Schema.String, vault: Schema.String, balance: Amount, claimed: Amount })),
    { default: () => [] }
  ),
  deployerVaults: Schema.optionalWith(
    Schema.Array(Schema.Struct({ deployer: Schema.String, vault: Schema.String, balance: Amount, claimed: Amount })),
    { default: () => [] }
  ),
  holdings: Schema.optionalWith(
    Schema.Array(Schema.Struct({
      mint: Schema.String,
      quoteMint: Schema.String,
      claimer: Schema.String,
      held: Amount,
      claimed: Amount
    })),
    { default: () => [] }
  )
})

/**
 * @since 0.1.0
 * @category models
 */
export type MarketView = typeof MarketView.Type

/**
 * A wallet the market knows (a creator, claimer, admin, partner or holder), with its balance.
 *
 * @since 0.1.0
 * @category models
 */
export interface WalletView {
  readonly address: string
  readonly roles: ReadonlyArray<string>
  readonly lamports: string
  /** Fee shares not claimed yet, per token (lamports). */
  readonly claimable: ReadonlyArray<{ readonly mint: string; readonly symbol: string; readonly amount: string }>
  /** Holding balances held for it (raw amounts of the quote mint). */
  readonly holdings: ReadonlyArray<{ readonly mint: string; readonly quoteMint: string; readonly held: string }>
}

/**
 * Everything the page shows, in one answer of `GET /explorer/state`.
 *
 * @since 0.1.0
 * @category models
 */
export interface State {
  readonly clock: {
    readonly slot: string
    readonly blockHeight: string
    readonly blockhash: string
    readonly lastValidBlockHeight: string
  }
  /** Blocks a blockhash stays valid. */
  readonly blockhashValidity: number
  readonly economics: {
    readonly virtualSolLamports: string
    readonly migrationLamports: string
    readonly feeBps: number
  }
  readonly knobs: Readonly<Record<string, string>>
  readonly buckets: ReadonlyArray<BucketState>
  readonly keys: ReadonlyArray<KeyInfo>
  readonly market: MarketView
  readonly wallets: ReadonlyArray<WalletView>
  readonly history: Snapshot
  /** The sandbox's own set-up actions the page offers (paths of `SandboxApi`, `POST`). */
  readonly actions: { readonly advanceSlots: string }
}

/** The path of a sandbox-only operation, from its definition. */
const setupPath = (name: string): string => {
  let path = ""
  HttpApi.reflect(SandboxApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.name === name) path = endpoint.path
    }
  })
  return path
}

/**
 * An event of `/explorer/events` (`event: tick`): the history's version (the page refetches the
 * state when it moves) and the clock.
 *
 * @since 0.1.0
 * @category models
 */
export interface Tick extends Pick<State["clock"], "slot" | "blockHeight" | "blockhash" | "lastValidBlockHeight"> {
  readonly version: number
}

/** The fault knobs as the explorer shows them (`explorerFormat`: units, separators, `none`). */
const knobsOf = (options: Options.Options): Readonly<Record<string, string>> => ({
  rateLimit: Format.rate(options.rateLimit, options.rateWindowMillis),
  agentAuthLimit: Format.rate(options.agentAuthLimit, options.agentAuthWindowMillis),
  slotMillis: Format.duration(options.slotMillis),
  latencyMillis: Format.duration(options.latencyMillis),
  errorRates: Format.errorRates(options.errorRates),
  burst429: options.burst429 === 0 ? "none" : `the first ${Format.count(options.burst429)} requests`,
  dropRate: options.dropRate === 0 ? "none" : Format.probability(options.dropRate),
  blockhashValidity: `${Format.count(options.blockhashValidity)} slots`,
  tamper: options.tamper.length === 0 ? "none" : JSON.stringify(options.tamper),
  maxBodyBytes: `${Format.count(options.maxBodyBytes)} bytes`
})

/** The wallets the market names, with their roles, claimable shares and holdings. */
const walletsOf = (market: MarketView) => {
  const wallets = new Map<string, {
    roles: Set<string>
    claimable: Array<WalletView["claimable"][number]>
    holdings: Array<WalletView["holdings"][number]>
  }>()
  const entry = (address: string) => {
    let found = wallets.get(address)
    if (found === undefined) {
      found = { roles: new Set(), claimable: [], holdings: [] }
      wallets.set(address, found)
    }
    return found
  }
  for (const token of market.tokens) {
    if (token.creator !== null && token.creator !== "") entry(token.creator).roles.add(`creator of ${token.symbol}`)
    if (token.feeShare.admin !== "") entry(token.feeShare.admin).roles.add(`admin of ${token.symbol}`)
    if (token.feeShare.partner !== null) entry(token.feeShare.partner).roles.add(`partner of ${token.symbol}`)
    for (const claimer of token.feeShare.claimers) entry(claimer.wallet).roles.add(`claimer of ${token.symbol}`)
    for (const share of token.shares) {
      if (share.unclaimed !== "0") {
        entry(share.wallet).claimable.push({ mint: token.mint, symbol: token.symbol, amount: share.unclaimed })
      }
    }
  }
  for (const holding of market.holdings) {
    entry(holding.claimer).holdings.push({ mint: holding.mint, quoteMint: holding.quoteMint, held: holding.held })
  }
  return [...wallets].slice(0, limits.wallets)
}

/** Where `index.html` takes the state it arrives with. */
const stateMarker = "<!--explorer-state-->"

/**
 * The page as served: `state` in its `<script type="application/json">` element (`<` escaped,
 * so that no text of the state can end the element), and the script inline (one request
 * instead of two before the load event) unless its text could end or confuse the element.
 */
const pageWith = (assets: ExplorerAssets.Assets, state: State): string => {
  const external = `<script type="module" src="${paths.script}"></script>`
  const inline = !assets.script.includes("</script") && !assets.script.includes("<!--")
  return assets.html
    .replace(
      stateMarker,
      () =>
        `<script id="${initialStateId}" type="application/json">${
          JSON.stringify(state).replaceAll("<", "\\u003c")
        }</script>`
    )
    .replace(external, () => inline ? `<script type="module">${assets.script}</script>` : external)
}

const unauthorized = HttpServerResponse.unsafeJson(
  {
    success: false,
    error: "The explorer needs the sandbox admin token off loopback: ?token=TOKEN or Authorization: Bearer TOKEN"
  },
  { status: 401 }
)

/**
 * The explorer's routes on the sandbox's router: the page, its script, the state and the event
 * stream. Needs the ledger, the market, the history, the rate limiter, the accounts and the
 * admin token.
 *
 * @since 0.1.0
 * @category layers
 */
export const mount = (
  options: Options.Options
): Mount<Ledger | Market | History | RateLimiter | Accounts | AdminToken> => ({
  paths: [paths.page, paths.script, paths.state, paths.events],
  layer: HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const ledger = yield* Ledger
      const market = yield* Market
      const history = yield* History
      const limiter = yield* RateLimiter
      const accounts = yield* Accounts
      const adminToken = yield* AdminToken
      const assets = yield* Effect.cached(Effect.promise(() => ExplorerAssets.load()))
      let streams = 0
      // the event streams end when the routes go (before the server closes, which would
      // otherwise wait for them: a sandbox with an open page would never stop)
      const closing = yield* Deferred.make<void>()
      yield* Effect.addFinalizer(() => Deferred.succeed(closing, undefined))
      const actions = { advanceSlots: setupPath("advanceSlots") }

      const allowed = (request: HttpServerRequest.HttpServerRequest): boolean =>
        Option.match(adminToken, {
          onNone: () => true,
          onSome: (token) => {
            const query = new URLSearchParams(request.url.split("?")[1] ?? "").get("token")
            return authorizes(token, request.headers.authorization) ||
              (query !== null && authorizes(token, `Bearer ${query}`))
          }
        })
      const guarded = <E, R>(
        answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
      ) =>
        Effect.flatMap(
          HttpServerRequest.HttpServerRequest,
          (request) => allowed(request) ? answer : Effect.succeed(unauthorized)
        )

      const stateNow = Effect.gen(function*() {
        const clock = yield* ledger.clock
        const encoded = yield* Schema.encode(LedgerState)(yield* market.state).pipe(Effect.orDie)
        const decoded = yield* Schema.decodeUnknown(MarketView)(encoded).pipe(Effect.orDie)
        // a token's uploaded image, at the media route (public, same origin: the page shows it)
        const view: MarketView = {
          ...decoded,
          tokens: decoded.tokens.map((t) => ({
            ...t,
            imagePath: t.imageUploaded === true
              ? `${SandboxApi.groups.media.endpoints.tokenImage.path}?${
                new URLSearchParams({ mint: t.mint }).toString()
              }`
              : null
          }))
        }
        const wallets = yield* Effect.forEach(walletsOf(view), ([address, wallet]) =>
          Effect.map(ledger.balance(address), (lamports): WalletView => ({
            address,
            roles: [...wallet.roles],
            lamports: lamports.toString(),
            claimable: wallet.claimable,
            holdings: wallet.holdings
          })))
        const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const result: State = {
          clock: {
            slot: clock.slot.toString(),
            blockHeight: clock.blockHeight.toString(),
            blockhash: clock.blockhash,
            lastValidBlockHeight: clock.lastValidBlockHeight.toString()
          },
          blockhashValidity: options.blockhashValidity,
          economics: {
            virtualSolLamports: economics.virtualSolLamports.toString(),
            migrationLamports: economics.migrationLamports.toString(),
            feeBps: economics.feeBps
          },
          knobs: knobsOf(options),
          buckets: limiter.inspect(now, limits.buckets),
          keys: accounts.keys(limits.keys),
          market: view,
          wallets,
          history: history.snapshot(clock.blockHeight),
          actions
        }
        return result
      })
      const state = Effect.map(
        stateNow,
        (result) => HttpServerResponse.unsafeJson(result, { headers: { "cache-control": "no-store" } })
      )
      // the page arrives with its state (for whoever may read the state) and its script, so that
      // its data is on the page when it loads: before, the page loaded, then its script fetched
      // the state, and a screenshot at load showed "Loading…"
      const page = Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const files = yield* assets
        if (!allowed(request)) return HttpServerResponse.html(files.html)
        return HttpServerResponse.text(pageWith(files, yield* stateNow), {
          contentType: "text/html",
          headers: { "cache-control": "no-store" }
        })
      })

      /** One event per change of the history or the clock. */
      const events = Stream.repeatEffectWithSchedule(
        Effect.map(ledger.clock, (clock): Tick => ({
          version: history.version(),
          slot: clock.slot.toString(),
          blockHeight: clock.blockHeight.toString(),
          blockhash: clock.blockhash,
          lastValidBlockHeight: clock.lastValidBlockHeight.toString()
        })),
        Schedule.spaced(limits.pollMillis)
      ).pipe(
        Stream.changesWith((a, b) => a.version === b.version && a.slot === b.slot),
        Stream.interruptWhen(Deferred.await(closing)),
        Stream.map((tick) => `event: tick\ndata: ${JSON.stringify(tick)}\n\n`),
        Stream.encodeText
      )

      // the streams each client address holds
      const byClient = new Map<string, number>()
      const stream = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
        const client = Option.getOrElse(request.remoteAddress, () => "unknown")
        const held = byClient.get(client) ?? 0
        if (held >= limits.streamsPerClient) {
          return HttpServerResponse.unsafeJson(
            {
              success: false,
              error: `Too many explorer event streams from one client (at most ${limits.streamsPerClient})`
            },
            { status: 429 }
          )
        }
        if (streams >= limits.streams) {
          return HttpServerResponse.unsafeJson(
            { success: false, error: `Too many explorer event streams (at most ${limits.streams})` },
            { status: 503 }
          )
        }
        streams++
        byClient.set(client, held + 1)
        const release = Effect.sync(() => {
          streams--
          const left = (byClient.get(client) ?? 1) - 1
          if (left <= 0) byClient.delete(client)
          else byClient.set(client, left)
        })
        return HttpServerResponse.stream(
          Stream.concat(Stream.make(new TextEncoder().encode("retry: 2000\n\n")), events).pipe(
            Stream.ensuring(release)
          ),
          { contentType: "text/event-stream", headers: { "cache-control": "no-store", "x-accel-buffering": "no" } }
        )
      })

      // the assets are read (or, from the sources, bundled) while the sandbox starts, not when
      // the first page is asked for
      yield* Effect.forkScoped(assets)
      yield* router.get(paths.page, page)
      yield* router.get(
        paths.script,
        Effect.map(assets, (a) => HttpServerResponse.text(a.script, { contentType: "text/javascript; charset=utf-8" }))
      )
      yield* router.get(paths.state, guarded(state))
      yield* router.get(paths.events, guarded(stream))
    })
  )
})

/**
 * The explorer's address for a sandbox at `rootUrl`, with the admin token when it needs one.
 *
 * @since 0.1.0
 * @category constructors
 */
export const url = (rootUrl: string, adminToken: Option.Option<Redacted.Redacted<string>>): string =>
  Option.match(adminToken, {
    onNone: () => `${rootUrl}${paths.page}`,
    onSome: (token) => `${rootUrl}${paths.page}?token=${encodeURIComponent(Redacted.value(token))}`
  })
