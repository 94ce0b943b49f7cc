/**
 * The Effect client of the service: every operation of the domain's `HttpApi`, executed over
 * any `HttpClient` (`FetchHttpClient` in browsers and edge runtimes, `NodeHttpClient` in
 * Node), with typed failures, rate limits, retries, timeouts and one span per call.
 *
 * The client writes no path or field of its own: it reads method, path, query schema, body
 * schema and success schema from each endpoint of `Api.Api`.
 *
 * @since 0.1.0
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { type AgentAuth, Api, FeeShareError, type RateLimit } from "@feeshare/domain"
import type { Brand } from "effect"
import { Config, Context, Duration, Effect, Layer, Option, Redacted, SubscriptionRef } from "effect"
import type { ConfigError } from "effect/ConfigError"
import type * as Scope from "effect/Scope"
import * as AgentLogin from "./AgentLogin.js"
import * as BudgetAccount from "./internal/budgetAccount.js"
import * as Executor from "./internal/executor.js"
import * as Operations from "./internal/operations.js"
import type * as Settings from "./internal/settings.js"
import * as Validate from "./internal/validate.js"
import * as Watchdog from "./internal/watchdog.js"
import * as RateBudget from "./RateBudget.js"
import * as RetryPolicy from "./RetryPolicy.js"

type Groups = typeof Api.Api extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never

type EndpointsOf<G extends string> = HttpApiGroup.HttpApiGroup.EndpointsWithName<Groups, G>

type Argument<A> = {} extends A ? [input?: A] : [input: A]

/** A multipart payload without the brand `HttpApiSchema.Multipart` puts on its type: callers pass plain values. */
type Unbranded<A> = A extends Brand.Brand<HttpApiSchema.MultipartTypeId> ? Omit<A, Brand.BrandTypeId> : A

/**
 * The arguments of an operation: its query, or its body, or nothing.
 *
 * @since 0.1.0
 * @category models
 */
export type Input<E extends HttpApiEndpoint.HttpApiEndpoint.Any> =
  [HttpApiEndpoint.HttpApiEndpoint.UrlParams<E>] extends [never] ?
    [HttpApiEndpoint.HttpApiEndpoint.Payload<E>] extends [never] ? []
    : Argument<Unbranded<HttpApiEndpoint.HttpApiEndpoint.Payload<E>>>
    : Argument<HttpApiEndpoint.HttpApiEndpoint.UrlParams<E>>

/**
 * One operation: validated input in, decoded payload out, the domain's failures as errors.
 *
 * @since 0.1.0
 * @category models
 */
export type Method<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = (
  ...input: Input<E>
) => Effect.Effect<HttpApiEndpoint.HttpApiEndpoint.Success<E>, FeeShareError.FeeShareError>

/**
 * The operations of one group of `Api.Api`, named after its endpoints.
 *
 * @since 0.1.0
 * @category models
 */
