/**
 * Verifying the claims the service answers with ready transactions and no plan metadata:
 *
 * - gas-sponsored claims (the vault sweep of `claim-vault`, the deployer's claim batch): the
 *   sponsor is the fee payer and its signature is present and valid (and kept when the wallet
 *   signs); the wallet's slot is the only empty one; the wallet's signature is taken only by
 *   memos (its authorization), so nothing moves out of the wallet; the proceeds go to the
 *   wallet's own token account for the quote mint;
 * - v3 claims: canonical decode (legacy or v0), the wallet as the fee payer and its slot the
 *   only empty one, the stated blockhash.
 *
 * The instruction rules are pure functions over the message (`sponsoredRefusal`).
 *
 * @since 0.1.0
 */
import type { ClaimTransactions, FeeShare, Signer } from "@feeshare/domain"
import { type Address, address, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit"
import { Effect, Option } from "effect"
import { decode, type Decoded } from "./TransactionDecoding.js"
import {
  DestinationMismatch,
  FeePayerMismatch,
  InvalidSignature,
  LifetimeMismatch,
  MissingSigner,
  type Refusal,
  SignatureUnavailable,
  WalletOutflow
} from "./TransactionRefusal.js"
import { type Verified, verifyWalletTransaction } from "./TransactionVerification.js"

/**
 * Programs whose instructions the rules read.
 *
 * @since 0.1.0
 * @category constants
 */
export const programs = {
  system: "11111111111111111111111111111111",
  token: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  token2022: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  associatedToken: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
  memo: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  memoV1: "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"
} as const

/**
 * One top-level instruction as the rules read it: its program, its accounts (an account
 * loaded from a lookup table reads `lookup:<index>`, never a signer) and which of them sign.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReadInstruction {
  readonly program: string
  readonly accounts: ReadonlyArray<string>
  readonly signs: ReadonlyArray<boolean>
  readonly writes: ReadonlyArray<boolean>
  readonly data: Uint8Array
}

/**
 * A message as the rules read it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ReadMessage {
  readonly label: string
  /** Signer accounts in message order; the first is the fee payer. */
  readonly signers: ReadonlyArray<string>
  readonly instructions: ReadonlyArray<ReadInstruction>
}

/**
 * What a gas-sponsored claim must do: `wallet` signs as the authorizer; `destinations` are
 * the wallet's own token accounts for the quote mint (one per token program); `source`, when
 * known, is the vault the claim pays out of; `sponsor`, when known, must be the fee payer.
 *
 * @since 0.1.0
 * @category models
 */
export interface SponsoredClaim {
  readonly wallet: string
  readonly destinations: ReadonlyArray<string>
  readonly source?: string | undefined
  readonly sponsor?: string | undefined
}

/** The accounts of a message: static keys, then lookup-table keys (unresolved). */
const accountsOf = (decoded: Decoded) => {
  const message = decoded.message
  const header = message.header
  const statics = message.staticAccounts
  const count = statics.length
  const signerCount = header.numSignerAccounts
  const writableSigners = signerCount - header.numReadonlySignerAccounts
  const writableStatics = count - header.numReadonlyNonSignerAccounts
  const lookupWritable = "addressTableLookups" in message && message.addressTableLookups !== undefined
    ? message.addressTableLookups.reduce((n, lookup) => n + lookup.writableIndexes.length, 0)
    : 0
  return {
    key: (i: number): string => i < count ? statics[i]! : `lookup:${i - count}`,
    signs: (i: number): boolean => i < signerCount,
    writes: (i: number): boolean =>
      i < signerCount ? i < writableSigners : i < count ? i < writableStatics : i - count < lookupWritable
  }
}

/**
 * The message of a decoded transaction as the rules read it (legacy, v0 or v1).
 *
 * @since 0.1.0
 * @category reading
 */
