/**
 * Address lookup tables: the program's address, the table address of an authority and a
 * recent slot, the create and extend instructions, and the table account's layout (its
 * authority and the addresses it holds). Hand-written layouts: the program client published
 * for Kit peers on an older Kit.
 *
 * @since 0.1.0
 */
import {
  AccountRole,
  type Address,
  address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU64Encoder,
  type Instruction
} from "@solana/kit"
import { concat } from "./internal/bytes.js"

/**
 * The Address Lookup Table program.
 *
 * @since 0.1.0
 * @category constants
 */
export const programAddress = address("AddressLookupTab1e1111111111111111111111111")

const systemProgram = address("11111111111111111111111111111111")

/**
 * How many addresses one extend instruction adds (so that its transaction stays small).
 *
 * @since 0.1.0
 * @category constants
 */
export const extendChunk = 25

/**
 * The most addresses a table holds.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxAddresses = 256

/** Size of a table account's header, before its addresses. */
const headerSize = 56

const addressEncoder = getAddressEncoder()
const addressDecoder = getAddressDecoder()
const u64 = getU64Encoder()

const u32Bytes = (n: number): Uint8Array => {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setUint32(0, n, true)
  return bytes
}

const tableAccounts = (table: Address, authority: Address, payer: Address) => [
  { address: table, role: AccountRole.WRITABLE },
  { address: authority, role: AccountRole.READONLY_SIGNER },
  { address: payer, role: AccountRole.WRITABLE_SIGNER },
  { address: systemProgram, role: AccountRole.READONLY }
]

/**
 * The table address of `authority` created at `recentSlot`, and its bump.
 *
 * @since 0.1.0
 * @category addresses
 */
export const tableAddress = async (authority: Address, recentSlot: bigint): Promise<readonly [Address, number]> => {
  const [table, bump] = await getProgramDerivedAddress({
    programAddress,
    seeds: [addressEncoder.encode(authority), u64.encode(recentSlot)]
  })
  return [table, bump] as const
}

/**
 * CreateLookupTable (the authority signs, as the program accepts); `recentSlot` must be in
 * the SlotHashes sysvar.
 *
 * @since 0.1.0
 * @category instructions
 */
export const create = (
  table: Address,
  authority: Address,
  payer: Address,
  recentSlot: bigint,
  bump: number
): Instruction => ({
  programAddress,
  accounts: tableAccounts(table, authority, payer),
  data: concat(u32Bytes(0), u64.encode(recentSlot), [bump])
})

/**
 * ExtendLookupTable: appends `addresses`; usable by transactions from the next slot on.
 *
 * @since 0.1.0
 * @category instructions
 */
export const extend = (
  table: Address,
  authority: Address,
  payer: Address,
  addresses: ReadonlyArray<Address>
): Instruction => ({
  programAddress,
  accounts: tableAccounts(table, authority, payer),
  data: concat(u32Bytes(2), u64.encode(BigInt(addresses.length)), ...addresses.map((a) => addressEncoder.encode(a)))
})

/**
 * A table account's data read: its authority (`null` once frozen), the slot of its last
 * extension, and the addresses it holds; `undefined` when the data is not a table.
 *
 * @since 0.1.0
 * @category layout
 */
export const parse = (data: Uint8Array): {
  readonly authority: Address | null
  readonly lastExtendedSlot: bigint
  readonly addresses: ReadonlyArray<Address>
} | undefined => {
  if (data.length < headerSize || (data.length - headerSize) % 32 !== 0) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  // u32 type (1 = lookup table), u64 deactivation slot, u64 last extended slot, u8 start index,
  // Option<Pubkey> authority (tag at 21), u16 padding
  if (view.getUint32(0, true) !== 1) return undefined
  const authority = data[21] === 1 ? addressDecoder.decode(data.subarray(22, 54)) : null
  const addresses: Array<Address> = []
  for (let offset = headerSize; offset < data.length; offset += 32) {
    addresses.push(addressDecoder.decode(data.subarray(offset, offset + 32)))
  }
  return { authority, lastExtendedSlot: view.getBigUint64(12, true), addresses }
}

/**
 * The addresses a table account's data holds (after its 56-byte header).
 *
 * @since 0.1.0
 * @category layout
 */
export const addressesOf = (data: Uint8Array): ReadonlyArray<Address> | undefined => parse(data)?.addresses

/**
 * `addresses` in chunks of `extendChunk`, one per extend instruction.
 *
 * @since 0.1.0
 * @category instructions
 */
export const chunks = <A>(addresses: ReadonlyArray<A>, size: number = extendChunk): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < addresses.length; i += size) out.push(addresses.slice(i, i + size))
  return out
}