export type GroupClient<G extends string> = {
  readonly [E in EndpointsOf<G> as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: Method<E>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class FeeShareClient extends Context.Tag("@feeshare/client/FeeShareClient")<
  FeeShareClient,
  FeeShareClient.Service
>() {}

/**
 * @since 0.1.0
 */
export declare namespace FeeShareClient {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Claim plans, claimable positions, partner/deployer vaults. */
    readonly claims: GroupClient<"claims">
    /** Fee-share configuration updates, partner claims, the admin list. */
    readonly feeShare: GroupClient<"feeShare">
    /**
     * Launch transactions, token info (multipart: the image as bytes, its type read from
     * them), and launch wallets by social handle (single and bulk).
     */
    readonly launch: GroupClient<"launch">
    /** Quotes and swaps. */
    readonly trade: GroupClient<"trade">
    /** Lifetime fees, claim statistics, pools. */
    readonly analytics: GroupClient<"analytics">
    /** EVM-chain reads. */
    readonly evm: GroupClient<"evm">
    /** The user that owns the API key. */
    readonly identity: GroupClient<"identity">
    /** Wallet signature for an API key: `init`, `callback`, and `login` doing both. */
    readonly agentAuth: GroupClient<"agentAuth"> & {
      readonly login: <E = never, R = never>(
        options: AgentLogin.LoginOptions<E, R>
      ) => Effect.Effect<AgentAuth.Credential, AgentLogin.LoginError | E, R>
    }
    /** `{root_url}/ping`: refreshes `rateLimit`. */
    readonly ping: GroupClient<"system">["ping"]
    /**
     * The rate-limit headers of the latest response (errors included; a 429 body without
     * headers counts too), `None` before any. `changes` emits only when the values change.
     * When `remaining` is 0 and the reset is ahead, the next call waits for the reset.
     */
    readonly rateLimit: SubscriptionRef.SubscriptionRef<Option.Option<RateLimit.RateLimitInfo>>
  }

  /**
   * @since 0.1.0
   * @category models
   */
  export interface Options {
    /** `{base_url}`, e.g. `http://127.0.0.1:4000/api/v1`; `{root_url}` drops its `/api/v1`. */
    readonly baseUrl: string
    /** Sent as `x-api-key` to every operation except agent auth; absent: no key is sent. */
    readonly apiKey?: Redacted.Redacted<string> | undefined
    /**
     * Per-request time limit (default 30 s), response body included; exceeding it cancels
     * the request through its abort signal (which every `HttpClient.make` transport, fetch,
     * undici and `node:http` included, honours) and fails the attempt with `Timeout`.
     */
    readonly timeout?: Duration.DurationInput | undefined
    /**
     * Retries of 408/500/502/503/504, transport failures and timeouts (default: 5 attempts,
     * jittered backoff from 200 ms doubling up to 10 s). The agent-auth callback is never
     * retried.
     */
    readonly retry?: RetryPolicy.Options | undefined
    /**
     * The most a call waits in total for rate limits (a 429's reset, a spent window, the
     * budget) before failing with `RateLimited` (default 60 s).
     */
    readonly maxRateLimitWait?: Duration.DurationInput | undefined
    /** A client-side sliding-window budget shared by every operation (default: none). */
    readonly budget?: RateBudget.Options | undefined
    /**
     * The largest response body read, in bytes, counted after decompression (default 16 MiB;
     * 10,000 claimable positions take about 10 MB). A larger answer fails with
     * `UnexpectedResponse` and nothing more of it is read.
     */
    readonly maxResponseBytes?: number | undefined
    /**
     * Redirects followed per request (default 5), and only to the origin of `baseUrl`: a
     * redirect elsewhere fails with `UnexpectedResponse` naming the Location, so the API key
     * never leaves its origin. Over fetch, redirects are read manually where the platform
     * shows their Location (Node, Deno, Bun); in browsers and edge runtimes, which hide it,
     * every redirect fails (`redirect: "error"`).
     */
    readonly maxRedirects?: number | undefined
    /**
     * Called before every rate-limit wait (a spent window, the budget, a 429's reset, a
     * `Retry-After`), e.g. to tell a person why nothing happens for a while.
     */
    readonly onRateLimitWait?: ((wait: Settings.RateLimitWait) => Effect.Effect<void>) | undefined
  }
}

/**
 * A wait the client is about to make before sending again (see `onRateLimitWait`).
 *
 * @since 0.1.0
 * @category models
 */
export type RateLimitWait = Settings.RateLimitWait

/**
 * The documented defaults.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  timeout: Duration.seconds(30),
  retry: RetryPolicy.defaults,
  maxRateLimitWait: Duration.seconds(60),
  maxResponseBytes: 16 * 1024 * 1024,
  maxRedirects: 5
} as const

/** Where a manual redirect's Location is readable: server runtimes. */
const redirectMode = (): globalThis.RequestRedirect =>
  typeof globalThis.process === "object" && typeof globalThis.process.versions?.node === "string" ? "manual" : "error"

const operation = "FeeShareClient.make"

const invalid = (field: string, rule: string) => Validate.invalid(operation, field, rule)

const positiveMillis = (field: string, input: Duration.DurationInput | undefined, fallback: Duration.Duration) =>
  Validate.positiveMillis(operation, field, input, fallback)

const isPositiveInt = Validate.isPositiveInt

const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

type Built = Readonly<Record<string, Readonly<Record<string, (input?: unknown) => unknown>>>>

/** `true` when `group` holds a method for every endpoint of the `Api.Api` group `name`. */
const isGroupClient = <G extends string>(group: object, name: G): group is GroupClient<G> => {
  const endpoints = Object.values(Api.Api.groups).find((candidate) => candidate.identifier === name)?.endpoints
  return endpoints !== undefined &&
    Object.values(endpoints).every((endpoint) => typeof Reflect.get(group, endpoint.name) === "function")
}

const bind = <G extends string>(groups: Built, name: G): GroupClient<G> => {
  const group = groups[name] ?? {}
  if (!isGroupClient(group, name)) throw new Error(`FeeShareClient: Api.Api group ${name} was not built`)
  return group
}

/**
 * Builds the client. Its scope bounds one background fiber (the deadline watchdog of the
 * per-request time limit). Fails with `InvalidRequest` (field and rule) on bad options.
 * The `HttpClient` must outlive the client: provide a scoped transport such as
 * `NodeHttpClient.layerUndici` around everything that uses the client (or use `layer`), not
 * to `make` alone, which would release its connection pool as soon as `make` returns.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: FeeShareClient.Options
): Effect.Effect<FeeShareClient.Service, FeeShareError.InvalidRequest, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    if (!isHttpUrl(options.baseUrl)) return yield* invalid("baseUrl", "must be an absolute http(s) URL")
    const timeoutMillis = yield* positiveMillis("timeout", options.timeout, defaults.timeout)
    const maxRateLimitWaitMillis = yield* Validate.nonNegativeMillis(
      operation,
      "maxRateLimitWait",
      options.maxRateLimitWait,
      defaults.maxRateLimitWait
    )
    const retry = RetryPolicy.make(options.retry)
    if (!isPositiveInt(retry.maxAttempts)) return yield* invalid("retry.maxAttempts", Validate.maxAttemptsRule)
    if (!Number.isFinite(retry.baseDelayMillis) || !Number.isFinite(retry.maxDelayMillis)) {
      return yield* invalid("retry", "delays must be finite durations")
    }
    const maxResponseBytes = options.maxResponseBytes ?? defaults.maxResponseBytes
    if (!isPositiveInt(maxResponseBytes)) return yield* invalid("maxResponseBytes", "must be a positive integer")
    const maxRedirects = options.maxRedirects ?? defaults.maxRedirects
    if (!(Number.isSafeInteger(maxRedirects) && maxRedirects >= 0 && maxRedirects <= 20)) {
      return yield* invalid("maxRedirects", "must be an integer from 0 to 20")
    }
    const callerInit = yield* Effect.serviceOption(FetchHttpClient.RequestInit)
    let budgetOptions: Option.Option<BudgetAccount.BudgetOptions> = Option.none()
    if (options.budget !== undefined) {
      const { address, key, limit } = options.budget
      if (!isPositiveInt(limit)) return yield* invalid("budget.limit", "must be a positive integer")
      const windowMillis = yield* positiveMillis("budget.window", options.budget.window, Duration.zero)
      const marginMillis = options.budget.margin === undefined
        ? Duration.toMillis(RateBudget.defaults.margin)
        : Option.match(Duration.decodeUnknown(options.budget.margin), { onNone: () => -1, onSome: Duration.toMillis })
      if (!(marginMillis >= 0 && Number.isFinite(marginMillis))) {
        return yield* invalid("budget.margin", "must be a non-negative, finite duration")
      }
      if (key !== undefined && !BudgetAccount.isBudgetName(key)) {
        return yield* invalid("budget.key", BudgetAccount.budgetNameRule)
      }
      if (address !== undefined && !BudgetAccount.isBudgetName(address)) {
        return yield* invalid("budget.address", BudgetAccount.budgetNameRule)
      }
      const store = options.budget.store
      budgetOptions = Option.some({
        store: store === undefined ? RateBudget.memoryStore() : Effect.isEffect(store) ? yield* store : store,
        key,
        address,
        limit,
        windowMillis: windowMillis + marginMillis
      })
    }
    const budget: Settings.Budget | undefined = Option.isSome(budgetOptions)
      ? {
        store: budgetOptions.value.store,
        limit: budgetOptions.value.limit,
        buckets: Effect.never,
        pending: undefined
      }
      : undefined
    const settings: Settings.Settings = {
      // one span per call is ours (named after the operation); the transport adds none. Each
      // request can be cancelled through its scope, which is how the time limit is enforced.
      http: HttpClient.withScope(HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)),
      ...Operations.urls(options.baseUrl),
      apiKey: Option.fromNullable(options.apiKey),
      timeoutMillis,
      watchdog: yield* Watchdog.make(timeoutMillis),
      retry,
      maxRateLimitWaitMillis,
      budget: Option.fromNullable(budget),
      rateLimit: yield* SubscriptionRef.make(Option.none<RateLimit.RateLimitInfo>()),
      limits: { maxRedirects, maxResponseBytes, origin: new URL(options.baseUrl).origin },
      requestInit: { ...Option.getOrUndefined(callerInit), redirect: redirectMode() },
      onWait: options.onRateLimitWait ?? (() => Effect.void)
    }
    const run = Executor.make(settings)
    const operations = Operations.operations(settings)
    if (budget !== undefined && Option.isSome(budgetOptions)) {
      // auth/me, to name the account, is sent outside the budget; its answer's count corrects it
      const identify = Executor.make({ ...settings, budget: Option.none() })
      const me = operations.find((op) => op.operation === Api.operationName("identity", "me"))
      const account = BudgetAccount.accountOf(
        budgetOptions.value,
        Option.isSome(settings.apiKey),
        (input) =>
          me === undefined ? Effect.dieMessage("FeeShareClient: Api.Api has no identity.me") : identify(me)(input)
      )
      budget.buckets = yield* BudgetAccount.bucketsOf(budgetOptions.value, account, budget, settings)
    }
    const groups: Record<string, Record<string, (input?: unknown) => unknown>> = {}
    for (const op of operations) {
      const group = groups[op.group] ?? (groups[op.group] = {})
      group[op.endpoint] = run(op)
    }
    const agentAuth = bind(groups, "agentAuth")
    return FeeShareClient.of({
      claims: bind(groups, "claims"),
      feeShare: bind(groups, "feeShare"),
      launch: bind(groups, "launch"),
      trade: bind(groups, "trade"),
      analytics: bind(groups, "analytics"),
      evm: bind(groups, "evm"),
      identity: bind(groups, "identity"),
      agentAuth: { ...agentAuth, login: AgentLogin.login(agentAuth) },
      ping: bind(groups, "system").ping,
      rateLimit: settings.rateLimit
    })
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: FeeShareClient.Options
): Layer.Layer<FeeShareClient, FeeShareError.InvalidRequest, HttpClient.HttpClient> =>
  Layer.scoped(FeeShareClient, make(options))

/**
 * The client configured from the environment (any `ConfigProvider`):
 * - `FEESHARE_BASE_URL` (required): `{base_url}`, e.g. `http://127.0.0.1:4000/api/v1`;
 * - `FEESHARE_API_KEY` (optional, read as `Redacted`; empty counts as absent).
 *
 * Every other option keeps its default unless given here: timeout 30 s, 5 attempts with
 * jittered backoff from 200 ms (capped at 10 s), at most 60 s of rate-limit waiting per
 * call, no client-side budget. A fleet's shared budget, from `FEESHARE_REDIS_URL` (read as
 * `Redacted`; unset: each process counts alone):
 *
 * ```ts
 * import * as RedisBudget from "@feeshare/client/RedisBudget"
 *
 * FeeShareClient.layerConfig({ budget: { limit: 4500, window: "1 hour", store: RedisBudget.makeConfig() } })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: Omit<FeeShareClient.Options, "baseUrl" | "apiKey" | "budget"> & {
    readonly baseUrl?: Config.Config<string> | undefined
    readonly apiKey?: Config.Config<Option.Option<Redacted.Redacted<string>>> | undefined
    /** As in `layer`; the store may also be read from the environment (`RedisBudget.makeConfig()`). */
    readonly budget?:
      | Omit<RateBudget.Options, "store"> & {
        readonly store?: RateBudget.Store | Effect.Effect<RateBudget.Store, ConfigError, Scope.Scope> | undefined
      }
      | undefined
  } = {}
): Layer.Layer<FeeShareClient, ConfigError | FeeShareError.InvalidRequest, HttpClient.HttpClient> =>
  Layer.scoped(
    FeeShareClient,
    Effect.gen(function*() {
      const baseUrl = yield* (options.baseUrl ?? Config.string("FEESHARE_BASE_URL"))
      const apiKey = yield* (options.apiKey ?? Config.option(Config.redacted("FEESHARE_API_KEY")))
      const key = Option.filter(apiKey, (value) => Redacted.value(value).length > 0)
      const { budget, ...rest } = options
      const store = budget?.store
      return yield* make({
        ...rest,
        baseUrl,
        apiKey: Option.getOrUndefined(key),
        budget: budget === undefined
          ? undefined
          : { ...budget, store: store === undefined || !Effect.isEffect(store) ? store : yield* store }
      })
    })
  )
