// Builds plan stages the way the service does: compile, partially sign with the service's
// keys, and compute the metadata (messageSha256 of the message bytes, requiredSigners,
// lifetime, budget, size).
import type { Plan } from "@feeshare/domain"
import { WireTransaction as Wire } from "@feeshare/domain"
import { getTransferSolInstruction } from "@solana-program/system"
import {
  address,
  appendTransactionMessageInstructions,
  type Address,
  type AddressesByLookupTableAddress,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
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
  setTransactionMessageLoadedAccountsDataSizeLimit
} from "@solana/kit"
import { createHash } from "node:crypto"

export interface StageSpec {
  readonly id: string
  readonly kind?: Plan.StageKind
  readonly dependsOn?: ReadonlyArray<string>
  readonly format: "v0" | "v1"
  /** Fee payer; signs now (the service's key). */
  readonly feePayer: KeyPairSigner
  /** More keys that sign now. */
  readonly serverSigners?: ReadonlyArray<KeyPairSigner>
  readonly instructions: ReadonlyArray<Instruction>
  readonly lifetime: { readonly blockhash: string; readonly lastValidBlockHeight: bigint }
  readonly budget?: {
    readonly computeUnitLimit: number
    readonly loadedAccountsDataSizeLimit: number
    readonly priorityFee: bigint
  }
  readonly lookupTables?: AddressesByLookupTableAddress
  /** v1 only: leave the config unset (to build refused stages). */
  readonly omitV1Limits?: boolean
}

export const defaultBudget = { computeUnitLimit: 200_000, loadedAccountsDataSizeLimit: 256 * 1024, priorityFee: 0n }

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

export const buildStage = async (spec: StageSpec): Promise<Plan.Stage> => {
  const budget = spec.budget ?? defaultBudget
  const lifetime = { blockhash: spec.lifetime.blockhash as Blockhash, lastValidBlockHeight: spec.lifetime.lastValidBlockHeight }
  let compiled
  if (spec.format === "v1") {
    const base = pipe(
      createTransactionMessage({ version: 1 }),
      (m) => setTransactionMessageFeePayer(spec.feePayer.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(spec.instructions, m)
    )
    compiled = compileTransaction(
      spec.omitV1Limits === true ? base : setTransactionMessageConfig({
        computeUnitLimit: budget.computeUnitLimit,
        loadedAccountsDataSizeLimit: budget.loadedAccountsDataSizeLimit,
        ...(budget.priorityFee > 0n ? { priorityFeeLamports: budget.priorityFee } : {})
      }, base)
    )
  } else {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(spec.feePayer.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => setTransactionMessageComputeUnitLimit(budget.computeUnitLimit, m),
      (m) => setTransactionMessageComputeUnitPrice(budget.priorityFee, m),
      (m) => setTransactionMessageLoadedAccountsDataSizeLimit(budget.loadedAccountsDataSizeLimit, m),
      (m) => appendTransactionMessageInstructions(spec.instructions, m)
    )
    compiled = compileTransaction(
      spec.lookupTables === undefined ? message : compressTransactionMessageUsingAddressLookupTables(message, spec.lookupTables)
    )
  }
  const signed = await partiallySignTransaction(
    [spec.feePayer, ...(spec.serverSigners ?? [])].map((s) => s.keyPair),
    compiled
  )
  const bytes = new Uint8Array(getTransactionEncoder().encode(signed))
  const message = getCompiledTransactionMessageDecoder().decode(signed.messageBytes)
  let lookups = 0
  if (message.version === 0) {
    for (const l of message.addressTableLookups ?? []) lookups += l.readonlyIndexes.length + l.writableIndexes.length
  }
  return {
    id: spec.id,
    kind: spec.kind ?? "claim",
    dependsOn: spec.dependsOn ?? [],
    format: spec.format,
    encoding: "base64",
    transaction: Wire.fromBytes(bytes, "base64"),
    messageSha256: sha256Hex(new Uint8Array(signed.messageBytes)),
    requiredSigners: Object.keys(signed.signatures),
    lifetime: { blockhash: spec.lifetime.blockhash, lastValidBlockHeight: spec.lifetime.lastValidBlockHeight },
    budget: {
      computeUnitLimit: budget.computeUnitLimit,
      loadedAccountsDataSizeLimit: budget.loadedAccountsDataSizeLimit,
      priorityFee: {
        unit: spec.format === "v1" ? "total_lamports" : "micro_lamports_per_compute_unit",
        amount: budget.priorityFee
      }
    },
    size: { bytes: bytes.length, accounts: message.staticAccounts.length + lookups, signatures: message.header.numSignerAccounts }
  }
}

/** A transfer of `lamports` from `source` (which must sign later) to `destination`. */
export const transfer = (source: string, destination: string, lamports: bigint): Instruction =>
  getTransferSolInstruction({
    source: createNoopSigner(address(source)),
    destination: address(destination),
    amount: lamports
  })

export const plan = (
  stages: ReadonlyArray<Plan.Stage>,
  readiness: string = "ready"
): Plan.TransactionPlan => ({
  contractVersion: 1,
  operation: { kind: "position_claim", baseMint: "So11111111111111111111111111111111111111112", wallet: "w" },
  asset: { mint: "So11111111111111111111111111111111111111112", tokenProgram: "t", decimals: 9 },
  feeLimits: [],
  transactions: stages,
  readiness: { status: readiness }
})

/** Flips one bit of the byte at `index` of a base64 transaction. */
export const flipByte = (text: string, index: number): string => {
  const bytes = Wire.toBytes(text, "base64")!
  const i = index < 0 ? bytes.length + index : index
  bytes[i] = bytes[i]! ^ 1
  return Wire.fromBytes(bytes, "base64")
}

export const appendBytes = (text: string, extra: ReadonlyArray<number>): string => {
  const bytes = Wire.toBytes(text, "base64")!
  return Wire.fromBytes(Uint8Array.from([...bytes, ...extra]), "base64")
}

export const randomBlockhash = (): string => {
  const bytes = new Uint8Array(32)
  globalThis.crypto.getRandomValues(bytes)
  return Wire.fromBytes(bytes, "base58")
}

export type { Address }

/** A legacy transaction (base58), partially signed by `signNow`. */
export const buildLegacy = async (spec: {
  readonly feePayer: string
  readonly signNow: ReadonlyArray<KeyPairSigner>
  readonly instructions: ReadonlyArray<Instruction>
  readonly blockhash: string
  readonly lastValidBlockHeight?: bigint
  readonly computeUnitLimit?: number
}): Promise<string> => {
  const base = pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageFeePayer(address(spec.feePayer), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({
        blockhash: spec.blockhash as Blockhash,
        lastValidBlockHeight: spec.lastValidBlockHeight ?? 1000n
      }, m)
  )
  const withBudget = spec.computeUnitLimit === undefined ? base : setTransactionMessageComputeUnitLimit(spec.computeUnitLimit, base)
  const compiled = compileTransaction(appendTransactionMessageInstructions(spec.instructions, withBudget))
  const signed = await partiallySignTransaction(spec.signNow.map((s) => s.keyPair), compiled)
  return Wire.fromBytes(new Uint8Array(getTransactionEncoder().encode(signed)), "base58")
}

/** An instruction that makes `signer` a required (read-only) signer without moving funds. */
export const requireSigner = (signer: string): Instruction => ({
  programAddress: address("11111111111111111111111111111111"),
  accounts: [{ address: address(signer), role: 2 }],
  data: new Uint8Array([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
})
