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
 * Private to this package.
 */
import type {
  Address,
  CompiledTransactionMessage,
  CompiledTransactionMessageWithLifetime,
  ReadonlyUint8Array
} from "@solana/kit"
import { PublicKey } from "@feeshare/domain"

/** One instruction; offsets are into the wire bytes. */
export interface Instruction {
  readonly programIndex: number
  readonly accountsOffset: number
  readonly accountCount: number
  readonly dataOffset: number
  readonly dataLength: number
}

/** One v0 address-table lookup; offsets are into the wire bytes. */
export interface Lookup {
  readonly tableOffset: number
  readonly writableOffset: number
  readonly writableCount: number
  readonly readonlyOffset: number
  readonly readonlyCount: number
}

/** v1 config values, present when their mask bits are set. */
export interface Config {
  /** Total lamports (mask bits 0 and 1). */
  readonly priorityFee?: bigint
  readonly computeUnitLimit?: number
  readonly loadedAccountsDataSizeLimit?: number
  readonly heapSize?: number
}

/** A parsed wire transaction. Every offset is into the bytes given to `parse`. */
export interface Parsed {
  readonly version: "legacy" | 0 | 1
  /** Number of signature slots (= the header's number of required signatures). */
  readonly signatureCount: number
  readonly signaturesOffset: number
  readonly messageOffset: number
  readonly messageLength: number
  readonly numSigners: number
  readonly numReadonlySigners: number
  readonly numReadonlyNonSigners: number
  readonly staticAccountsOffset: number
  readonly staticAccountCount: number
  readonly lifetimeOffset: number
  readonly instructions: ReadonlyArray<Instruction>
  /** v0 only; empty otherwise. */
  readonly lookups: ReadonlyArray<Lookup>
  /** Accounts loaded through lookups (v0). */
  readonly lookupAccountCount: number
  /** v1 only; 0 otherwise. */
  readonly configMask: number
  /** v1 only; empty otherwise. */
  readonly config: Config
}

/** The outcome of `parse`. */
export type Result =
  | { readonly _tag: "Parsed"; readonly parsed: Parsed }
  | { readonly _tag: "Malformed" | "NonCanonical"; readonly reason: string }

/** v1 config mask bits. */
const configBits = {
  priorityFee: 0b11,
  computeUnitLimit: 0b100,
  loadedAccountsDataSizeLimit: 0b1000,
  heapSize: 0b1_0000
} as const

const knownConfigBits = 0b1_1111
const V1_FIXED = 1 + 3 + 4 + 32 + 1 + 1
const SIGNATURE = 64
const KEY = 32

/** Thrown inside `parse` only, and turned into a `Result`. */
class Refused {
  constructor(readonly kind: "Malformed" | "NonCanonical", readonly reason: string) {}
}

function malformed(reason: string): never {
  throw new Refused("Malformed", reason)
}
function nonCanonical(reason: string): never {
  throw new Refused("NonCanonical", reason)
}

/** A cursor over `bytes` up to `end`, failing with `kind` when it runs past it. */
class Reader {
  /** The first shortvec read that was valid but not minimally encoded. */
  nonMinimal: string | undefined = undefined

  constructor(
    readonly bytes: Uint8Array,
    public offset: number,
    public end: number,
    public kind: "Malformed" | "NonCanonical"
  ) {}

  need(n: number, what: string): number {
    const at = this.offset
    if (n > this.end - at) throw new Refused(this.kind, `truncated ${what} at byte ${at}`)
    this.offset = at + n
    return at
  }

  u8(what: string): number {
    return this.bytes[this.need(1, what)]!
  }

  u16(what: string): number {
    const at = this.need(2, what)
    return this.bytes[at]! | (this.bytes[at + 1]! << 8)
  }

  u32(what: string): number {
    const at = this.need(4, what)
    const b = this.bytes
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
  }

  u64(what: string): bigint {
    const lo = this.u32(what)
    const hi = this.u32(what)
    return (BigInt(hi) << 32n) | BigInt(lo)
  }

  /**
   * A shortvec (compact-u16). Truncated, longer than 3 bytes or above 0xffff is `kind`;
   * a valid but non-minimal encoding sets `nonMinimal` (the caller decides when to refuse,
   * so that the refusal kinds stay in reading order).
   */
  shortvec(what: string): number {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what)
      value |= (byte & 0x7f) << (7 * i)
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) throw new Refused(this.kind, `${what} is above 65535`)
        if (i > 0 && byte === 0) this.nonMinimal ??= `${what} is not minimally encoded`
        return value
      }
    }
    throw new Refused(this.kind, `${what} is longer than 3 bytes`)
  }
}

const sameKey = (bytes: Uint8Array, a: number, b: number): boolean => {
  for (let i = 0; i < KEY; i++) if (bytes[a + i] !== bytes[b + i]) return false
  return true
}

