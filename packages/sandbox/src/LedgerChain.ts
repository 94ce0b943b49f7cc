/**
 * The `@feeshare/solana` `Chain` port over the sandbox's in-process `Ledger`: the plan
 * executor and `Chain.sendAndConfirm` run against the ledger without HTTP. (Over HTTP, use
 * `ChainRpc.layer(rpcUrl)` with the sandbox's `/rpc`: same ledger, same answers.)
 *
 * @since 0.1.0
 */
import { Chain, ChainUnavailable, describeError, PreflightFailed } from "@feeshare/solana/Chain"
import { getBase58Decoder, getTransactionDecoder } from "@solana/kit"
import { Duration, Effect, Layer, Option } from "effect"
import { Ledger } from "./Ledger.js"
import type { Options } from "./Options.js"

const base58 = getBase58Decoder()

const signatureOf = (wire: Uint8Array): string => {
  try {
    const first = Object.values(getTransactionDecoder().decode(wire).signatures)[0]
    return first ? base58.decode(first) : ""
  } catch {
    return ""
  }
}

const preflightData = (data: unknown): { err: unknown; logs: ReadonlyArray<string> } => {
  if (typeof data !== "object" || data === null) return { err: undefined, logs: [] }
  const record = data as { readonly err?: unknown; readonly logs?: unknown }
  const logs = Array.isArray(record.logs) ? record.logs.filter((line): line is string => typeof line === "string") : []
  return { err: record.err, logs }
}

/**
 * The `Chain` service of a ledger. Status polls happen every `slotMillis` (at least 1 ms).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Pick<Options, "slotMillis">) =>
  Effect.map(Ledger, (ledger): Chain.Service => ({
    send: (wire, { skipPreflight }) =>
      ledger.send(wire, { skipPreflight }).pipe(
        Effect.mapError((error) => {
          if (error.code !== -32002) {
            return new ChainUnavailable({ method: "sendTransaction", message: `sendTransaction: ${error.message}` })
          }
          const data = preflightData(error.data)
          const described = describeError(data.err)
          return new PreflightFailed({
            signature: signatureOf(wire),
            error: described,
            logs: data.logs,
            message: `preflight failed: ${described}`
          })
        })
      ),
    signatureStatus: (signature, { searchHistory }) =>
      Effect.map(ledger.statuses([signature], searchHistory), ([status]) =>
        Option.map(Option.fromNullable(status), (found) => ({
          slot: found.slot,
          confirmationStatus: found.confirmationStatus,
          err: found.err
        }))),
    blockHeight: () =>
      Effect.map(ledger.clock, (clock) =>
        clock.blockHeight),
    lastValidBlockHeight: () => Effect.map(ledger.clock, (clock) => clock.lastValidBlockHeight),
    logs: (signature) =>
      Effect.map(ledger.transaction(signature), (record) =>
        Option.match(record, {
          onNone: (): ReadonlyArray<string> => [],
          onSome: (found) => found.logs
        })),
    pollInterval: Duration.millis(Math.max(1, options.slotMillis))
  }))

/**
 * `Chain` over the `Ledger` of the same layer graph.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Pick<Options, "slotMillis">): Layer.Layer<Chain, never, Ledger> =>
  Layer.effect(Chain, make(options))
