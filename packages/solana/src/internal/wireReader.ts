/**
 * What the wire-format parsers share: the parsed shapes (offsets into the input bytes), the
 * two kinds of refusal, a bounds-checked cursor, and the message checks common to every
 * version (header, distinct accounts, indexes, program ids).
 *
 * Private to this package.
 */

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

/** Bytes in a signature. */
export const SIGNATURE = 64
/** Bytes in an address (and a blockhash). */
export const KEY = 32

/** Thrown inside `parse` only, and turned into a `Result`. */
export class Refused {
  constructor(readonly kind: "Malformed" | "NonCanonical", readonly reason: string) {}
}

/** Refuses an envelope that cannot be read. */
export function malformed(reason: string): never {
  throw new Refused("Malformed", reason)
}
/** Refuses a message that does not parse strictly. */
export function nonCanonical(reason: string): never {
  throw new Refused("NonCanonical", reason)
}

/** A cursor over `bytes` up to `end`, failing with `kind` when it runs past it. */
export class Reader {
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

/** The header keeps a writable signing fee payer and counts no more accounts than listed. */
export const checkHeader = (signers: number, readonlySigners: number, readonlyNonSigners: number, accounts: number) => {
  if (signers === 0) nonCanonical("the message has no signer (no fee payer)")
  if (readonlySigners >= signers) nonCanonical("the header makes the fee payer read-only")
  if (signers + readonlyNonSigners > accounts) {
    nonCanonical(`the header counts ${signers + readonlyNonSigners} accounts, the message lists ${accounts}`)
  }
}

/** No static account is listed twice. */
export const checkDistinct = (bytes: Uint8Array, offset: number, count: number) => {
  for (let i = 1; i < count; i++) {
    const at = offset + i * KEY
    for (let j = 0; j < i; j++) {
      if (sameKey(bytes, at, offset + j * KEY)) nonCanonical(`account ${i} repeats account ${j}`)
    }
  }
}

/** Every account index of an instruction is below `limit`. */
export const checkIndexes = (bytes: Uint8Array, offset: number, count: number, limit: number, what: string) => {
  for (let i = 0; i < count; i++) {
    const index = bytes[offset + i]!
    if (index >= limit) nonCanonical(`${what} refers to account ${index} of ${limit}`)
  }
}

/** An instruction invokes a static account other than the fee payer. */
export const checkProgram = (index: number, statics: number, i: number) => {
  if (index === 0) nonCanonical(`instruction ${i} invokes the fee payer`)
  if (index >= statics) nonCanonical(`instruction ${i} invokes account ${index} of ${statics} static accounts`)
}
