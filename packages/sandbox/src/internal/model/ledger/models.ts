/**
 * The ledger's vocabulary: its refusal (`LedgerError`) and the values it answers (clock
 * state, signature statuses, landed transactions, simulations, accounts) or takes (send and
 * simulate options, watchers). `Ledger.ts` re-exports every one of them.
 */
import type { Effect } from "effect"
import { Schema } from "effect"
import type * as TransactionError from "../transactionError.js"

/**
 * A transaction error as a Solana JSON-RPC reports it (`"BlockhashNotFound"`,
 * `{ InstructionError: [0, { Custom: 1 }] }`, ...).
 *
 * @since 0.1.0
 * @category models
 */
export type RpcTransactionError = TransactionError.RpcTransactionError

/**
 * A refusal the JSON-RPC endpoint reports as `{ code, message, data }` (−32602 bad
 * parameters, −32003 signature verification, −32002 preflight failure with the logs).
 *
 * @since 0.1.0
 * @category errors
 */
export class LedgerError extends Schema.TaggedError<LedgerError>()("LedgerError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalWith(Schema.Unknown, { exact: true })
}) {}

/** −32602: a parameter breaks a rule (the message names it). */
export const invalidParams = (message: string) => new LedgerError({ code: -32602, message })

/** −32002: the transaction would fail; `data` carries the error and the logs, as a real RPC's. */
export const preflightFailure = (err: RpcTransactionError, logs: ReadonlyArray<string>, unitsConsumed: bigint) =>
  new LedgerError({
    code: -32002,
    message: `Transaction simulation failed: ${typeof err === "string" ? err : JSON.stringify(err)}`,
    data: { err, logs, accounts: null, unitsConsumed: Number(unitsConsumed), returnData: null }
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface ClockState {
  readonly slot: bigint
  readonly blockHeight: bigint
  /** The latest blockhash and the last block height at which it is valid. */
  readonly blockhash: string
  readonly lastValidBlockHeight: bigint
}

/**
 * A transaction that landed (successfully or with an error) at `slot`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Landed {
  readonly signature: string
  readonly slot: bigint
  /** Unix seconds. */
  readonly blockTime: number
  readonly err: RpcTransactionError | null
  /** Hex SHA-256 of the message bytes: the same whoever signed it. */
  readonly messageSha256: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type Commitment = "processed" | "confirmed" | "finalized"

/**
 * @since 0.1.0
 * @category models
 */
export interface SignatureStatus {
  readonly slot: bigint
  /** `null` once finalized, like a real RPC. */
  readonly confirmations: bigint | null
  readonly err: RpcTransactionError | null
  readonly confirmationStatus: Commitment
}

/**
 * A landed transaction, as `getTransaction` reports it.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionRecord {
  readonly signature: string
  readonly slot: bigint
  /** Unix seconds. */
  readonly blockTime: number
  readonly wire: Uint8Array
  readonly version: "legacy" | 0 | 1
  readonly fee: bigint
  readonly accountKeys: ReadonlyArray<string>
  readonly preBalances: ReadonlyArray<bigint>
  readonly postBalances: ReadonlyArray<bigint>
  readonly logs: ReadonlyArray<string>
  readonly computeUnitsConsumed: bigint
  readonly err: RpcTransactionError | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Simulation {
  readonly err: RpcTransactionError | null
  readonly logs: ReadonlyArray<string>
  readonly unitsConsumed: bigint
  readonly replacementBlockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint } | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AccountView {
  readonly lamports: bigint
  readonly owner: string
  readonly data: Uint8Array
  readonly executable: boolean
}

/**
 * What `watch` runs, synchronously with the change: `landed` for every landed transaction
 * (before `send` answers), `slots` with the new slots of every clock move, ascending, once the
 * clock shows the last of them (at most 512 per move: the slots that got a blockhash).
 *
 * @since 0.1.0
 * @category models
 */
export interface Watcher {
  readonly landed?: ((landed: Landed) => Effect.Effect<void>) | undefined
  readonly slots?: ((slots: ReadonlyArray<bigint>) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SendOptions {
  /** Skip the simulation: a failing transaction then lands with its error. */
  readonly skipPreflight?: boolean
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SimulateOptions {
  /** Check signatures (default false, as a real RPC's `sigVerify`). */
  readonly sigVerify?: boolean
  /** Simulate against the latest blockhash whatever the transaction's. */
  readonly replaceRecentBlockhash?: boolean
}
