/**
 * A strict, allocation-light parser of wire transactions (legacy, v0, v1 = SIMD-0385) and
 * their messages. Fields are kept as offsets into the input bytes; nothing is copied or
 * base58-encoded until asked for.
 *
 * Refusals come in two kinds, in the order a reader meets them:
 * - `Malformed`: the envelope cannot be read (the signature slots and the signer addresses
 *   they belong to are not there): exactly the inputs Kit's `getTransactionDecoder` rejects.
 * - `NonCanonical`: the envelope reads, but the message does not parse strictly: truncated,
 *   trailing or misaligned bytes, a shortvec that is not minimal, a signature count that is
 *   not the header's, a header the runtime would reject, an index out of range, a repeated
 *   account, an empty lookup, a v1 config mask with one priority-fee bit or unknown bits.
 *
 * The parsers live by layout: `wireLegacyV0` (signatures first) and `wireV1` (message first),
 * over the shared cursor and checks of `wireReader`; this module dispatches on the first byte
 * and reads fields of a parsed transaction.
 *
 * Private to this package.
 */
import { PublicKey } from "@feeshare/domain"
import type {
  Address,
  CompiledTransactionMessage,
  CompiledTransactionMessageWithLifetime,
  ReadonlyUint8Array
} from "@solana/kit"
import { parseSignaturesFirst } from "./wireLegacyV0.js"
import { KEY, malformed, nonCanonical, type Parsed, Refused, type Result, SIGNATURE } from "./wireReader.js"
import { parseMessageFirst } from "./wireV1.js"

export type { Config, Instruction, Lookup, Parsed, Result } from "./wireReader.js"

/**
 * Parses a wire transaction strictly. Never throws.
 */
export const parse = (bytes: Uint8Array): Result => {
  try {
    if (bytes.length === 0) malformed("no bytes")
    const first = bytes[0]!
    if ((first & 0x80) === 0) return { _tag: "Parsed", parsed: parseSignaturesFirst(bytes) }
    const version = first & 0x7f
    if (version === 0) malformed("a v0 transaction must start with its signatures")
    if (version !== 1) malformed(`unsupported transaction version ${version}`)
    const parsed = parseMessageFirst(bytes)
    // Kit takes the signature count from the header, so a count that the header does not
    // agree with cannot happen here; a zero count can
    if (parsed.signatureCount === 0) nonCanonical("the message has no signer (no fee payer)")
    return { _tag: "Parsed", parsed }
  } catch (error) {
    if (error instanceof Refused) return { _tag: error.kind, reason: error.reason }
    throw error
  }
}

// ---------------------------------------------------------------------------
// accessors
// ---------------------------------------------------------------------------

/** Offset of static account `i` in the wire bytes. */
export const accountOffset = (parsed: Parsed, i: number): number => parsed.staticAccountsOffset + i * KEY

/** Static account `i` as a base58 address. */
export const address = (bytes: Uint8Array, parsed: Parsed, i: number): string => {
  const at = accountOffset(parsed, i)
  return PublicKey.base58.encode(bytes.subarray(at, at + KEY))
}

/** `true` when static account `i` is `key` (32 bytes). */
export const accountIs = (bytes: Uint8Array, parsed: Parsed, i: number, key: Uint8Array): boolean => {
  if (i >= parsed.staticAccountCount) return false
  const at = accountOffset(parsed, i)
  for (let k = 0; k < KEY; k++) if (bytes[at + k] !== key[k]) return false
  return true
}

/** The lifetime token (blockhash or nonce) as base58. */
export const lifetime = (bytes: Uint8Array, parsed: Parsed): string =>
  PublicKey.base58.encode(bytes.subarray(parsed.lifetimeOffset, parsed.lifetimeOffset + KEY))

/** Offset of signature slot `i` in the wire bytes. */
export const signatureOffset = (parsed: Parsed, i: number): number => parsed.signaturesOffset + i * SIGNATURE