export const readMessage = (decoded: Decoded): ReadMessage => {
  const message = decoded.message
  const accounts = accountsOf(decoded)
  const read = (program: number, indices: ReadonlyArray<number>, data: ArrayLike<number>): ReadInstruction => ({
    program: accounts.key(program),
    accounts: indices.map(accounts.key),
    signs: indices.map(accounts.signs),
    writes: indices.map(accounts.writes),
    data: Uint8Array.from(data)
  })
  const instructions = message.version === 1
    ? message.instructionHeaders.map((header, i) =>
      read(
        header.programAccountIndex,
        message.instructionPayloads[i]?.instructionAccountIndices ?? [],
        message.instructionPayloads[i]?.instructionData ?? []
      )
    )
    : message.instructions.map((ix) => read(ix.programAddressIndex, ix.accountIndices ?? [], ix.data ?? []))
  return { label: decoded.label, signers: decoded.signers, instructions }
}

const u32 = (data: Uint8Array): number | undefined =>
  data.length < 4 ? undefined : (data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24)) >>> 0

/**
 * A transfer the rules can read: System Transfer (2) and TransferWithSeed (11), SPL Token
 * and Token-2022 Transfer (3), TransferChecked (12) and TransferCheckedWithFee (26/1).
 *
 * @since 0.1.0
 * @category reading
 */
export const transferOf = (
  instruction: ReadInstruction
): { readonly source: string; readonly destination: string } | undefined => {
  const { accounts, data, program } = instruction
  if (program === programs.system) {
    const tag = u32(data)
    if (tag === 2 && accounts.length >= 2) return { source: accounts[0]!, destination: accounts[1]! }
    if (tag === 11 && accounts.length >= 3) return { source: accounts[0]!, destination: accounts[2]! }
    return undefined
  }
  if (program === programs.token || program === programs.token2022) {
    const tag = data[0]
    if (tag === 3 && accounts.length >= 2) return { source: accounts[0]!, destination: accounts[1]! }
    if (tag === 12 && accounts.length >= 3) return { source: accounts[0]!, destination: accounts[2]! }
    if (tag === 26 && data[1] === 1 && accounts.length >= 3) return { source: accounts[0]!, destination: accounts[2]! }
  }
  return undefined
}

const isMemo = (program: string) => program === programs.memo || program === programs.memoV1

/**
 * Instructions that may list the wallet (a signer of the message) without using its
 * signature: a memo (the authorization itself), and an associated-token-account creation that
 * someone else funds (the wallet is only the owner of the account made).
 */
const harmless = (instruction: ReadInstruction, wallet: string) =>
  isMemo(instruction.program) ||
  (instruction.program === programs.associatedToken && instruction.accounts[0] !== wallet &&
    (instruction.data.length === 0 || instruction.data[0] === 0 || instruction.data[0] === 1))

/**
 * The first rule a gas-sponsored claim breaks, in this order, or `undefined`:
 * 1. the fee payer is not the wallet (and is `sponsor` when one is named): `FeePayerMismatch`;
 * 2. the wallet signs the message: `MissingSigner`;
 * 3. only memos take the wallet's signature (any other instruction could move funds out of
 *    the wallet; an account creation someone else funds may name the wallet as the owner):
 *    `WalletOutflow`;
 * 4. the message writes one of `destinations`, and every transfer it makes out of `source`
 *    goes to one of them: `DestinationMismatch`.
 *
 * The signature rules (the sponsor's present and valid, the wallet's slot the only empty one)
 * are checked on the decoded transaction by `verifySponsored`.
 *
 * @since 0.1.0
 * @category rules
 */
