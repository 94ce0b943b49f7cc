/**
 * The `Chain` port: the four questions the library asks a Solana ledger (send these bytes,
 * what is this signature's status, what is the block height, what did this transaction
 * log), and `sendAndConfirm`, the confirmation loop written once over the port: send with
 * preflight, poll the status, rebroadcast the same bytes until the transaction lands or
 * the block height passes its `lastValidBlockHeight`, then one history lookup.
 *
 * Layers: `ChainRpc.layer(url)` (JSON-RPC over HTTP); the sandbox provides one over its
 * in-process ledger.
 *
 * @since 0.1.0
 */
import { Context, Duration, Effect, Fiber, FiberRef, Option, Schedule, Schema } from "effect"
import * as Settings from "./internal/settings.js"

/**
 * How settled a transaction must be: `processed` < `confirmed` < `finalized`.
 *
 * @since 0.1.0
 * @category models
 */
export const Commitment = Schema.Literal("processed", "confirmed", "finalized")

/**
 * @since 0.1.0
 * @category models
 */
export type Commitment = typeof Commitment.Type

/**
 * One endpoint of several failed a call; the call went on with the others.
 *
 * @since 0.1.0
 * @category models
 */
export interface EndpointFailure {
  /** Host and port (never the path: it may hold a key). */
  readonly endpoint: string
  /** The JSON-RPC method, e.g. `sendTransaction`. */
  readonly method: string
  readonly message: string
}

/**
 * Who hears about failed endpoints in this fiber (and the fibers it forks). Nobody by
 * default; the plan executor turns them into progress events.
 *
 * @since 0.1.0
 * @category observers
 */
export const endpointFailureListener: FiberRef.FiberRef<(failure: EndpointFailure) => Effect.Effect<void>> = FiberRef
  .unsafeMake<(failure: EndpointFailure) => Effect.Effect<void>>(() => Effect.void)

/**
 * Tells the current listener that an endpoint failed.
 *
 * @since 0.1.0
 * @category observers
 */
export const reportEndpointFailure = (failure: EndpointFailure): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(endpointFailureListener), (listener) => listener(failure))

const rank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 }

/**
 * `true` when `reached` is at least `wanted`.
 *
 * @since 0.1.0
 * @category models
 */
export const meets = (reached: Commitment, wanted: Commitment): boolean => rank[reached] >= rank[wanted]

/**
 * What the ledger knows about a signature. `err` is the transaction error as the RPC
 * reports it (JSON), `null` when the transaction succeeded.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignatureStatus {
  readonly slot: bigint
  readonly confirmationStatus: Commitment | null
  readonly err: unknown
}

/**
 * The ledger could not be asked (transport failure, RPC error other than a preflight
 * failure).
 *
 * @since 0.1.0
 * @category errors
 */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  method: Schema.String,
  message: Schema.String,
  /** The endpoint that failed, when the chain has several. */
  endpoint: Schema.optional(Schema.String),
  /** How long the endpoint asked to be left alone (`Retry-After` of a 429 or 503). */
  retryAfterMillis: Schema.optional(Schema.Number)
}) {}

/**
 * The node simulated the transaction before accepting it and the simulation failed.
 *
 * @since 0.1.0
 * @category errors
 */
