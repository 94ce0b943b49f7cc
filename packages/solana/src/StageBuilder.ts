/**
 * Builds plan stages the way the service does: compile a transaction (legacy, v0 or v1),
 * partially sign it with the service's keys, and compute the metadata a stage carries
 * (`messageSha256` of the message bytes, `requiredSigners`, lifetime, budget, size). The
 * sandbox builds its plans with it; tests build the stages they tamper with.
 *
 * @since 0.1.0
 */
import { Plan, WireTransaction as Wire } from "@feeshare/domain"
import { sha256 } from "@noble/hashes/sha2"
import { bytesToHex } from "@noble/hashes/utils"
import {
  type Address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
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

/**
 * @since 0.1.0
 * @category models
 */
export type Format = "legacy" | "v0" | "v1"

/**
 * @since 0.1.0
 * @category models
 */
export interface Budget {
  readonly computeUnitLimit: number
  readonly loadedAccountsDataSizeLimit: number
  /** v1: total lamports; legacy/v0: micro-lamports per compute unit. */
  readonly priorityFee: bigint
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Lifetime {
  readonly blockhash: string
  readonly lastValidBlockHeight: bigint
}

/**
 * @since 0.1.0
 * @category models
 */
export interface BuildInput {
  readonly format: Format
  readonly feePayer: Address
  readonly instructions: ReadonlyArray<Instruction>
  readonly lifetime: Lifetime
  /** Keys that sign now (the service's). */
  readonly signers: ReadonlyArray<KeyPairSigner>
  /** Absent: no compute-budget instructions (legacy, v0) or no config (v1). */
  readonly budget?: Budget | undefined
  /** v0 only. */
  readonly lookupTables?: AddressesByLookupTableAddress | undefined
}

/**
 * A compiled, partially signed transaction and what a stage says about it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Built {
  readonly transaction: Transaction
  readonly wire: Uint8Array
  readonly base64: string
  readonly base58: string
  readonly messageSha256: string
  readonly requiredSigners: ReadonlyArray<string>
  readonly size: { readonly bytes: number; readonly accounts: number; readonly signatures: number }
}

/**
 * The wire size limits: 1232 bytes for legacy and v0, 4096 for v1.
 *
 * @since 0.1.0
 * @category constants
 */
export const sizeLimit = (format: Format): number => (format === "v1" ? 4096 : 1232)

const encoder = getTransactionEncoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

/**
 * Lowercase hex SHA-256, as in a stage's `messageSha256`.
 *
 * @since 0.1.0
 * @category hashing
 */
export const sha256Hex = (bytes: Uint8Array): string => bytesToHex(sha256(bytes))

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

/**
 * Compiles, signs with `signers` and measures a transaction.
 *
 * @since 0.1.0
 * @category constructors
 */
export const build = async (input: BuildInput): Promise<Built> => {
  const unsigned = compile(input)
  const transaction = input.signers.length === 0
    ? unsigned
    : await partiallySignTransaction(input.signers.map((signer) => signer.keyPair), unsigned)
  const wire = new Uint8Array(encoder.encode(transaction))
  const compiled = messageDecoder.decode(transaction.messageBytes)
  let lookups = 0
  if (compiled.version === 0) {
    for (const table of compiled.addressTableLookups ?? []) {
      lookups += table.readonlyIndexes.length + table.writableIndexes.length
    }
  }
  return {
    transaction,
    wire,
    base64: Wire.fromBytes(wire, "base64"),
    base58: Wire.fromBytes(wire, "base58"),
    messageSha256: sha256Hex(new Uint8Array(transaction.messageBytes)),
    requiredSigners: Object.keys(transaction.signatures),
    size: {
      bytes: wire.length,
      accounts: compiled.staticAccounts.length + lookups,
      signatures: compiled.header.numSignerAccounts
    }
  }
}

/**
 * What a stage says beyond its transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface StageMeta {
  readonly id: string
  readonly kind: Plan.StageKind
  readonly dependsOn: ReadonlyArray<string>
  readonly format: Plan.Stage["format"]
  readonly lifetime: Lifetime
  /** The budget the stage declares (what the transaction was built with). */
  readonly budget: Budget
}

/**
 * The plan stage of a built transaction (base64 on the wire, as the service sends them).
 *
 * @since 0.1.0
 * @category constructors
 */
export const stageOf = (meta: StageMeta, built: Built): Plan.Stage => ({
  id: meta.id,
  kind: meta.kind,
  dependsOn: meta.dependsOn,
  format: meta.format,
  encoding: "base64",
  transaction: built.base64,
  messageSha256: built.messageSha256,
  requiredSigners: built.requiredSigners,
  lifetime: { blockhash: meta.lifetime.blockhash, lastValidBlockHeight: meta.lifetime.lastValidBlockHeight },
  budget: {
    computeUnitLimit: meta.budget.computeUnitLimit,
    loadedAccountsDataSizeLimit: meta.budget.loadedAccountsDataSizeLimit,
    priorityFee: { unit: Plan.priorityFeeUnit[meta.format], amount: meta.budget.priorityFee }
  },
  size: built.size
})