export const sponsoredRefusal = (message: ReadMessage, claim: SponsoredClaim): Refusal | undefined => {
  const stage = message.label
  const payer = message.signers[0] ?? ""
  if (payer === claim.wallet || (claim.sponsor !== undefined && payer !== claim.sponsor)) {
    return new FeePayerMismatch({
      stage,
      signer: payer,
      message: payer === claim.wallet
        ? `${stage}: the wallet ${claim.wallet} pays the fee of a gas-sponsored claim; the sponsor must`
        : `${stage}: the fee payer is ${payer}, not the sponsor ${claim.sponsor}`
    })
  }
  if (!message.signers.includes(claim.wallet)) {
    return new MissingSigner({
      stage,
      signer: claim.wallet,
      message: `${stage}: the wallet ${claim.wallet} is not a signer of the message`
    })
  }
  for (const [i, instruction] of message.instructions.entries()) {
    const signed = instruction.accounts.some((account, j) => account === claim.wallet && instruction.signs[j] === true)
    if (signed && !harmless(instruction, claim.wallet)) {
      return new WalletOutflow({
        stage,
        instruction: i,
        program: instruction.program,
        message:
          `${stage}: instruction ${i} (program ${instruction.program}) takes the wallet's signature; in a gas-sponsored claim only a memo may, so nothing moves out of the wallet`
      })
    }
  }
  const written = message.instructions.some((instruction) =>
    instruction.accounts.some((account, j) => claim.destinations.includes(account) && instruction.writes[j] === true)
  )
  if (!written) {
    return new DestinationMismatch({
      stage,
      destination: "",
      message: `${stage}: the message does not write the wallet's token account (${claim.destinations.join(" or ")})`
    })
  }
  if (claim.source !== undefined) {
    for (const instruction of message.instructions) {
      const transfer = transferOf(instruction)
      if (
        transfer !== undefined && transfer.source === claim.source && !claim.destinations.includes(transfer.destination)
      ) {
        return new DestinationMismatch({
          stage,
          destination: transfer.destination,
          message: `${stage}: the vault ${claim.source} pays ${transfer.destination}, not the wallet's token account (${
            claim.destinations.join(" or ")
          })`
        })
      }
    }
  }
  return undefined
}

/** The sponsor's signature present and valid, the wallet's slot the only empty one, every signature valid. */
const signatureRefusal = (decoded: Decoded, wallet: string): Refusal | undefined => {
  const stage = decoded.label
  const signatures = decoded.transaction.signatures
  for (let i = 0; i < decoded.signers.length; i++) {
    const address = decoded.signers[i]!
    if (decoded.signatureChecks[i] !== true) {
      return new InvalidSignature({
        stage,
        signer: address,
        message: `${stage}: the signature of ${address} does not verify`
      })
    }
    if (address !== wallet && signatures[address as keyof typeof signatures] === null) {
      return new SignatureUnavailable({
        stage,
        signer: address,
        message: i === 0
          ? `${stage}: the sponsor ${address} pays the fee and has not signed`
          : `${stage}: the signature slot of ${address} is empty; only the wallet's may be`
      })
    }
  }
  return undefined
}

const addressEncoder = getAddressEncoder()

/**
 * The wallet's associated token accounts for `mint`, under the standard and the extended
 * token program.
 *
 * @since 0.1.0
 * @category reading
 */
export const walletTokenAccounts = (wallet: string, mint: string): Effect.Effect<ReadonlyArray<string>> =>
  Effect.promise(() =>
    Promise.all([programs.token, programs.token2022].map(async (program) => {
      const [ata] = await getProgramDerivedAddress({
        programAddress: address(programs.associatedToken),
        seeds: [
          addressEncoder.encode(wallet as Address),
          addressEncoder.encode(address(program)),
          addressEncoder.encode(mint as Address)
        ]
      })
      return ata as string
    }))
  )

/**
 * What `verifySponsored` checks a transaction against.
 *
 * @since 0.1.0
 * @category models
 */
export interface SponsoredOptions {
  /** The label refusals name (e.g. `vault partner`, `deployer transaction 0`). */
  readonly label: string
  /** The wallet (the first local signer signs; it must be the wallet). */
  readonly signers: ReadonlyArray<Signer.Signer.Service>
  readonly quoteMint: string
  /** The vault the claim pays out of, when the answer names it. */
  readonly source?: string | undefined
  /** The sponsor that must pay, when known. */
  readonly sponsor?: string | undefined
  /** The stated blockhash, when the answer states one. */
  readonly blockhash?: string | undefined
  readonly lastValidBlockHeight?: number | undefined
}