export class PreflightFailed extends Schema.TaggedError<PreflightFailed>()("PreflightFailed", {
  signature: Schema.String,
  error: Schema.String,
  logs: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/**
 * The transaction landed and failed on chain. `error` is the decoded transaction error.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransactionFailed extends Schema.TaggedError<TransactionFailed>()("TransactionFailed", {
  signature: Schema.String,
  slot: Schema.BigIntFromSelf,
  error: Schema.String,
  logs: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/**
 * The block height passed `lastValidBlockHeight` and the transaction is not on the ledger,
 * even in its history: it can never land.
 *
 * @since 0.1.0
 * @category errors
 */
export class BlockhashExpired extends Schema.TaggedError<BlockhashExpired>()("BlockhashExpired", {
  signature: Schema.String,
  blockHeight: Schema.BigIntFromSelf,
  lastValidBlockHeight: Schema.BigIntFromSelf,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export type SendError = PreflightFailed | ChainUnavailable

/**
 * Everything `sendAndConfirm` can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type ConfirmError = PreflightFailed | TransactionFailed | BlockhashExpired | ChainUnavailable

/**
 * @since 0.1.0
 * @category tags
 */
export class Chain extends Context.Tag("@feeshare/solana/Chain")<Chain, Chain.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Chain {
  /**
   * A Solana ledger, as the library needs it. Implementations must be idempotent for
   * `send`: sending the same bytes again never makes the transaction land twice.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Submits signed wire bytes. Unless `skipPreflight`, the node simulates first at
     * `commitment` and a failing simulation is `PreflightFailed` with its logs. Succeeds
     * with the transaction's signature (base58).
     */
    readonly send: (
      wire: Uint8Array,
      options: { readonly skipPreflight: boolean; readonly commitment: Commitment }
    ) => Effect.Effect<string, SendError>
    /**
     * The status of a signature, `None` when the ledger does not know it. With
     * `searchHistory` the whole ledger history is searched, not only recent statuses.
     */
    readonly signatureStatus: (
      signature: string,
      options: { readonly searchHistory: boolean }
    ) => Effect.Effect<Option.Option<SignatureStatus>, ChainUnavailable>
    /** The current block height at `commitment`. */
    readonly blockHeight: (commitment: Commitment) => Effect.Effect<bigint, ChainUnavailable>
    /**
     * The last block height at which the ledger's newest blockhash is valid: a transaction
     * signed now, over any blockhash it was given, cannot land after it (the bound a journal
     * keeps for a transaction whose lifetime nobody stated).
     */
    readonly lastValidBlockHeight: (commitment: Commitment) => Effect.Effect<bigint, ChainUnavailable>
    /** The log lines of a transaction that landed (empty when not known). */
    readonly logs: (signature: string) => Effect.Effect<ReadonlyArray<string>, ChainUnavailable>
    /** How long a confirmation waits between two status polls of this ledger. */
    readonly pollInterval: Duration.Duration
  }
}

/**
 * Renders a JSON transaction error the way the runtime names it, e.g.
 * `InstructionError(0, Custom(1))`.
 *
 * @since 0.1.0
 * @category errors
 */
export const describeError = (err: unknown): string => {
  if (err === null || err === undefined) return "unknown error"
  if (typeof err === "string") return err
  if (typeof err === "number" || typeof err === "bigint" || typeof err === "boolean") return String(err)
  if (Array.isArray(err)) return err.map(describeError).join(", ")
  if (typeof err === "object") {
    const entries = Object.entries(err)
    if (entries.length === 1) {
      const [key, value] = entries[0]!
      return `${key}(${describeError(value)})`
    }
    return entries.map(([key, value]) => `${key}: ${describeError(value)}`).join(", ")
  }
  return String(err)
}

/**
 * A signed transaction ready to send. Without `lastValidBlockHeight` (e.g. the launch
 * transaction, whose lifetime the service does not state), the confirmation allows the
 * full 150 blocks of a blockhash's life from the first send.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sendable {
  readonly bytes: Uint8Array
  readonly signature: string
  readonly lastValidBlockHeight: Option.Option<bigint>
}

/**
 * Where and when a transaction landed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Landed {
  readonly signature: string
  readonly slot: bigint
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ConfirmOptions {
  /** Default `confirmed`. */
  readonly commitment?: Commitment | undefined
  /** How often the same bytes are sent again while not landed. Default 2 seconds. */
  readonly rebroadcastInterval?: Duration.DurationInput | undefined
  /** Skip the simulation on the first send. Default `false`. */
  readonly skipPreflight?: boolean | undefined
}

/**
 * Blocks a blockhash stays valid for.
 *
 * @since 0.1.0
 * @category constants
 */
export const blockhashLifetime = 150n

/** Retries of an unavailable node (a timeout, a 429, a 5xx, a dropped connection). */
const isUnavailable = (error: { readonly _tag: string }): error is ChainUnavailable => error._tag === "ChainUnavailable"

/** The pause a node asked for (`Retry-After`), if any. */
const askedMillis = (error: { readonly _tag: string }) => isUnavailable(error) ? error.retryAfterMillis ?? 0 : 0

/**
 * `effect`, retried while the node is unavailable: backoff from `unavailableBackoff` doubling,
 * or the node's own `Retry-After` when longer; a `Retry-After` beyond `longestRetryAfter`
 * fails at once.
 */
const transient = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.retry(effect, {
    schedule: Schedule.identity<E>().pipe(
      Schedule.intersect(Schedule.exponential(Settings.unavailableBackoff)),
      Schedule.intersect(Schedule.recurs(Settings.unavailableRetries)),
      Schedule.modifyDelay(([[error]], delay) => Duration.max(delay, Duration.millis(askedMillis(error))))
    ),
    while: (error) => isUnavailable(error) && askedMillis(error) <= Duration.toMillis(Settings.longestRetryAfter)
  })

/**
 * A transaction the node accepted (or that was already on the ledger), with the block
 * height after which it can no longer land.
 *
 * @since 0.1.0
 * @category models
 */
export interface Submitted {
  readonly transaction: Sendable
  readonly lastValidBlockHeight: bigint
  /** `true` when the ledger already knew the signature, so nothing was sent. */
  readonly alreadyKnown: boolean
}

/**
 * Sends a signed transaction once (with preflight unless `skipPreflight`). Refuses to send
 * a transaction whose block height has passed (`BlockhashExpired`), unless the ledger
 * already has it.
 *
 * @since 0.1.0
 * @category confirmation
 */
export const submit = Effect.fn("Chain.submit")(function*(transaction: Sendable, options: ConfirmOptions = {}) {
  const chain = yield* Chain
  const commitment = options.commitment ?? "confirmed"
  const signature = transaction.signature
  const height = yield* transient(chain.blockHeight(commitment))
  const lastValidBlockHeight = Option.getOrElse(transaction.lastValidBlockHeight, () => height + blockhashLifetime)
  if (height > lastValidBlockHeight) {
    const known = yield* transient(chain.signatureStatus(signature, { searchHistory: true }))
    if (Option.isNone(known)) {
      return yield* new BlockhashExpired({
        signature,
        blockHeight: height,
        lastValidBlockHeight,
        message:
          `transaction ${signature} expired: block height ${height} passed ${lastValidBlockHeight} before it was sent`
      })
    }
    return { transaction, lastValidBlockHeight, alreadyKnown: true }
  }
  yield* transient(chain.send(transaction.bytes, { skipPreflight: options.skipPreflight ?? false, commitment }))
  return { transaction, lastValidBlockHeight, alreadyKnown: false }
})

/**
 * Waits until a submitted transaction reaches `commitment`: polls the status every
 * `pollInterval` of the chain while rebroadcasting the same bytes every
 * `rebroadcastInterval`. When the block height passes `lastValidBlockHeight` with no
 * status, one lookup in the history decides between landed and `BlockhashExpired`. An
 * on-chain failure is `TransactionFailed` with the decoded error and the logs.
 *
 * @since 0.1.0
 * @category confirmation
 */
export const confirm = Effect.fn("Chain.confirm")(function*(submitted: Submitted, options: ConfirmOptions = {}) {
  const chain = yield* Chain
  const commitment = options.commitment ?? "confirmed"
  const { transaction, lastValidBlockHeight } = submitted
  const signature = transaction.signature
  const rebroadcastEvery = Duration.decode(options.rebroadcastInterval ?? Settings.rebroadcast)

  const rebroadcast = yield* (submitted.alreadyKnown ? Effect.void : chain.send(transaction.bytes, {
    skipPreflight: true,
    commitment
  }).pipe(Effect.ignore, Effect.delay(rebroadcastEvery), Effect.forever)).pipe(Effect.forkScoped)

  // one look at the status: landed (at the commitment) or failed ends it; unknown or not yet at
  // the commitment is another look later; unknown past the last valid height is expired
  const look = Effect.gen(function*() {
    let status = yield* transient(chain.signatureStatus(signature, { searchHistory: false }))
    if (Option.isNone(status)) {
      const height = yield* transient(chain.blockHeight(commitment))
      if (height <= lastValidBlockHeight) return Option.none<Landed>()
      status = yield* transient(chain.signatureStatus(signature, { searchHistory: true }))
      if (Option.isNone(status)) {
        return yield* new BlockhashExpired({
          signature,
          blockHeight: height,
          lastValidBlockHeight,
          message:
            `transaction ${signature} expired: block height ${height} passed ${lastValidBlockHeight} before it landed`
        })
      }
    }
    yield* Fiber.interrupt(rebroadcast)
    const found = status.value
    if (found.err !== null && found.err !== undefined) {
      const logs = yield* transient(chain.logs(signature)).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => []))
      const error = describeError(found.err)
      return yield* new TransactionFailed({
        signature,
        slot: found.slot,
        error,
        logs,
        message: `transaction ${signature} failed: ${error}`
      })
    }
    return found.confirmationStatus !== null && meets(found.confirmationStatus, commitment)
      ? Option.some<Landed>({ signature, slot: found.slot })
      : Option.none<Landed>()
  })
  // a look every `pollInterval`, the first one interval after the send, until it decides
  const decided = yield* Effect.repeat(Effect.delay(look, chain.pollInterval), {
    until: (status): status is Option.Some<Landed> => Option.isSome(status)
  })
  return decided.value
}, Effect.scoped)

/**
 * `submit` then `confirm`.
 *
 * @since 0.1.0
 * @category confirmation
 */
export const sendAndConfirm = (
  transaction: Sendable,
  options: ConfirmOptions = {}
): Effect.Effect<Landed, ConfirmError, Chain> =>
  submit(transaction, options).pipe(Effect.flatMap((submitted) => confirm(submitted, options)))
