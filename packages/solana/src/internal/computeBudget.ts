/**
 * The budget a message carries: the v1 config values, or the compute-budget instructions of a
 * v0/legacy message (with what the runtime would reject about them).
 */
import { PublicKey } from "@feeshare/domain"
import * as WireFormat from "./wireFormat.js"

/**
 * The budget a message carries. v1: config values (unset means zero, reported as absent);
 * v0/legacy: compute-budget instructions. `problem` describes a v0/legacy budget the
 * runtime would reject (duplicated or unrecognised compute-budget instructions); an invalid
 * v1 config mask is refused by `decode` already.
 *
 * @since 0.1.0
 * @category models
 */
export interface MessageBudget {
  readonly computeUnitLimit?: number
  readonly loadedAccountsDataSizeLimit?: number
  readonly heapSize?: number
  /** v1: total lamports; v0/legacy: micro-lamports per compute unit. */
  readonly priorityFee?: bigint
  readonly problem?: string
}

/**
 * The compute-budget program.
 *
 * @since 0.1.0
 * @category constants
 */
export const computeBudgetProgram = "ComputeBudget111111111111111111111111111111"

const computeBudgetKey = PublicKey.toBytes(computeBudgetProgram)

const readU32 = (bytes: Uint8Array, at: number): number =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0

const readU64 = (bytes: Uint8Array, at: number): bigint =>
  (BigInt(readU32(bytes, at + 4)) << 32n) | BigInt(readU32(bytes, at))

export const budgetOf = (bytes: Uint8Array, parsed: WireFormat.Parsed): MessageBudget => {
  if (parsed.version === 1) {
    const { config } = parsed
    return {
      ...(config.priorityFee === undefined ? {} : { priorityFee: config.priorityFee }),
      ...(config.computeUnitLimit === undefined ? {} : { computeUnitLimit: config.computeUnitLimit }),
      ...(config.loadedAccountsDataSizeLimit === undefined
        ? {}
        : { loadedAccountsDataSizeLimit: config.loadedAccountsDataSizeLimit }),
      ...(config.heapSize === undefined ? {} : { heapSize: config.heapSize })
    }
  }
  const found: { -readonly [K in keyof MessageBudget]: MessageBudget[K] } = {}
  const seen = new Set<number>()
  for (const instruction of parsed.instructions) {
    if (!WireFormat.accountIs(bytes, parsed, instruction.programIndex, computeBudgetKey)) continue
    const length = instruction.dataLength
    if (length === 0) continue
    const at = instruction.dataOffset
    const kind = bytes[at]!
    if (seen.has(kind)) found.problem = `duplicate compute-budget instruction ${kind}`
    seen.add(kind)
    if (kind === 1 && length === 5) found.heapSize = readU32(bytes, at + 1)
    else if (kind === 2 && length === 5) found.computeUnitLimit = readU32(bytes, at + 1)
    else if (kind === 3 && length === 9) found.priorityFee = readU64(bytes, at + 1)
    else if (kind === 4 && length === 5) found.loadedAccountsDataSizeLimit = readU32(bytes, at + 1)
    else found.problem = `unrecognised compute-budget instruction ${kind}`
  }
  return found
}
