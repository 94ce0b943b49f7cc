/**
 * FastCheck arbitraries for values whose Schema arbitrary cannot produce valid inputs
 * (base58 keys, checksummed addresses, bps arrays summing to 10000, whole plans).
 */
import { Effect, Either, FastCheck as fc, Option } from "effect"
import type { InvalidRequest } from "../src/FeeShareError.js"
import { EvmAddress, Plan, PublicKey, RawAmount, WireTransaction } from "../src/index.js"

/** A valid public key built from 32 random bytes. */
export const publicKey: fc.Arbitrary<string> = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(PublicKey.fromBytes)

/** `n` distinct public keys. */
export const distinctPublicKeys = (min: number, max: number): fc.Arbitrary<Array<string>> =>
  fc.uniqueArray(publicKey, { minLength: min, maxLength: max })

/** Base58 text that decodes to a length other than 32 bytes. */
export const wrongLengthKey: fc.Arbitrary<string> = fc
  .oneof(fc.uint8Array({ minLength: 1, maxLength: 31 }), fc.uint8Array({ minLength: 33, maxLength: 64 }))
  .map(PublicKey.base58.encode)

/** A valid-length key with one character replaced by one outside the base58 alphabet. */
export const nonBase58Key: fc.Arbitrary<string> = fc
  .tuple(publicKey, fc.nat(), fc.constantFrom("0", "O", "I", "l", "+", "/", " ", "é"))
  .map(([key, at, bad]) => {
    const i = at % key.length
    return key.slice(0, i) + bad + key.slice(i + 1)
  })

