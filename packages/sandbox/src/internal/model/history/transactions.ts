/**
 * A landed transaction as the explorer lists it: its message (whose hash names what the
 * sandbox handed out), its kind from its memo when the sandbox did not hand it out, its logs
 * bounded, its instructions decoded.
 */
import { getTransactionDecoder } from "@solana/kit"
import { memoKind } from "../programs.js"
import { decodeInstructions } from "./instructions.js"
import { type LandedRecord, limits, type TransactionEntry } from "./models.js"

const transactionDecoder = getTransactionDecoder()

/** What a transaction is: `airdrop`, `setup`, `swap`, ... and more about it. */
export interface Kind {
  readonly kind: string
  readonly label: string
}

/** The message bytes of a wire transaction, or undefined when it does not decode. */
export const messageOf = (wire: Uint8Array): Uint8Array | undefined => {
  try {
    return new Uint8Array(transactionDecoder.decode(wire).messageBytes)
  } catch {
    return undefined
  }
}

const memoPattern = /^Program log: Memo \(len \d+\)(?:: "(.*)")?$/
const logPrefix = "Program log: "

/** The text of each memo in the logs: `Memo (len N): "text"`, or `Memo (len N)` then the text on the next line. */
const memos = (logs: ReadonlyArray<string>): ReadonlyArray<string> =>
  logs.flatMap((line, i) => {
    const match = memoPattern.exec(line)
    if (match === null) return []
    if (match[1] !== undefined) return [match[1]]
    const next = logs[i + 1]
    return next?.startsWith(logPrefix) === true ? [next.slice(logPrefix.length)] : []
  })

/** The kind of a transaction the sandbox did not hand out, from its memo. */
const kindOfMemo = (logs: ReadonlyArray<string>): Kind => {
  for (const memo of memos(logs)) {
    const kind = memoKind(memo)
    if (kind !== undefined) return { kind, label: memo }
  }
  return { kind: "other", label: "" }
}

const boundedLogs = (logs: ReadonlyArray<string>): ReadonlyArray<string> => {
  const kept = logs.slice(0, limits.logLines).map((line) =>
    line.length > limits.logLineChars ? `${line.slice(0, limits.logLineChars)}…` : line
  )
  return logs.length > limits.logLines ? [...kept, `… ${logs.length - limits.logLines} more lines`] : kept
}

/** The entry of a landed transaction whose `message` was read from its wire; `known` when the sandbox handed it out. */
export const entryOf = (
  record: LandedRecord,
  message: Uint8Array | undefined,
  known: Kind | undefined
): TransactionEntry => {
  const failed = record.err !== null
  const instructions = message === undefined ? [] : decodeInstructions(message)
  const byMemo = known ?? kindOfMemo(record.logs)
  // a wallet's own lookup-table transaction (made by `LookupTableSetup`) carries no memo
  const table = instructions.find((i) => i.programName === "Address Lookup Table")
  const { kind, label } = byMemo.kind === "other" && table !== undefined
    ? { kind: "lookup-table", label: `${table.name} ${table.accounts[0] ?? ""}` }
    : byMemo
  return {
    signature: record.signature,
    slot: record.slot.toString(),
    blockTime: record.blockTime,
    kind,
    label,
    status: failed ? "failed" : "success",
    fee: record.fee.toString(),
    computeUnits: record.computeUnitsConsumed.toString(),
    logs: boundedLogs(record.logs),
    instructions,
    error: failed
      ? JSON.stringify(record.err, (_, value) => typeof value === "bigint" ? value.toString() : value)
      : null
  }
}
