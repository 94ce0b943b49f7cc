/**
 * Instruction builders for the programs LiteSVM preloads (System, SPL Token, Token-2022 with
 * its transfer-fee extension, Associated Token Account, Memo v3; the Address Lookup Table's are
 * `@feeshare/solana/LookupTable`).
 * Hand-written layouts: the program clients published for Kit do not all resolve to the Kit
 * version the sandbox uses.
 */
import { Claims } from "@feeshare/domain"
import {
  AccountRole,
  type Address,
  address,
  createAddressWithSeed,
  getAddressEncoder,
  getProgramDerivedAddress,
  getU64Encoder,
  type Instruction
} from "@solana/kit"

export const SYSTEM_PROGRAM = address("11111111111111111111111111111111")
export const TOKEN_PROGRAM = address(Claims.tokenPrograms.token)
/** The extended token program (Token-2022). */
export const TOKEN_2022_PROGRAM = address(Claims.tokenPrograms["token-2022"])
export const ATA_PROGRAM = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
export const MEMO_PROGRAM = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
/** Wrapped SOL: the default quote mint. */
export const NATIVE_MINT = address("So11111111111111111111111111111111111111112")

/** Size of an SPL Token mint account. */
export const MINT_SIZE = 82

const addressEncoder = getAddressEncoder()
const u64 = getU64Encoder()