/** Anything that is not a public key. */
export const notPublicKey: fc.Arbitrary<string> = fc.oneof(wrongLengthKey, nonBase58Key, fc.constant(""))

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** A lower-case 0x address. */
export const lowerAddress: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${hex(bytes)}`)

/** An address in a random casing that is accepted: lower, upper or EIP-55. */
export const acceptedAddress: fc.Arbitrary<string> = fc
  .tuple(lowerAddress, fc.constantFrom("lower", "upper", "checksum"))
  .map(([lower, casing]) =>
    casing === "lower" ? lower : casing === "upper" ? `0x${lower.slice(2).toUpperCase()}` : EvmAddress.toChecksum(lower)
  )

/** Random casing of the hex letters of an address (may or may not be a valid checksum). */
export const anyCasing = (lower: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }).map((upper) =>
    "0x" + Array.from(lower.slice(2), (c, i) => (upper[i] ? c.toUpperCase() : c)).join("")
  )

/** `n` basis points (1 ≤ n ≤ 100) that sum to exactly 10000. */
export const bpsSumming = (n: number): fc.Arbitrary<Array<number>> =>
  fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const sorted = [0, ...cuts.sort((a, b) => a - b), 10_000]
    return sorted.slice(1).map((c, i) => c - sorted[i]!)
  })

/** A u64 as bigint. */
export const u64: fc.Arbitrary<bigint> = fc.bigInt({ min: 0n, max: RawAmount.maxU64 })

/** A non-empty base64 transaction. */
export const base64Transaction: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 1, maxLength: 96 })
  .map((bytes) => WireTransaction.fromBytes(bytes, "base64"))

/** A non-empty base58 transaction. */
export const base58Transaction: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 1, maxLength: 96 })
  .map((bytes) => WireTransaction.fromBytes(bytes, "base58"))

/** 64 lower-case hex digits. */
export const sha256Hex: fc.Arbitrary<string> = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(hex)

/** The wire form of a valid stage with the given id, dependencies and format. */
export const encodedStage = (
  id: string,
  dependsOn: ReadonlyArray<string>,
  format: "v0" | "v1"
): fc.Arbitrary<typeof Plan.Stage.Encoded> =>
  fc.record({
    transaction: base64Transaction,
    messageSha256: sha256Hex,
    requiredSigners: fc.array(publicKey, { maxLength: 3 }),
    blockhash: publicKey,
    lastValidBlockHeight: u64,
    computeUnitLimit: fc.integer({ min: 0, max: 1_400_000 }),
    loadedAccountsDataSizeLimit: fc.integer({ min: 0, max: 0xffff_ffff }),
    fee: u64,
    kind: fc.constantFrom(...Plan.StageKind.literals),
    size: fc.record({ bytes: fc.nat(4096), accounts: fc.nat(256), signatures: fc.nat(16) })
  }).map((r) => ({
    id,
    kind: r.kind,
    dependsOn: [...dependsOn],
    format,
    encoding: "base64" as const,
    transaction: r.transaction,
    messageSha256: r.messageSha256,
    requiredSigners: r.requiredSigners,
    lifetime: { blockhash: r.blockhash, lastValidBlockHeight: r.lastValidBlockHeight.toString() },
    budget: {
      computeUnitLimit: r.computeUnitLimit,
      loadedAccountsDataSizeLimit: r.loadedAccountsDataSizeLimit,
      priorityFee: { unit: Plan.priorityFeeUnit[format], amount: r.fee.toString() }
    },
    size: r.size
  }))

/**
 * Dependencies of a random DAG in topological order: stage `i` depends on a subset of the
 * stages before it.
 */
export const dagDependencies = (maxStages: number): fc.Arbitrary<Array<Array<number>>> =>
  fc.integer({ min: 0, max: maxStages }).chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        i === 0 ? fc.constant<Array<number>>([]) : fc.uniqueArray(fc.nat(i - 1), { maxLength: Math.min(i, 4) }))
    )
  )

/** The wire form of a valid plan over the given dependency lists. */
export const encodedPlan = (
  deps: ReadonlyArray<ReadonlyArray<number>>,
  format: "v0" | "v1" = "v1"
): fc.Arbitrary<typeof Plan.TransactionPlan.Encoded> =>
  fc.tuple(
    fc.tuple(...deps.map((ds, i) => encodedStage(`s${i}`, ds.map((d) => `s${d}`), format))),
    publicKey,
    publicKey
  ).map(([stages, mint, program]) => ({
    contractVersion: 1 as const,
    operation: { kind: "position_claim" as const, baseMint: mint, wallet: program },
    asset: { mint, tokenProgram: program, decimals: 9 },
    feeLimits: [],
    transactions: stages,
    readiness: { status: stages.length === 0 ? Plan.setupRequired : "ready" }
  }))

/** The failure of `Validation.decodeRequest`, or `undefined` when it decodes. */
export const decodeFailure = (effect: Effect.Effect<unknown, InvalidRequest>): InvalidRequest | undefined =>
  Option.getOrUndefined(Either.getLeft(Effect.runSync(Effect.either(effect))))

// ---------------------------------------------------------------------------
// trade quotes with unknown fields
// ---------------------------------------------------------------------------

const known = new Set([
  "requestId",
  "contextSlot",
  "inAmount",
  "inputMint",
  "outAmount",
  "outputMint",
  "minOutAmount",
  "otherAmountThreshold",
  "priceImpactPct",
  "slippageBps",
  "routePlan",
  "platformFee",
  "outTransferFee",
  "simulatedComputeUnits",
  "venue",
  "marketKey",
  "data",
  "inputMintDecimals",
  "outputMintDecimals",
  "amount",
  "feeBps",
  "feeAccount",
  "segmenterFeeAmount",
  "segmenterFeePct"
])

/** Unknown fields (with any JSON values, nested objects too). */
const extras = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && k !== "__proto__"),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 4 }
)

const amount = u64.map(String)

const routeStep = fc.tuple(
  fc.record({
    venue: fc.string(),
    inAmount: amount,
    outAmount: amount,
    inputMint: publicKey,
    outputMint: publicKey,
    inputMintDecimals: fc.nat(18),
    outputMintDecimals: fc.nat(18),
    marketKey: publicKey,
    data: fc.string()
  }),
  extras
).map(([step, more]) => ({ ...more, ...step }))

/** A quote as JSON: known fields, optional/nullable ones, and unknown ones at every level. */
export const quoteJson = fc.tuple(
  fc.record({
    requestId: fc.uuid(),
    contextSlot: fc.nat(),
    inAmount: amount,
    inputMint: publicKey,
    outAmount: amount,
    outputMint: publicKey,
    minOutAmount: amount,
    otherAmountThreshold: amount,
    priceImpactPct: fc.double({ min: 0, max: 1, noNaN: true }).map(String),
    slippageBps: fc.integer({ min: 0, max: 10_000 }),
    routePlan: fc.array(routeStep, { maxLength: 3 })
  }),
  fc.option(
    fc.tuple(
      fc.record({
        amount,
        feeBps: fc.nat(10_000),
        feeAccount: publicKey,
        segmenterFeeAmount: amount,
        segmenterFeePct: fc.nat(100)
      }),
      extras
    ).map(([fee, more]) => ({ ...more, ...fee })),
    { nil: undefined }
  ),
  fc.option(fc.option(amount), { nil: undefined }),
  fc.option(fc.option(fc.nat()), { nil: undefined }),
  extras
).map(([quote, platformFee, outTransferFee, simulatedComputeUnits, more]) => ({
  ...more,
  ...quote,
  ...(platformFee === undefined ? {} : { platformFee }),
  ...(outTransferFee === undefined ? {} : { outTransferFee }),
  ...(simulatedComputeUnits === undefined ? {} : { simulatedComputeUnits })
}))

/** Replaces the node of a JSON value found by following `path` (indexes modulo the sizes). */
export const mutate = (value: unknown, path: ReadonlyArray<number>, replacement: unknown): unknown => {
  if (path.length === 0 || value === null || typeof value !== "object") return replacement
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement
    const copy: Array<unknown> = [...value]
    const i = path[0]! % value.length
    copy[i] = mutate(copy[i], path.slice(1), replacement)
    return copy
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return replacement
  const key = keys[path[0]! % keys.length]!
  const copy: Record<string, unknown> = { ...value }
  copy[key] = mutate(copy[key], path.slice(1), replacement)
  return copy
}
