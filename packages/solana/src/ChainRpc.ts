/**
 * The `Chain` port over Solana JSON-RPC (HTTP), with @solana/kit's RPC client. Uses only
 * `sendTransaction` (base64), `getSignatureStatuses`, `getBlockHeight` and
 * `getTransaction`, so it works against any node and the sandbox's `/rpc` alike. Every call
 * has a deadline; a 429/503's `Retry-After` travels with the failure; several endpoints can
 * be given (sent to all, read from the first healthy one).
 *
 * @since 0.1.0
 */
import { RateLimit, Redaction, WireTransaction as Wire } from "@feeshare/domain"
import {
  type Base64EncodedWireTransaction,
  createSolanaRpc,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR
} from "@solana/kit"
import { Config, Duration, Effect, Either, Layer, Option } from "effect"
import { Chain, ChainUnavailable, type Commitment, PreflightFailed, reportEndpointFailure } from "./Chain.js"
import * as Settings from "./internal/settings.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Time between two status polls. Default 400 ms. */
  readonly pollInterval?: Duration.DurationInput | undefined
  /**
   * The most one RPC call may take (default 10 s): past it the request is cancelled and the
   * call fails with `ChainUnavailable`, which the confirmation loop retries with backoff.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/** An error's message, without control characters or a URL's userinfo (it may come from the node). */
const messageOf = (error: unknown): string => Redaction.line(error instanceof Error ? error.message : String(error))

/** The host and port of an endpoint, as errors name it (never its path: it may hold a key). */
const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return "rpc"
  }
}

/** `Retry-After` of a 429/503 answer of Kit's HTTP transport, in milliseconds. */
const retryAfterOf = (error: unknown): number | undefined => {
  if (!isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) return undefined
  const { headers, statusCode } = error.context
  if (statusCode !== 429 && statusCode !== 503) return undefined
  const value = headers.get("retry-after") ?? undefined
  return Option.getOrUndefined(RateLimit.retryAfterMillis(value, Date.now()))
}

/** One endpoint: every method of `Chain.Service` but the poll interval. */
type Endpoint = Omit<Chain.Service, "pollInterval">

const endpoint = (url: string, timeout: Duration.Duration): Endpoint => {
  const rpc = createSolanaRpc(url)
  const host = hostOf(url)
  const unavailable = (method: string, error: unknown) => {
    const retryAfterMillis = retryAfterOf(error)
    return new ChainUnavailable({
      method,
      endpoint: host,
      message: `${method} at ${host}: ${messageOf(error)}`,
      ...(retryAfterMillis === undefined ? {} : { retryAfterMillis })
    })
  }
  /** One call within the deadline; past it the request's signal aborts it. */
  const bounded = <A, E>(method: string, effect: Effect.Effect<A, E>) =>
    Effect.timeoutFail(effect, {
      duration: timeout,
      onTimeout: () =>
        new ChainUnavailable({
          method,
          endpoint: host,
          message: `${method} at ${host}: no answer within ${Duration.format(timeout)}`
        })
    })
  const call = <A>(method: string, run: (signal: AbortSignal) => Promise<A>) =>
    bounded(method, Effect.tryPromise({ try: run, catch: (error) => unavailable(method, error) }))

  const send: Chain.Service["send"] = (wire, { commitment, skipPreflight }) =>
    bounded(
      "sendTransaction",
      Effect.tryPromise({
        try: (signal) =>
          rpc.sendTransaction(Wire.fromBytes(wire, "base64") as Base64EncodedWireTransaction, {
            encoding: "base64",
            skipPreflight,
            preflightCommitment: commitment,
            maxRetries: 0n
          }).send({ abortSignal: signal }),
        catch: (error): PreflightFailed | ChainUnavailable => {
          if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
            const cause = error.cause instanceof Error ? error.cause.message : "simulation failed"
            return new PreflightFailed({
              signature: "",
              error: cause,
              logs: error.context.logs ?? [],
              message: `preflight failed: ${cause}`
            })
          }
          return unavailable("sendTransaction", error)
        }
      })
    ).pipe(Effect.map(String))

  const signatureStatus: Chain.Service["signatureStatus"] = (signature, { searchHistory }) =>
    call(
      "getSignatureStatuses",
      (signal) =>
        rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: searchHistory }).send({
          abortSignal: signal
        })
    ).pipe(
      Effect.map(({ value }) =>
        Option.fromNullable(value[0]).pipe(
          Option.map((status) => ({
            slot: status.slot,
            confirmationStatus: status.confirmationStatus,
            err: status.err
          }))
        )
      )
    )

  const blockHeight = (commitment: Commitment) =>
    call("getBlockHeight", (signal) => rpc.getBlockHeight({ commitment }).send({ abortSignal: signal }))

  const lastValidBlockHeight = (commitment: Commitment) =>
    call("getLatestBlockhash", (signal) => rpc.getLatestBlockhash({ commitment }).send({ abortSignal: signal })).pipe(
      Effect.map(({ value }) => BigInt(value.lastValidBlockHeight))
    )

  const logsUpTo = (version: 0 | 1) => (signature: string) =>
    call("getTransaction", (signal) =>
      rpc.getTransaction(signature as Signature, {
        encoding: "json",
        commitment: "confirmed",
        maxSupportedTransactionVersion: version
      }).send({ abortSignal: signal })).pipe(
        Effect.map((transaction): ReadonlyArray<string> => transaction?.meta?.logMessages ?? [])
      )
  // nodes without v1 support reject `maxSupportedTransactionVersion: 1`
  const logs: Chain.Service["logs"] = (signature) =>
    logsUpTo(1)(signature).pipe(Effect.orElse(() => logsUpTo(0)(signature)))

  return { send, signatureStatus, blockHeight, lastValidBlockHeight, logs }
}