const checkHeader = (signers: number, readonlySigners: number, readonlyNonSigners: number, accounts: number) => {
  if (signers === 0) nonCanonical("the message has no signer (no fee payer)")
  if (readonlySigners >= signers) nonCanonical("the header makes the fee payer read-only")
  if (signers + readonlyNonSigners > accounts) {
    nonCanonical(`the header counts ${signers + readonlyNonSigners} accounts, the message lists ${accounts}`)
  }
}

const checkDistinct = (bytes: Uint8Array, offset: number, count: number) => {
  for (let i = 1; i < count; i++) {
    const at = offset + i * KEY
    for (let j = 0; j < i; j++) {
      if (sameKey(bytes, at, offset + j * KEY)) nonCanonical(`account ${i} repeats account ${j}`)
    }
  }
}

const checkIndexes = (bytes: Uint8Array, offset: number, count: number, limit: number, what: string) => {
  for (let i = 0; i < count; i++) {
    const index = bytes[offset + i]!
    if (index >= limit) nonCanonical(`${what} refers to account ${index} of ${limit}`)
  }
}

const checkProgram = (index: number, statics: number, i: number) => {
  if (index === 0) nonCanonical(`instruction ${i} invokes the fee payer`)
  if (index >= statics) nonCanonical(`instruction ${i} invokes account ${index} of ${statics} static accounts`)
}

/** legacy and v0: shortvec(signature count), signatures, message. */
const parseSignaturesFirst = (bytes: Uint8Array): Parsed => {
  const r = new Reader(bytes, 0, bytes.length, "Malformed")
  const signatureCount = r.shortvec("the signature count")
  const countNonMinimal = r.nonMinimal
  r.nonMinimal = undefined
  const signaturesOffset = r.need(signatureCount * SIGNATURE, "signatures")
  const messageOffset = r.offset
  // the envelope, as Kit reads it: version, header, static accounts
  const first = r.u8("message header")
  let version: "legacy" | 0 | 1 = "legacy"
  let numSigners = first
  if (first & 0x80) {
    const v = first & 0x7f
    if (v > 1) malformed(`unsupported message version ${v}`)
    version = v === 0 ? 0 : 1
    numSigners = r.u8("message header")
  }
  const numReadonlySigners = r.u8("message header")
  const numReadonlyNonSigners = r.u8("message header")
  const staticAccountCount = r.offset < r.end ? r.shortvec("the account count") : 0
  const staticAccountsOffset = r.need(staticAccountCount * KEY, "static accounts")
  if (Math.min(numSigners, staticAccountCount) !== signatureCount) {
    malformed(`${signatureCount} signatures for ${numSigners} signers`)
  }
  // the message, strictly
  r.kind = "NonCanonical"
  if (countNonMinimal !== undefined) nonCanonical(countNonMinimal)
  if (version === 1) nonCanonical("a v1 message in a legacy/v0 envelope")
  if (numSigners !== signatureCount) nonCanonical(`${signatureCount} signatures for ${numSigners} signers`)
  checkHeader(numSigners, numReadonlySigners, numReadonlyNonSigners, staticAccountCount)
  checkDistinct(bytes, staticAccountsOffset, staticAccountCount)
  const lifetimeOffset = r.need(KEY, "lifetime token")
  const instructionCount = r.shortvec("the instruction count")
  const instructions: Array<Instruction> = []
  for (let i = 0; i < instructionCount; i++) {
    const programIndex = r.u8(`instruction ${i}`)
    const accountCount = r.shortvec(`instruction ${i}'s account count`)
    const accountsOffset = r.need(accountCount, `instruction ${i}'s accounts`)
    const dataLength = r.shortvec(`instruction ${i}'s data length`)
    const dataOffset = r.need(dataLength, `instruction ${i}'s data`)
    instructions.push({ programIndex, accountsOffset, accountCount, dataOffset, dataLength })
  }
  const lookups: Array<Lookup> = []
  let lookupAccountCount = 0
  if (version === 0) {
    const lookupCount = r.shortvec("the lookup count")
    for (let i = 0; i < lookupCount; i++) {
      const tableOffset = r.need(KEY, `lookup ${i}'s table`)
      const writableCount = r.shortvec(`lookup ${i}'s writable count`)
      const writableOffset = r.need(writableCount, `lookup ${i}'s writable indexes`)
      const readonlyCount = r.shortvec(`lookup ${i}'s read-only count`)
      const readonlyOffset = r.need(readonlyCount, `lookup ${i}'s read-only indexes`)
      if (writableCount + readonlyCount === 0) nonCanonical(`lookup ${i} loads no account`)
      lookupAccountCount += writableCount + readonlyCount
      lookups.push({ tableOffset, writableOffset, writableCount, readonlyOffset, readonlyCount })
    }
  }
  if (r.nonMinimal !== undefined) nonCanonical(r.nonMinimal)
  if (r.offset !== bytes.length) nonCanonical(`${bytes.length - r.offset} bytes after the end of the message`)
  const total = staticAccountCount + lookupAccountCount
  if (total > 256) nonCanonical(`the message loads ${total} accounts (at most 256)`)
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i]!
    checkProgram(ix.programIndex, staticAccountCount, i)
    checkIndexes(bytes, ix.accountsOffset, ix.accountCount, total, `instruction ${i}`)
  }
  return {
    version,
    signatureCount,
    signaturesOffset,
    messageOffset,
    messageLength: bytes.length - messageOffset,
    numSigners,
    numReadonlySigners,
    numReadonlyNonSigners,
    staticAccountsOffset,
    staticAccountCount,
    lifetimeOffset,
    instructions,
    lookups,
    lookupAccountCount,
    configMask: 0,
    config: {}
  }
}

