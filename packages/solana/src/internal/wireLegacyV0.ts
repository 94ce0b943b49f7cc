/**
 * The legacy and v0 wire format: a shortvec signature count, the signatures, then the message
 * (an optional version byte, the header, the static accounts, the blockhash, the
 * instructions, and for v0 the address-table lookups).
 *
 * Private to this package.
 */
import {
  checkDistinct,
  checkHeader,
  checkIndexes,
  checkProgram,
  type Instruction,
  KEY,
  type Lookup,
  malformed,
  nonCanonical,
  type Parsed,
  Reader,
  SIGNATURE
} from "./wireReader.js"

/** legacy and v0: shortvec(signature count), signatures, message. */
export const parseSignaturesFirst = (bytes: Uint8Array): Parsed => {
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
