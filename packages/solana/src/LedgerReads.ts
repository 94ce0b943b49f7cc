/**
 * What building a transaction on the client needs to read from a ledger: the latest
 * blockhash with the slot it was read at, and an account. `layerRpc(url)` reads them over
 * Solana JSON-RPC (`getSlot`, `getLatestBlockhash`, `getAccountInfo`), so it works against
 * any node and the sandbox's `/rpc` alike; every call has a deadline.
 *
 * @since 0.1.0
 */
import { WireTransaction as Wire } from "@feeshare/domain"
import { type Address, createSolanaRpc } from "@solana/kit"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { ChainUnavailable } from "./Chain.js"

/**
 * A recent slot (at `finalized`, so that it is in the SlotHashes sysvar) and the latest
 * blockhash with the last block height it is valid at.
 *
 * @since 0.1.0
 * @category models
 */
export interface Recent {
  readonly slot: bigint
  readonly blockhash: string
  readonly lastValidBlockHeight: bigint
}

/**
 * An account as read: its owner program and its data.
 *
 * @since 0.1.0
 * @category models
 */
export interface Account {
  readonly owner: string
  readonly data: Uint8Array
}

/**
 * @since 0.1.0
 * @category tags
 */
export class LedgerReads extends Context.Tag("@feeshare/solana/LedgerReads")<LedgerReads, LedgerReads.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace LedgerReads {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly recent: Effect.Effect<Recent, ChainUnavailable>
    /** `None` when the account does not exist. */
    readonly account: (address: string) => Effect.Effect<Option.Option<Account>, ChainUnavailable>
  }
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return "rpc"
  }
}

/**
 * The reads over JSON-RPC at `url`; each call is cancelled past `timeout` (default 10 s).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRpc = (
  url: string,
  options: { readonly timeout?: Duration.DurationInput | undefined } = {}
): Layer.Layer<LedgerReads> => {
  const rpc = createSolanaRpc(url)
  const host = hostOf(url)
  const timeout = Duration.decode(options.timeout ?? "10 seconds")
  const call = <A>(method: string, run: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({
      try: run,
      catch: (error) =>
        new ChainUnavailable({
          method,
          endpoint: host,
          message: `${method} at ${host}: ${error instanceof Error ? error.message : String(error)}`
        })
    }).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () =>
          new ChainUnavailable({
            method,
            endpoint: host,
            message: `${method} at ${host}: no answer within ${Duration.format(timeout)}`
          })
      })
    )
  return Layer.succeed(
    LedgerReads,
    LedgerReads.of({
      recent: Effect.gen(function*() {
        const slot = yield* call(
          "getSlot",
          (signal) => rpc.getSlot({ commitment: "finalized" }).send({ abortSignal: signal })
        )
        const { value } = yield* call(
          "getLatestBlockhash",
          (signal) => rpc.getLatestBlockhash({ commitment: "confirmed" }).send({ abortSignal: signal })
        )
        return { slot, blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight }
      }),
      account: (address) =>
        call(
          "getAccountInfo",
          (signal) =>
            rpc.getAccountInfo(address as Address, { encoding: "base64", commitment: "confirmed" }).send({
              abortSignal: signal
            })
        ).pipe(Effect.flatMap(({ value }) => {
          if (value === null) return Effect.succeed(Option.none())
          // the node's answer is not trusted to have the shape asked for
          const answer: { readonly owner?: unknown; readonly data?: unknown } = value
          const data = Array.isArray(answer.data) && typeof answer.data[0] === "string"
            ? Wire.toBytes(answer.data[0], "base64")
            : undefined
          return typeof answer.owner === "string" && data !== undefined
            ? Effect.succeed(Option.some({ owner: answer.owner, data }))
            : Effect.fail(
              new ChainUnavailable({
                method: "getAccountInfo",
                endpoint: host,
                message: `getAccountInfo at ${host}: the answer is not an account (owner and base64 data)`
              })
            )
        }))
    })
  )
}