/** v1: message (starting 0x81), then exactly `header[0]` signatures. */
const parseMessageFirst = (bytes: Uint8Array): Parsed => {
  // the envelope, as Kit reads it: the signature count is the header's first byte and the
  // signer addresses sit right after the fixed fields
  if (bytes.length < 2) malformed("truncated v1 header")
  const signatureCount = bytes[1]!
  const messageLength = bytes.length - signatureCount * SIGNATURE
  if (messageLength < 0) malformed(`${signatureCount} signatures do not fit in ${bytes.length} bytes`)
  if (signatureCount > 0 && V1_FIXED + signatureCount * KEY > messageLength) malformed("truncated signer addresses")
  // the message, strictly
  const r = new Reader(bytes, 1, messageLength, "NonCanonical")
  const numSigners = r.u8("message header")
  const numReadonlySigners = r.u8("message header")
  const numReadonlyNonSigners = r.u8("message header")
  const configMask = r.u32("config mask")
  const lifetimeOffset = r.need(KEY, "lifetime token")
  const instructionCount = r.u8("instruction count")
  const staticAccountCount = r.u8("account count")
  const staticAccountsOffset = r.need(staticAccountCount * KEY, "static accounts")
  checkHeader(numSigners, numReadonlySigners, numReadonlyNonSigners, staticAccountCount)
  checkDistinct(bytes, staticAccountsOffset, staticAccountCount)
  const feeBits = configMask & configBits.priorityFee
  if (feeBits === 1 || feeBits === 2) nonCanonical("the config mask sets one priority-fee bit of two")
  if ((configMask & ~knownConfigBits) !== 0) nonCanonical(`unknown config mask bits 0x${configMask.toString(16)}`)
  const config: {
    priorityFee?: bigint
    computeUnitLimit?: number
    loadedAccountsDataSizeLimit?: number
    heapSize?: number
  } = {}
  if (feeBits === configBits.priorityFee) config.priorityFee = r.u64("priority fee")
  if (configMask & configBits.computeUnitLimit) config.computeUnitLimit = r.u32("compute-unit limit")
  if (configMask & configBits.loadedAccountsDataSizeLimit) {
    config.loadedAccountsDataSizeLimit = r.u32("loaded-accounts-data limit")
  }
  if (configMask & configBits.heapSize) config.heapSize = r.u32("heap size")
  const headersOffset = r.need(instructionCount * 4, "instruction headers")
  const instructions: Array<Instruction> = []
  for (let i = 0; i < instructionCount; i++) {
    const at = headersOffset + i * 4
    const programIndex = bytes[at]!
    const accountCount = bytes[at + 1]!
    const dataLength = bytes[at + 2]! | (bytes[at + 3]! << 8)
    const accountsOffset = r.need(accountCount, `instruction ${i}'s accounts`)
    const dataOffset = r.need(dataLength, `instruction ${i}'s data`)
    checkProgram(programIndex, staticAccountCount, i)
    checkIndexes(bytes, accountsOffset, accountCount, staticAccountCount, `instruction ${i}`)
    instructions.push({ programIndex, accountsOffset, accountCount, dataOffset, dataLength })
  }
  if (r.offset !== messageLength) nonCanonical(`${messageLength - r.offset} bytes after the end of the message`)
  return {
    version: 1,
    signatureCount,
    signaturesOffset: messageLength,
    messageOffset: 0,
    messageLength,
    numSigners,
    numReadonlySigners,
    numReadonlyNonSigners,
    staticAccountsOffset,
    staticAccountCount,
    lifetimeOffset,
    instructions,
    lookups: [],
    lookupAccountCount: 0,
    configMask,
    config
  }
}

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
    ...(ix.dataLength > 0 ? { data: bytes.slice(ix.dataOffset, ix.dataOffset + ix.dataLength) as ReadonlyUint8Array } : {})
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
