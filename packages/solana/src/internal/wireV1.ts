/**
 * The v1 wire format (SIMD-0385): the message first (version byte 0x81, the header, the config
 * mask, the blockhash, fixed-width counts, the static accounts, the config values, the
 * instruction headers and payloads), then exactly as many signatures as the header's first
 * byte says.
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
  malformed,
  nonCanonical,
  type Parsed,
  Reader,
  SIGNATURE
} from "./wireReader.js"

/** v1 config mask bits. */
const configBits = {
  priorityFee: 0b11,
  computeUnitLimit: 0b100,
  loadedAccountsDataSizeLimit: 0b1000,
  heapSize: 0b1_0000
} as const

const knownConfigBits = 0b1_1111
const V1_FIXED = 1 + 3 + 4 + 32 + 1 + 1

/** v1: message (starting 0x81), then exactly `header[0]` signatures. */
export const parseMessageFirst = (bytes: Uint8Array): Parsed => {
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