/** `true` when signature slot `i` is all zeroes (not signed yet). */
export const isEmptySignature = (bytes: Uint8Array, parsed: Parsed, i: number): boolean => {
  const at = signatureOffset(parsed, i)
  for (let k = 0; k < SIGNATURE; k++) if (bytes[at + k] !== 0) return false
  return true
}

const indexes = (bytes: Uint8Array, offset: number, count: number): Array<number> =>
  Array.from(bytes.subarray(offset, offset + count))

/**
 * The message in Kit's compiled form (the shape `getCompiledTransactionMessageDecoder`
 * gives), built on demand.
 */
export const toCompiledMessage = (
  bytes: Uint8Array,
  parsed: Parsed
): CompiledTransactionMessage & CompiledTransactionMessageWithLifetime => {
  const staticAccounts: Array<Address> = []
  for (let i = 0; i < parsed.staticAccountCount; i++) staticAccounts.push(address(bytes, parsed, i) as Address)
  const header = {
    numSignerAccounts: parsed.numSigners,
    numReadonlySignerAccounts: parsed.numReadonlySigners,
    numReadonlyNonSignerAccounts: parsed.numReadonlyNonSigners
  }
  const lifetimeToken = lifetime(bytes, parsed) as CompiledTransactionMessageWithLifetime["lifetimeToken"]
  if (parsed.version === 1) {
    const { config } = parsed
    const configValues: Array<{ kind: "u32"; value: number } | { kind: "u64"; value: bigint }> = []
    if (config.priorityFee !== undefined) configValues.push({ kind: "u64", value: config.priorityFee })
    if (config.computeUnitLimit !== undefined) configValues.push({ kind: "u32", value: config.computeUnitLimit })
    if (config.loadedAccountsDataSizeLimit !== undefined) {
      configValues.push({ kind: "u32", value: config.loadedAccountsDataSizeLimit })
    }
    if (config.heapSize !== undefined) configValues.push({ kind: "u32", value: config.heapSize })
    return {
      version: 1,
      header,
      configMask: parsed.configMask,
      configValues,
      lifetimeToken,
      numInstructions: parsed.instructions.length,
      numStaticAccounts: parsed.staticAccountCount,
      staticAccounts,
      instructionHeaders: parsed.instructions.map((ix) => ({
        programAccountIndex: ix.programIndex,
        numInstructionAccounts: ix.accountCount,
        numInstructionDataBytes: ix.dataLength
      })),
      instructionPayloads: parsed.instructions.map((ix) => ({
        instructionAccountIndices: indexes(bytes, ix.accountsOffset, ix.accountCount),
        instructionData: bytes.slice(ix.dataOffset, ix.dataOffset + ix.dataLength) as ReadonlyUint8Array
      }))
    }
  }
  const instructions = parsed.instructions.map((ix) => ({
    programAddressIndex: ix.programIndex,
    ...(ix.accountCount > 0 ? { accountIndices: indexes(bytes, ix.accountsOffset, ix.accountCount) } : {}),
    ...(ix.dataLength > 0
      ? { data: bytes.slice(ix.dataOffset, ix.dataOffset + ix.dataLength) as ReadonlyUint8Array }
      : {})
  }))
  if (parsed.version === "legacy") return { version: "legacy", header, staticAccounts, lifetimeToken, instructions }
  return {
    version: 0,
    header,
    staticAccounts,
    lifetimeToken,
    instructions,
    ...(parsed.lookups.length > 0
      ? {
        addressTableLookups: parsed.lookups.map((lookup) => ({
          lookupTableAddress: PublicKey.base58.encode(
            bytes.subarray(lookup.tableOffset, lookup.tableOffset + KEY)
          ) as Address,
          writableIndexes: indexes(bytes, lookup.writableOffset, lookup.writableCount),
          readonlyIndexes: indexes(bytes, lookup.readonlyOffset, lookup.readonlyCount)
        }))
      }
      : {})
  }
}