/**
 * Verifies a gas-sponsored claim transaction (base58) before the wallet signs it: canonical
 * decode, the rules of `sponsoredRefusal`, the sponsor's signature present and valid (signing
 * keeps it), the wallet's slot the only empty one, and the stated blockhash when there is one.
 * Only the wallet signs it.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifySponsored = (transaction: string, options: SponsoredOptions): Effect.Effect<Verified, Refusal> =>
  Effect.gen(function*() {
    const decoded = yield* decode(transaction, "base58", options.label)
    const wallet = options.signers[0]
    if (wallet === undefined) {
      return yield* new MissingSigner({
        stage: options.label,
        signer: "",
        message: `${options.label}: no local signer to sign as the wallet`
      })
    }
    const destinations = yield* walletTokenAccounts(wallet.publicKey, options.quoteMint)
    const refusal = sponsoredRefusal(readMessage(decoded), {
      wallet: wallet.publicKey,
      destinations,
      source: options.source,
      sponsor: options.sponsor
    }) ?? signatureRefusal(decoded, wallet.publicKey) ??
      (options.blockhash === undefined || decoded.blockhash === options.blockhash ? undefined : new LifetimeMismatch({
        stage: options.label,
        message: `${options.label}: the message's blockhash ${decoded.blockhash} is not the stated ${options.blockhash}`
      }))
    if (refusal !== undefined) return yield* Effect.fail(refusal)
    const verified: Verified = {
      _tag: "Verified",
      decoded,
      signers: [wallet],
      lastValidBlockHeight: options.lastValidBlockHeight === undefined
        ? Option.none()
        : Option.some(BigInt(options.lastValidBlockHeight))
    }
    return verified
  }).pipe(Effect.withSpan("WireTransaction.verifySponsored", { attributes: { stage: options.label } }))

/**
 * Verifies the vault sweep of `claim-vault`: a gas-sponsored claim out of the vault the
 * answer names (`claimable.vaultAta`) into the wallet's token account for its quote mint.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyVaultClaim = (
  answer: ClaimTransactions.VaultClaim,
  signers: ReadonlyArray<Signer.Signer.Service>,
  options: { readonly sponsor?: string | undefined } = {}
): Effect.Effect<Verified, Refusal> =>
  verifySponsored(answer.transaction, {
    label: `vault ${answer.claimable.kind}`,
    signers,
    quoteMint: answer.claimable.quoteMint,
    source: answer.claimable.vaultAta,
    sponsor: options.sponsor
  })

/**
 * Verifies one transaction of a deployer claim batch: a gas-sponsored claim out of the
 * deployer's vault (when the positions name it) into the wallet's token account for the
 * quote mint, with the entry's blockhash.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyDeployerClaim = (
  entry: FeeShare.TransactionEntry,
  signers: ReadonlyArray<Signer.Signer.Service>,
  options: {
    readonly label: string
    readonly quoteMint: string
    readonly vault?: string | null | undefined
    readonly sponsor?: string | undefined
  }
): Effect.Effect<Verified, Refusal> =>
  verifySponsored(entry.transaction, {
    label: options.label,
    signers,
    quoteMint: options.quoteMint,
    source: options.vault ?? undefined,
    sponsor: options.sponsor,
    blockhash: entry.blockhash.blockhash,
    lastValidBlockHeight: entry.blockhash.lastValidBlockHeight
  })

/**
 * Verifies one v3 claim transaction (base58; legacy or v0): canonical decode, the wallet (the
 * first local signer) as the fee payer and its slot the only empty one, every present
 * signature valid, the stated blockhash.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyV3 = (
  entry: ClaimTransactions.V3ClaimTransaction,
  signers: ReadonlyArray<Signer.Signer.Service>,
  label: string
): Effect.Effect<Verified, Refusal> =>
  verifyWalletTransaction({ transaction: entry.tx, blockhash: entry.blockhash }, signers, label)
