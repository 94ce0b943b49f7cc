/**
 * What the ledger remembers of landed transactions: each signature's slot and error (its
 * status, with a commitment derived from the slot lag) and its record for `getTransaction`.
 */
import type { Commitment, RpcTransactionError, SignatureStatus, TransactionRecord } from "./models.js"

/**
 * Commitment levels by slot lag: `confirmed` one slot after landing, `finalized` after
 * `finalizedAfterSlots`.
 *
 * @since 0.1.0
 * @category constants
 */
export const commitmentLag = { confirmedAfterSlots: 1n, finalizedAfterSlots: 32n } as const

/**
 * Slots a signature status stays in the recent-status cache; older ones need
 * `searchTransactionHistory`.
 *
 * @since 0.1.0
 * @category constants
 */
export const recentStatusSlots = 300n

/** The records of one ledger. */
export interface Records {
  /** Whether `signature` has landed. */
  readonly has: (signature: string) => boolean
  /** Its status at `slot` (`landedAt`'s), ahead of its record. */
  readonly landed: (signature: string, landedAt: bigint, err: RpcTransactionError | null) => void
  readonly record: (record: TransactionRecord) => void
  /** Its status as of `currentSlot`; `null` when unknown, or out of the recent cache without `search`. */
  readonly status: (signature: string, search: boolean, currentSlot: bigint) => SignatureStatus | null
  readonly transaction: (signature: string) => TransactionRecord | undefined
}

/** No records yet. */
export const make = (): Records => {
  const statuses = new Map<string, { slot: bigint; err: RpcTransactionError | null }>()
  const history = new Map<string, TransactionRecord>()

  const status = (signature: string, search: boolean, currentSlot: bigint): SignatureStatus | null => {
    const landed = statuses.get(signature)
    if (landed === undefined) return null
    const lag = currentSlot - landed.slot
    if (!search && lag > recentStatusSlots) return null
    const confirmationStatus: Commitment = lag >= commitmentLag.finalizedAfterSlots
      ? "finalized"
      : lag >= commitmentLag.confirmedAfterSlots
      ? "confirmed"
      : "processed"
    return {
      slot: landed.slot,
      confirmations: confirmationStatus === "finalized" ? null : lag,
      err: landed.err,
      confirmationStatus
    }
  }

  return {
    has: (signature) => statuses.has(signature),
    landed: (signature, slot, err) => void statuses.set(signature, { slot, err }),
    record: (record) => void history.set(record.signature, record),
    status,
    transaction: (signature) => history.get(signature)
  }
}
