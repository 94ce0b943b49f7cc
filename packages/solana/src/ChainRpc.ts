/**
 * The `Chain` port over Solana JSON-RPC (HTTP), with @solana/kit's RPC client. Uses only
 * `sendTransaction` (base64), `getSignatureStatuses`, `getBlockHeight` and
 * `getTransaction`, so it works against any node and the sandbox's `/rpc` alike.
 *
 * @since 0.1.0
 */
import { WireTransaction as Wire } from "@feeshare/domain"
import {
  type Base64EncodedWireTransaction,
  createSolanaRpc,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE
} from "@solana/kit"
import { Config, Duration, Effect, Layer, Option } from "effect"
import { Chain, ChainUnavailable, type Commitment, PreflightFailed } from "./Chain.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Time between two status polls. Default 400 ms. */
  readonly pollInterval?: Duration.DurationInput | undefined
}

const messageOf = (error: unknown): string => error instanceof Error ? error.message : String(error)

/**
 * Builds the `Chain` service for the JSON-RPC endpoint at `url`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (url: string, options: Options = {}): Chain.Service => {
  const rpc = createSolanaRpc(url)
  const call = <A>(method: string, run: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({
      try: run,
      catch: (error) => new ChainUnavailable({ method, message: `${method}: ${messageOf(error)}` })
    })

  const send: Chain.Service["send"] = (wire, { commitment, skipPreflight }) =>
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
        return new ChainUnavailable({ method: "sendTransaction", message: `sendTransaction: ${messageOf(error)}` })
      }
    }).pipe(Effect.map(String))

  const signatureStatus: Chain.Service["signatureStatus"] = (signature, { searchHistory }) =>
    call("getSignatureStatuses", (signal) =>
      rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: searchHistory }).send({
        abortSignal: signal
      })).pipe(
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

  return {
    send,
    signatureStatus,
    blockHeight,
    logs,
    pollInterval: Duration.decode(options.pollInterval ?? "400 millis")
  }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (url: string, options: Options = {}): Layer.Layer<Chain> =>
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
