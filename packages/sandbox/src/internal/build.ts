/**
 * Builds a transaction (legacy, v0 or v1), partially signs it with the sandbox's keys and
 * computes the metadata a plan stage carries.
 */
import {
  type Address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageConfig,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLoadedAccountsDataSizeLimit,
  type Transaction
} from "@solana/kit"
import { createHash } from "node:crypto"

export type Format = "legacy" | "v0" | "v1"

export interface Budget {
  readonly computeUnitLimit: number
  readonly loadedAccountsDataSizeLimit: number
  /** v1: total lamports; legacy/v0: micro-lamports per compute unit. */
  readonly priorityFee: bigint
}

export interface Lifetime {
  readonly blockhash: string
  readonly lastValidBlockHeight: bigint
}

export interface BuildInput {
  readonly format: Format
  readonly feePayer: Address
  readonly instructions: ReadonlyArray<Instruction>
  readonly lifetime: Lifetime
  /** Keys the sandbox holds and signs with now. */
  readonly signers: ReadonlyArray<KeyPairSigner>
  readonly budget?: Budget | undefined
  /** v0 only. */
  readonly lookupTables?: AddressesByLookupTableAddress | undefined
}

export interface Built {
  readonly transaction: Transaction
  readonly wire: Uint8Array
  readonly base64: string
  readonly base58: string
  readonly messageSha256: string
  readonly requiredSigners: ReadonlyArray<string>
  readonly size: { readonly bytes: number; readonly accounts: number; readonly signatures: number }
}

/** The wire size limits: 1232 bytes for legacy and v0, 4096 for v1. */
export const sizeLimit = (format: Format): number => (format === "v1" ? 4096 : 1232)

const encoder = getTransactionEncoder()
const messageDecoder = getCompiledTransactionMessageDecoder()
const base58 = getBase58Decoder()

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const compile = (input: BuildInput): Transaction => {
  const lifetime = {
    blockhash: input.lifetime.blockhash as Blockhash,
    lastValidBlockHeight: input.lifetime.lastValidBlockHeight
  }
  const budget = input.budget
  if (input.format === "v1") {
    const base = pipe(
      createTransactionMessage({ version: 1 }),
      (m) => setTransactionMessageFeePayer(input.feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m)
    )
    const configured = budget === undefined ? base : setTransactionMessageConfig({
      computeUnitLimit: budget.computeUnitLimit,
      loadedAccountsDataSizeLimit: budget.loadedAccountsDataSizeLimit,
      priorityFeeLamports: budget.priorityFee
    }, base)
    return compileTransaction(appendTransactionMessageInstructions(input.instructions, configured))
  }
  if (input.format === "v0") {
    const base = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(input.feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m)
    )
    const budgeted = budget === undefined ? base : pipe(
      base,
      (m) => setTransactionMessageComputeUnitLimit(budget.computeUnitLimit, m),
      (m) => setTransactionMessageComputeUnitPrice(budget.priorityFee, m),
      (m) => setTransactionMessageLoadedAccountsDataSizeLimit(budget.loadedAccountsDataSizeLimit, m)
    )
    const message = appendTransactionMessageInstructions(input.instructions, budgeted)
    return compileTransaction(
      input.lookupTables === undefined
        ? message
        : compressTransactionMessageUsingAddressLookupTables(message, input.lookupTables)
    )
  }
  const base = pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageFeePayer(input.feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m)
  )
  const budgeted = budget === undefined ? base : pipe(
    base,
    (m) => setTransactionMessageComputeUnitLimit(budget.computeUnitLimit, m),
    (m) => setTransactionMessageComputeUnitPrice(budget.priorityFee, m)
  )
  return compileTransaction(appendTransactionMessageInstructions(input.instructions, budgeted))
}

/** Compiles, signs with the sandbox's keys and measures a transaction. */
export const build = async (input: BuildInput): Promise<Built> => {
  const unsigned = compile(input)
  const transaction = input.signers.length === 0
    ? unsigned
    : await partiallySignTransaction(input.signers.map((signer) => signer.keyPair), unsigned)
  const wire = new Uint8Array(encoder.encode(transaction))
  const compiled = messageDecoder.decode(transaction.messageBytes)
  let lookups = 0
  if (compiled.version === 0) {
    for (const table of compiled.addressTableLookups ?? []) lookups += table.readonlyIndexes.length + table.writableIndexes.length
  }
  return {
    transaction,
    wire,
    base64: getBase64EncodedWireTransaction(transaction),
    base58: base58.decode(wire),
    messageSha256: sha256Hex(new Uint8Array(transaction.messageBytes)),
    requiredSigners: Object.keys(transaction.signatures),
    size: {
      bytes: wire.length,
      accounts: compiled.staticAccounts.length + lookups,
      signatures: compiled.header.numSignerAccounts
    }
  }
}
