/**
 * Reading a wire transaction as the ledger needs it: its first signature, lifetime, account
 * keys, version, message hash and fee (5000 lamports per signature plus the priority fee its
 * compute-budget instructions ask for). A wire that does not decode is refused −32602.
 */
import {
  type Address,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Transaction
} from "@solana/kit"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { LedgerError } from "./models.js"

const base58 = getBase58Decoder()
const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111"

interface Bytes {
  readonly buffer: ArrayBufferLike
  readonly byteOffset: number
  readonly byteLength: number
  readonly length: number
  readonly [index: number]: number
}

const u32At = (data: Bytes, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)
const u64At = (data: Bytes, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)

/** 5000 lamports per signature plus the priority fee the message asks for. */
const feeOf = (messageBytes: Transaction["messageBytes"]): bigint => {
  const compiled = messageDecoder.decode(messageBytes)
  const base = 5_000n * BigInt(compiled.header.numSignerAccounts)
  if (compiled.version === 1) {
    const mask = u32At(messageBytes, 4)
    if ((mask & 3) !== 3) return base
    return base + u64At(messageBytes, 42 + 32 * compiled.staticAccounts.length)
  }
  let limit: bigint | undefined
  let price = 0n
  let others = 0n
  for (const instruction of compiled.instructions) {
    const data = instruction.data
    if (compiled.staticAccounts[instruction.programAddressIndex] !== COMPUTE_BUDGET || data === undefined) {
      others++
      continue
    }
    if (data[0] === 2 && data.length >= 5) limit = BigInt(u32At(data, 1))
    if (data[0] === 3 && data.length >= 9) price = u64At(data, 1)
  }
  const units = limit ?? (others * 200_000n > 1_400_000n ? 1_400_000n : others * 200_000n)
  return base + (units * price + 999_999n) / 1_000_000n
}

/** Hex SHA-256 of a message's bytes: what names a transaction whoever signed it. */
export const messageSha256 = (messageBytes: Uint8Array): string =>
  createHash("sha256").update(messageBytes).digest("hex")

/** A wire transaction, read. */
export interface Decoded {
  readonly transaction: Transaction
  readonly signature: string | undefined
  readonly lifetimeToken: string
  readonly accountKeys: ReadonlyArray<Address>
  readonly version: "legacy" | 0 | 1
  readonly messageSha256: string
  readonly fee: bigint
}

/** Reads a wire transaction; refused −32602 when it does not decode (or has bytes after its message). */
export const decode = (wire: Uint8Array): Effect.Effect<Decoded, LedgerError> =>
  Effect.try({
    try: (): Decoded => {
      const transaction = transactionDecoder.decode(wire)
      const [compiled, end] = messageDecoder.read(transaction.messageBytes, 0)
      if (end !== transaction.messageBytes.length) throw new Error("trailing bytes after the message")
      const first = Object.values(transaction.signatures)[0]
      return {
        transaction,
        signature: first ? base58.decode(first) : undefined,
        lifetimeToken: compiled.lifetimeToken,
        accountKeys: compiled.staticAccounts,
        version: compiled.version,
        messageSha256: messageSha256(new Uint8Array(transaction.messageBytes)),
        fee: feeOf(transaction.messageBytes)
      }
    },
    catch: (cause) =>
      new LedgerError({
        code: -32602,
        message: `invalid transaction: ${cause instanceof Error ? cause.message : String(cause)}`
      })
  })