/**
 * Several endpoints as one: every transaction is sent to all of them (the signature is the
 * same, so it lands once, and more nodes see it), reads go to the first endpoint that
 * answers, starting from the last one that did. An endpoint that fails is logged (a
 * warning naming its host) and the next is tried.
 */
const redundant = (endpoints: ReadonlyArray<Endpoint>): Endpoint => {
  let healthy = 0
  const read = <A, E extends { readonly _tag: string }>(
    use: (endpoint: Endpoint) => Effect.Effect<A, E>
  ): Effect.Effect<A, E> => {
    const from = healthy
    const attempt = (i: number): Effect.Effect<A, E> => {
      const index = (from + i) % endpoints.length
      const current = endpoints[index]
      if (current === undefined) return Effect.dieMessage("ChainRpc: no endpoint")
      return Effect.tap(use(current), () => Effect.sync(() => (healthy = index))).pipe(
        Effect.catchIf(
          (error): error is E & ChainUnavailable => error._tag === "ChainUnavailable" && i + 1 < endpoints.length,
          (error) =>
            Effect.zipRight(
              Effect.zipRight(
                Effect.logWarning("RPC endpoint failed; trying the next").pipe(
                  Effect.annotateLogs({ endpoint: error.endpoint ?? "", method: error.method })
                ),
                reportEndpointFailure({ endpoint: error.endpoint ?? "", method: error.method, message: error.message })
              ),
              attempt(i + 1)
            )
        )
      )
    }
    return attempt(0)
  }
  const send: Chain.Service["send"] = (wire, options) =>
    Effect.forEach(endpoints, (each) => Effect.either(each.send(wire, options)), { concurrency: "unbounded" }).pipe(
      Effect.flatMap((results) => {
        const accepted = results.find(Either.isRight)
        const failures = results.filter(Either.isLeft).map((result) => result.left)
        const warn = Effect.forEach(
          failures.filter(isUnavailableError),
          (error) =>
            Effect.zipRight(
              Effect.logWarning("RPC endpoint did not take the transaction").pipe(
                Effect.annotateLogs({ endpoint: error.endpoint ?? "", message: error.message })
              ),
              reportEndpointFailure({ endpoint: error.endpoint ?? "", method: error.method, message: error.message })
            ),
          { discard: true }
        )
        if (accepted !== undefined) return Effect.as(warn, accepted.right)
        // a failed simulation is the transaction's fault, not the nodes': report it first
        const refusal = failures.find((error) => error._tag === "PreflightFailed") ?? failures[0]
        return refusal === undefined ? Effect.dieMessage("ChainRpc: no endpoint") : Effect.fail(refusal)
      })
    )
  return {
    send,
    signatureStatus: (signature, options) => read((each) => each.signatureStatus(signature, options)),
    blockHeight: (commitment) => read((each) => each.blockHeight(commitment)),
    lastValidBlockHeight: (commitment) => read((each) => each.lastValidBlockHeight(commitment)),
    logs: (signature) => read((each) => each.logs(signature))
  }
}

const isUnavailableError = (error: PreflightFailed | ChainUnavailable): error is ChainUnavailable =>
  error._tag === "ChainUnavailable"

/**
 * Builds the `Chain` service for the JSON-RPC endpoint at `url`, or for several endpoints
 * (sent to all, read from the first that answers).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (url: string | ReadonlyArray<string>, options: Options = {}): Chain.Service => {
  const urls = typeof url === "string" ? [url] : url
  const timeout = Duration.decode(options.timeout ?? Settings.rpcTimeout)
  const endpoints = urls.map((each) => endpoint(each, timeout))
  const first = endpoints[0]
  if (first === undefined) throw new Error("ChainRpc.make: at least one RPC URL is required")
  return {
    ...(endpoints.length === 1 ? first : redundant(endpoints)),
    pollInterval: Duration.decode(options.pollInterval ?? Settings.statusPoll)
  }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (url: string | ReadonlyArray<string>, options: Options = {}): Layer.Layer<Chain> =>
  Layer.succeed(Chain, make(url, options))

/**
 * The endpoint from `SOLANA_RPC_URL` (default `http://127.0.0.1:8899`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options: Options = {}): Layer.Layer<Chain, never> =>
  Layer.effect(
    Chain,
    Config.string("SOLANA_RPC_URL").pipe(
      Config.withDefault("http://127.0.0.1:8899"),
      Effect.orDie,
      Effect.map((url) => make(url, options))
    )
  )
