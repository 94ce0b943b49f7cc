/**
 * What the history answers: its entries (landed transactions with their decoded
 * instructions, served plans with each stage's state, API requests), the snapshot of them all,
 * and the bounds it keeps them in. `History.ts` re-exports every one of them.
 */
import type { TransactionRecord } from "../ledger/models.js"

/**
 * How much the history keeps: the newest entries of each list, and the most of a
 * transaction's logs (lines, characters per line).
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = {
  transactions: 1_000,
  plans: 200,
  requests: 500,
  /** Messages of handed-out transactions remembered to name what lands. */
  served: 4_000,
  logLines: 60,
  logLineChars: 400
} as const

/**
 * An instruction of a transaction, decoded as far as the sandbox knows its program.
 *
 * @since 0.1.0
 * @category models
 */
export interface DecodedInstruction {
  readonly program: string
  /** `System`, `Token`, ... or the program id. */
  readonly programName: string
  /** `transfer`, `memo "..."`, ... or `data 0x...` (the first bytes). */
  readonly name: string
  readonly accounts: ReadonlyArray<string>
}

/**
 * A landed transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionEntry {
  readonly signature: string
  readonly slot: string
  readonly blockTime: number
  /**
   * `launch`, `swap`, `claim stage`, `setup`, `airdrop`, `create-config`, `fund-deployer`,
   * `update-config`, `partner-claim`, `vault-sweep` (a partner's or deployer's vault, gas-sponsored),
   * `claim-v3`, `lookup-table` (a wallet's own), or `other`.
   */
  readonly kind: string
  /** More about the kind: the stage id and plan, the memo. */
  readonly label: string
  readonly status: "success" | "failed"
  readonly fee: string
  readonly computeUnits: string
  readonly logs: ReadonlyArray<string>
  readonly instructions: ReadonlyArray<DecodedInstruction>
  /** The ledger's error of a failed transaction, as JSON-RPC reports it. */
  readonly error: string | null
}

/**
 * A stage's state: `built` (served, not landed), `landed`, `failed` (landed with an error),
 * `expired` (its blockhash is past its last valid block height), or `superseded` (a later plan
 * for the same operation was built before it landed).
 *
 * @since 0.1.0
 * @category models
 */
export type StageState = "built" | "landed" | "failed" | "expired" | "superseded"

/**
 * A stage of a served plan.
 *
 * @since 0.1.0
 * @category models
 */
export interface StageEntry {
  readonly id: string
  readonly kind: string
  readonly dependsOn: ReadonlyArray<string>
  readonly format: string
  readonly messageSha256: string
  readonly requiredSigners: ReadonlyArray<string>
  readonly lastValidBlockHeight: string
  readonly computeUnitLimit: number
  readonly bytes: number
  readonly state: StageState
  readonly signature: string | null
}

/**
 * A claim plan the service served.
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanEntry {
  readonly id: number
  readonly at: number
  readonly operation: string
  readonly baseMint: string
  readonly wallet: string
  readonly readiness: string
  /** The `--tamper` change made to it, when it was served tampered. */
  readonly tampered: string | null
  readonly stages: ReadonlyArray<StageEntry>
}

/**
 * An API request, as answered.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestEntry {
  readonly id: number
  readonly at: number
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly status: number
  readonly latencyMillis: number
  /** The id of the API key that made it (never the key), when it carried a known one. */
  readonly keyId: string | null
  readonly rateLimit: { readonly limit: string; readonly remaining: string; readonly reset: string } | null
}

/**
 * A request to record (its id is given by the history).
 *
 * @since 0.1.0
 * @category models
 */
export type RequestInput = Omit<RequestEntry, "id">

/**
 * Everything the history holds, newest first, with the stages' states as of `blockHeight`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Snapshot {
  /** Grows with every change: the explorer refetches when it moves. */
  readonly version: number
  readonly transactions: ReadonlyArray<TransactionEntry>
  readonly plans: ReadonlyArray<PlanEntry>
  readonly requests: ReadonlyArray<RequestEntry>
}

/**
 * What the history reads of a landed transaction (a `Ledger.TransactionRecord`).
 *
 * @since 0.1.0
 * @category models
 */
export type LandedRecord = Pick<
  TransactionRecord,
  "signature" | "slot" | "blockTime" | "wire" | "fee" | "logs" | "computeUnitsConsumed" | "err"
>
