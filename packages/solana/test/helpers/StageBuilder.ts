// Builds plan stages the way the service does: compile, partially sign with the service's
// keys, and compute the metadata (messageSha256 of the message bytes, requiredSigners,
// lifetime, budget, size).
import type { Plan } from "@feeshare/domain"
import { WireTransaction as Wire } from "@feeshare/domain"
import { getTransferSolInstruction } from "@solana-program/system"
import {
  type Address,
  address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash
} from "@solana/kit"
import { build, sha256Hex, stageOf } from "../../src/StageBuilder.js"

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

export { sha256Hex }

/** A stage as the service builds it (the builder the sandbox uses), base64 on the wire. */
export const buildStage = async (spec: StageSpec): Promise<Plan.Stage> => {
  const budget = spec.budget ?? defaultBudget
  const built = await build({
    format: spec.format,
    feePayer: spec.feePayer.address,
    instructions: spec.instructions,
    lifetime: spec.lifetime,
    signers: [spec.feePayer, ...(spec.serverSigners ?? [])],
    budget: spec.format === "v1" && spec.omitV1Limits === true ? undefined : budget,
    lookupTables: spec.lookupTables
  })
  return stageOf({
    id: spec.id,
    kind: spec.kind ?? "claim",
    dependsOn: spec.dependsOn ?? [],
    format: spec.format,
    lifetime: spec.lifetime,
    budget
  }, built)
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
  const withBudget = spec.computeUnitLimit === undefined
    ? base
    : setTransactionMessageComputeUnitLimit(spec.computeUnitLimit, base)
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