const concat = (...parts: ReadonlyArray<ArrayLike<number>>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const u64Bytes = (n: bigint): Uint8Array => new Uint8Array(u64.encode(n))
const u32Bytes = (n: number): Uint8Array => {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setUint32(0, n, true)
  return bytes
}

const readonly = (account: Address) => ({ address: account, role: AccountRole.READONLY })
const writable = (account: Address) => ({ address: account, role: AccountRole.WRITABLE })
const signer = (account: Address) => ({ address: account, role: AccountRole.READONLY_SIGNER })
const writableSigner = (account: Address) => ({ address: account, role: AccountRole.WRITABLE_SIGNER })

/** The associated token account of `owner` for `mint` (of `tokenProgram`, the standard one by default). */
export const associatedTokenAddress = async (
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM
): Promise<Address> => {
  const [ata] = await getProgramDerivedAddress({
    programAddress: ATA_PROGRAM,
    seeds: [addressEncoder.encode(owner), addressEncoder.encode(tokenProgram), addressEncoder.encode(mint)]
  })
  return ata
}

/** System transfer; `extra` accounts are appended read-only (the program ignores them). */
export const transferSol = (
  source: Address,
  destination: Address,
  lamports: bigint,
  extra: ReadonlyArray<Address> = []
): Instruction => ({
  programAddress: SYSTEM_PROGRAM,
  accounts: [writableSigner(source), writable(destination), ...extra.map(readonly)],
  data: concat(u32Bytes(2), u64Bytes(lamports))
})

/** System createAccount: `payer` funds `account` (both sign). */
export const createAccount = (
  payer: Address,
  account: Address,
  lamports: bigint,
  space: number,
  owner: Address
): Instruction => ({
  programAddress: SYSTEM_PROGRAM,
  accounts: [writableSigner(payer), writableSigner(account)],
  data: concat(u32Bytes(0), u64Bytes(lamports), u64Bytes(BigInt(space)), addressEncoder.encode(owner))
})

/** The address `createAccountWithSeed` creates for `base`, `seed` and `owner`. */
export const addressWithSeed = (base: Address, seed: string, owner: Address): Promise<Address> =>
  createAddressWithSeed({ baseAddress: base, programAddress: owner, seed })

/**
 * System CreateAccountWithSeed: `payer` funds the account at `addressWithSeed(base, seed,
 * owner)`; `payer` and `base` sign. It fails when the account exists: a one-time receipt.
 */
export const createAccountWithSeed = (
  payer: Address,
  account: Address,
  base: Address,
  seed: string,
  lamports: bigint,
  space: number,
  owner: Address
): Instruction => {
  const seedBytes = new TextEncoder().encode(seed)
  return {
    programAddress: SYSTEM_PROGRAM,
    accounts: base === payer
      ? [writableSigner(payer), writable(account)]
      : [writableSigner(payer), writable(account), signer(base)],
    data: concat(
      u32Bytes(3),
      addressEncoder.encode(base),
      u64Bytes(BigInt(seedBytes.length)),
      seedBytes,
      u64Bytes(lamports),
      u64Bytes(BigInt(space)),
      addressEncoder.encode(owner)
    )
  }
}

/** SPL Token (or Token-2022) InitializeMint2 (no freeze authority). */
export const initializeMint2 = (
  mint: Address,
  decimals: number,
  mintAuthority: Address,
  tokenProgram: Address = TOKEN_PROGRAM
): Instruction => ({
  programAddress: tokenProgram,
  accounts: [writable(mint)],
  data: concat([20, decimals], addressEncoder.encode(mintAuthority), [0])
})

/** SPL Token (or Token-2022) MintTo. */
export const mintTo = (
  mint: Address,
  destination: Address,
  authority: Address,
  amount: bigint,
  tokenProgram: Address = TOKEN_PROGRAM
): Instruction => ({
  programAddress: tokenProgram,
  accounts: [writable(mint), writable(destination), signer(authority)],
  data: concat([7], u64Bytes(amount))
})

/** SPL Token Transfer. */
export const transferToken = (
  source: Address,
  destination: Address,
  authority: Address,
  amount: bigint
): Instruction => ({
  programAddress: TOKEN_PROGRAM,
  accounts: [writable(source), writable(destination), signer(authority)],
  data: concat([3], u64Bytes(amount))
})

/** SPL Token SyncNative: a wrapped-SOL account's amount follows its lamports. */
export const syncNative = (account: Address): Instruction => ({
  programAddress: TOKEN_PROGRAM,
  accounts: [writable(account)],
  data: new Uint8Array([17])
})

/** Associated Token Account CreateIdempotent (for a mint of `tokenProgram`, the standard one by default). */
export const createAssociatedTokenIdempotent = (
  payer: Address,
  ata: Address,
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM
): Instruction => ({
  programAddress: ATA_PROGRAM,
  accounts: [
    writableSigner(payer),
    writable(ata),
    readonly(owner),
    readonly(mint),
    readonly(SYSTEM_PROGRAM),
    readonly(tokenProgram)
  ],
  data: new Uint8Array([1])
})

/** Memo v3, signed by `signers`. */
export const memo = (text: string, signers: ReadonlyArray<Address> = []): Instruction => ({
  programAddress: MEMO_PROGRAM,
  accounts: signers.map(signer),
  data: new TextEncoder().encode(text)
})

/**
 * The memos the sandbox writes on the transactions it makes, one per kind; the explorer reads
 * the kind back from them (`memoKind`).
 */
export const memoText = {
  airdrop: (n: number) => `sandbox airdrop #${n}`,
  setup: (n: number) => `sandbox set-up #${n}`,
  /** A service transaction (`launch`, `update-config`, `partner-claim`) and what it is about. */
  service: (kind: string, detail?: string) => `${servicePrefix}${kind}${detail === undefined ? "" : ` ${detail}`}`
} as const

const servicePrefix = "feeshare:"

/** The kind a memo of `memoText` names, else undefined. */
export const memoKind = (text: string): string | undefined =>
  text.startsWith("sandbox airdrop #")
    ? "airdrop"
    : text.startsWith("sandbox set-up #")
    ? "setup"
    : text.startsWith(servicePrefix)
    ? (text.slice(servicePrefix.length).split(" ")[0] || undefined)
    : undefined

/** The token amount of an SPL token account's data. */
export const tokenAmount = (data: Uint8Array): bigint | undefined =>
  data.length >= 72 ? new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(64, true) : undefined

// ---- Token-2022 transfer fees ----------------------------------------------------------------

/**
 * Size of a Token-2022 mint with the TransferFeeConfig extension only: the 82-byte mint, padding
 * to 165, the account-type byte, then the extension's type (u16), length (u16) and 108 bytes.
 */
export const TRANSFER_FEE_MINT_SIZE = 165 + 1 + 4 + 108

/** Token-2022's `TransferFeeExtension` instruction; its sub-instruction follows. */
const TRANSFER_FEE_EXTENSION = 26
const u16Bytes = (n: number): Uint8Array => new Uint8Array([n & 0xff, (n >> 8) & 0xff])

/**
 * Token-2022 InitializeTransferFeeConfig (before InitializeMint2): the rate in basis points and
 * the cap, with both authorities set. Token-2022 records it as the schedule of the current epoch.
 */
export const initializeTransferFeeConfig = (
  mint: Address,
  configAuthority: Address,
  withdrawAuthority: Address,
  basisPoints: number,
  maximumFee: bigint
): Instruction => ({
  programAddress: TOKEN_2022_PROGRAM,
  accounts: [writable(mint)],
  data: concat(
    [TRANSFER_FEE_EXTENSION, 0, 1],
    addressEncoder.encode(configAuthority),
    [1],
    addressEncoder.encode(withdrawAuthority),
    u16Bytes(basisPoints),
    u64Bytes(maximumFee)
  )
})

/**
 * Token-2022 TransferCheckedWithFee: moves `amount` (the destination receives `amount - fee`,
 * the fee is withheld in the destination account). Fails with `FeeMismatch` (custom error 32)
 * unless `fee` is the fee of the mint's schedule active at execution.
 */
export const transferCheckedWithFee = (
  source: Address,
  mint: Address,
  destination: Address,
  authority: Address,
  amount: bigint,
  decimals: number,
  fee: bigint
): Instruction => ({
  programAddress: TOKEN_2022_PROGRAM,
  accounts: [writable(source), readonly(mint), writable(destination), signer(authority)],
  data: concat([TRANSFER_FEE_EXTENSION, 1], u64Bytes(amount), [decimals], u64Bytes(fee))
})

/** Token-2022 SetTransferFee: the new schedule becomes active two epochs after the current one. */
export const setTransferFee = (
  mint: Address,
  authority: Address,
  basisPoints: number,
  maximumFee: bigint
): Instruction => ({
  programAddress: TOKEN_2022_PROGRAM,
  accounts: [writable(mint), signer(authority)],
  data: concat([TRANSFER_FEE_EXTENSION, 5], u16Bytes(basisPoints), u64Bytes(maximumFee))
})

/** A transfer-fee schedule: from `epoch` on, `basisPoints` of each transfer, at most `maximumFee`. */
export interface TransferFee {
  readonly epoch: bigint
  readonly maximumFee: bigint
  readonly basisPoints: number
}

/** The TransferFeeConfig extension of a Token-2022 mint. */
export interface TransferFeeConfig {
  readonly withheldAmount: bigint
  readonly older: TransferFee
  readonly newer: TransferFee
}

/** The value of the TLV extension `type` of a Token-2022 mint or account (after the 166-byte base). */
const extension = (data: Uint8Array, type: number): DataView | undefined => {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let offset = 166
  while (offset + 4 <= data.length) {
    const found = view.getUint16(offset, true)
    const length = view.getUint16(offset + 2, true)
    if (offset + 4 + length > data.length) return undefined
    if (found === type) return new DataView(data.buffer, data.byteOffset + offset + 4, length)
    if (found === 0) return undefined
    offset += 4 + length
  }
  return undefined
}

const transferFeeAt = (view: DataView, at: number): TransferFee => ({
  epoch: view.getBigUint64(at, true),
  maximumFee: view.getBigUint64(at + 8, true),
  basisPoints: view.getUint16(at + 16, true)
})

/** The TransferFeeConfig of a Token-2022 mint's data (extension type 1), if it has one. */
export const transferFeeConfig = (data: Uint8Array): TransferFeeConfig | undefined => {
  const view = extension(data, 1)
  if (view === undefined || view.byteLength < 108) return undefined
  return { withheldAmount: view.getBigUint64(64, true), older: transferFeeAt(view, 72), newer: transferFeeAt(view, 90) }
}

/** The schedule Token-2022 applies in `epoch`: the newer one from its epoch on, the older one before. */
export const epochTransferFee = (config: TransferFeeConfig, epoch: bigint): TransferFee =>
  epoch >= config.newer.epoch ? config.newer : config.older

/**
 * The fee Token-2022 charges on a transfer of `amount` under `fee`:
 * `min(ceil(amount * basisPoints / 10000), maximumFee)`, 0 for a zero rate or amount.
 */
export const transferFeeOf = (fee: Pick<TransferFee, "basisPoints" | "maximumFee">, amount: bigint): bigint => {
  if (fee.basisPoints === 0 || amount === 0n) return 0n
  const raw = (amount * BigInt(fee.basisPoints) + 9_999n) / 10_000n
  return raw < fee.maximumFee ? raw : fee.maximumFee
}

/** The amount withheld in a Token-2022 account (its TransferFeeAmount extension, type 2); 0 without one. */
export const withheldAmount = (data: Uint8Array): bigint => {
  const view = extension(data, 2)
  return view === undefined || view.byteLength < 8 ? 0n : view.getBigUint64(0, true)
}
