/**
 * Wire transactions from the service: decode (base64 or base58; legacy, v0, v1), verify
 * against the metadata that came with them, and co-sign. Every check that fails is a typed
 * refusal naming the check and the transaction, and only a `Verified` transaction can be
 * signed.
 *
 * @since 0.1.0
 */
import type { FeeShare, Plan, Trade } from "@feeshare/domain"
import { PublicKey, Signer, WireTransaction as Wire } from "@feeshare/domain"
import {
  getPublicKeyFromAddress,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  type ReadonlyUint8Array,
  type SignatureBytes,
  type Transaction,
  type TransactionMessageBytes
} from "@solana/kit"
import { sha256 } from "@noble/hashes/sha2"
import { Effect, Option, Schema } from "effect"
import { fromBase64, toBase58, toHex } from "./internal/bytes.js"
import * as WireFormat from "./internal/wireFormat.js"

// ---------------------------------------------------------------------------
// refusals
// ---------------------------------------------------------------------------

const fields = {
  /** The transaction checked: a plan stage id, `launch`, `swap`, or `entry <n>`. */
  stage: Schema.String,
  message: Schema.String
}

/**
 * The text is not base64/base58, or the bytes are not a transaction.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MalformedTransaction extends Schema.TaggedError<MalformedTransaction>()("MalformedTransaction", fields) {}

/**
 * The envelope reads, but the message is not a strictly valid, canonical encoding: trailing,
 * missing or misaligned bytes, a shortvec that is not minimal, a signature count that is not
 * the header's, an index out of range, a repeated account, an invalid v1 config mask.
 *
 * @since 0.1.0
 * @category refusals
 */
export class NonCanonicalTransaction
  extends Schema.TaggedError<NonCanonicalTransaction>()("NonCanonicalTransaction", fields)
{}

/**
 * The message's version is not the stage's `format`.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FormatMismatch extends Schema.TaggedError<FormatMismatch>()("FormatMismatch", fields) {}

/**
 * SHA-256 of the message bytes differs from `messageSha256`.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MessageHashMismatch extends Schema.TaggedError<MessageHashMismatch>()("MessageHashMismatch", fields) {}

/**
 * The message has a signer that `requiredSigners` does not list.
 *
 * @since 0.1.0
 * @category refusals
 */
export class UnexpectedSigner extends Schema.TaggedError<UnexpectedSigner>()("UnexpectedSigner", {
  ...fields,
  signer: Schema.String
}) {}

/**
 * A key that must sign (from `requiredSigners`, or the mint of a launch) is not a signer of
 * the message.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingSigner extends Schema.TaggedError<MissingSigner>()("MissingSigner", {
  ...fields,
  signer: Schema.String
}) {}

/**
 * A local signer is not among the transaction's required signers.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignerNotRequired extends Schema.TaggedError<SignerNotRequired>()("SignerNotRequired", {
  ...fields,
  signer: Schema.String
}) {}

/**
 * A signature already present does not verify against the message.
 *
 * @since 0.1.0
 * @category refusals
 */
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("InvalidSignature", {
  ...fields,
  signer: Schema.String
}) {}

/**
 * A required signature is neither present nor available from a local signer, so the
 * transaction could never be sent.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignatureUnavailable extends Schema.TaggedError<SignatureUnavailable>()("SignatureUnavailable", {
  ...fields,
  signer: Schema.String
}) {}

/**
 * The message's blockhash is not the stated lifetime's.
 *
 * @since 0.1.0
 * @category refusals
 */
export class LifetimeMismatch extends Schema.TaggedError<LifetimeMismatch>()("LifetimeMismatch", fields) {}

/**
 * A v1 message without a compute-unit limit or a loaded-accounts-data limit (unset means
 * zero in v1, so it could not run).
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingV1Limits extends Schema.TaggedError<MissingV1Limits>()("MissingV1Limits", fields) {}

/**
 * The message's budget (v1 config values; v0 compute-budget instructions) differs from the
 * stated budget.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BudgetMismatch extends Schema.TaggedError<BudgetMismatch>()("BudgetMismatch", fields) {}

/**
 * The wire size, account count or signature count differs from the stated `size`.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SizeMismatch extends Schema.TaggedError<SizeMismatch>()("SizeMismatch", fields) {}

/**
 * Every refusal.
 *
 * @since 0.1.0
 * @category refusals
 */
export type Refusal =
  | MalformedTransaction
  | NonCanonicalTransaction
  | FormatMismatch
  | MessageHashMismatch
  | UnexpectedSigner
  | MissingSigner
  | SignerNotRequired
  | InvalidSignature
  | SignatureUnavailable
  | LifetimeMismatch
  | MissingV1Limits
  | BudgetMismatch
  | SizeMismatch

/**
 * @since 0.1.0
 * @category refusals
 */
export const Refusal = Schema.Union(
  MalformedTransaction,
  NonCanonicalTransaction,
  FormatMismatch,
  MessageHashMismatch,
  UnexpectedSigner,
  MissingSigner,
  SignerNotRequired,
  InvalidSignature,
  SignatureUnavailable,
  LifetimeMismatch,
  MissingV1Limits,
  BudgetMismatch,
  SizeMismatch
)

// ---------------------------------------------------------------------------
// decoding
// ---------------------------------------------------------------------------

/**
 * The budget a message carries. v1: config values (unset means zero, reported as absent);
 * v0/legacy: compute-budget instructions. `problem` describes a v0/legacy budget the
 * runtime would reject (duplicated or unrecognised compute-budget instructions); an invalid
 * v1 config mask is refused by `decode` already.
 *
 * @since 0.1.0
 * @category models
 */
export interface MessageBudget {
  readonly computeUnitLimit?: number
  readonly loadedAccountsDataSizeLimit?: number
  readonly heapSize?: number
  /** v1: total lamports; v0/legacy: micro-lamports per compute unit. */
  readonly priorityFee?: bigint
  readonly problem?: string
}

/**
 * A fully decoded, canonical wire transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decoded {
  readonly label: string
  readonly encoding: Wire.Encoding
  readonly bytes: Uint8Array
  readonly transaction: Transaction
  /** The signed message bytes (the same bytes as `transaction.messageBytes`, in their own buffer). */
  readonly messageBytes: Uint8Array
  /** The message in Kit's compiled form, built on first access. */
  readonly message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime
  readonly version: "legacy" | 0 | 1
  readonly messageSha256: string
  /** Signer accounts in message order; the first is the fee payer. */
  readonly signers: ReadonlyArray<string>
  readonly blockhash: string
  /** For each signature slot (message order): `true` when empty or valid, `false` when it does not verify. */
  readonly signatureChecks: ReadonlyArray<boolean>
  readonly budget: MessageBudget
  readonly size: { readonly bytes: number; readonly accounts: number; readonly signatures: number }
}

/**
 * The compute-budget program.
 *
 * @since 0.1.0
 * @category constants
 */
export const computeBudgetProgram = "ComputeBudget111111111111111111111111111111"

const computeBudgetKey = PublicKey.toBytes(computeBudgetProgram)

const readU32 = (bytes: Uint8Array, at: number): number =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0

const readU64 = (bytes: Uint8Array, at: number): bigint =>
  (BigInt(readU32(bytes, at + 4)) << 32n) | BigInt(readU32(bytes, at))

const budgetOf = (bytes: Uint8Array, parsed: WireFormat.Parsed): MessageBudget => {
  if (parsed.version === 1) {
    const { config } = parsed
    return {
      ...(config.priorityFee === undefined ? {} : { priorityFee: config.priorityFee }),
      ...(config.computeUnitLimit === undefined ? {} : { computeUnitLimit: config.computeUnitLimit }),
      ...(config.loadedAccountsDataSizeLimit === undefined
        ? {}
        : { loadedAccountsDataSizeLimit: config.loadedAccountsDataSizeLimit }),
      ...(config.heapSize === undefined ? {} : { heapSize: config.heapSize })
    }
  }
  const found: { -readonly [K in keyof MessageBudget]: MessageBudget[K] } = {}
  const seen = new Set<number>()
  for (const instruction of parsed.instructions) {
    if (!WireFormat.accountIs(bytes, parsed, instruction.programIndex, computeBudgetKey)) continue
    const length = instruction.dataLength
    if (length === 0) continue
    const at = instruction.dataOffset
    const kind = bytes[at]!
    if (seen.has(kind)) found.problem = `duplicate compute-budget instruction ${kind}`
    seen.add(kind)
    if (kind === 1 && length === 5) found.heapSize = readU32(bytes, at + 1)
    else if (kind === 2 && length === 5) found.computeUnitLimit = readU32(bytes, at + 1)
    else if (kind === 3 && length === 9) found.priorityFee = readU64(bytes, at + 1)
    else if (kind === 4 && length === 5) found.loadedAccountsDataSizeLimit = readU32(bytes, at + 1)
    else found.problem = `unrecognised compute-budget instruction ${kind}`
  }
  return found
}

const publicKeys = new Map<string, Promise<CryptoKey>>()
const importPublicKey = (address: string): Promise<CryptoKey> => {
  let key = publicKeys.get(address)
  if (key === undefined) {
    if (publicKeys.size >= 1024) publicKeys.clear()
    key = getPublicKeyFromAddress(address as Parameters<typeof getPublicKeyFromAddress>[0])
    publicKeys.set(address, key)
  }
  return key
}

const verifySignatureOf = async (
  address: string,
  signature: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>
): Promise<boolean> => {
  try {
    const key = await importPublicKey(address)
    return await globalThis.crypto.subtle.verify("Ed25519", key, signature, message)
  } catch {
    return false
  }
}

const refuse = (label: string, result: Exclude<WireFormat.Result, { _tag: "Parsed" }>) =>
  result._tag === "Malformed"
    ? new MalformedTransaction({ stage: label, message: `${label}: the bytes are not a transaction (${result.reason})` })
    : new NonCanonicalTransaction({ stage: label, message: `${label}: the message is not canonical (${result.reason})` })

/**
 * Decodes and fully checks the structure of a wire transaction: the text decodes, the
 * envelope and the message parse strictly to their last byte (no trailing, missing or
 * misaligned byte, minimal shortvecs, indexes in range, one signature slot per signer, a
 * valid v1 config mask), so the bytes are the canonical encoding of what was read.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (
  text: string,
  encoding: Wire.Encoding,
  label: string
): Effect.Effect<Decoded, MalformedTransaction | NonCanonicalTransaction> =>
  Effect.suspend(() => {
    const bytes = encoding === "base64" ? fromBase64(text) : Wire.toBytes(text, encoding)
    if (bytes === undefined || bytes.length === 0) {
      return Effect.fail(new MalformedTransaction({ stage: label, message: `${label}: not ${encoding} text` }))
    }
    const result = WireFormat.parse(bytes)
    if (result._tag !== "Parsed") return Effect.fail(refuse(label, result))
    const parsed = result.parsed
    const messageBytes = bytes.slice(parsed.messageOffset, parsed.messageOffset + parsed.messageLength)
    const signers: Array<string> = []
    const signatures: Record<string, SignatureBytes | null> = {}
    const pending: Array<Promise<boolean> | true> = []
    let verifying = false
    for (let i = 0; i < parsed.signatureCount; i++) {
      const address = WireFormat.address(bytes, parsed, i)
      signers.push(address)
      if (WireFormat.isEmptySignature(bytes, parsed, i)) {
        signatures[address] = null
        pending.push(true)
      } else {
        const at = WireFormat.signatureOffset(parsed, i)
        const signature = bytes.slice(at, at + 64)
        signatures[address] = signature as SignatureBytes
        pending.push(verifySignatureOf(address, signature, messageBytes))
        verifying = true
      }
    }
    const view: ReadonlyUint8Array = messageBytes
    const transaction: Transaction = {
      messageBytes: view as TransactionMessageBytes,
      signatures: Object.freeze(signatures) as Transaction["signatures"]
    }
    // SHA-256 synchronously (a few µs; cheaper than a WebCrypto round trip), while the
    // signature checks run in WebCrypto
    const messageSha256 = toHex(sha256(messageBytes))
    const checks = verifying
      ? Effect.promise(() => Promise.all(pending))
      : Effect.succeed(pending.map(() => true))
    return Effect.map(checks, (signatureChecks): Decoded => {
      let message: (CompiledTransactionMessage & CompiledTransactionMessageWithLifetime) | undefined
      return {
        label,
        encoding,
        bytes,
        transaction,
        messageBytes,
        get message() {
          return (message ??= WireFormat.toCompiledMessage(bytes, parsed))
        },
        version: parsed.version,
        messageSha256,
        signatureChecks,
        signers,
        blockhash: WireFormat.lifetime(bytes, parsed),
        budget: budgetOf(bytes, parsed),
        size: {
          bytes: bytes.length,
          accounts: parsed.staticAccountCount + parsed.lookupAccountCount,
          signatures: parsed.numSigners
        }
      }
    })
  })

// ---------------------------------------------------------------------------
// verification
// ---------------------------------------------------------------------------

/**
 * A transaction that passed every check, with the local signers that will sign it and the
 * block height after which it can no longer land (when known).
 *
 * @since 0.1.0
 * @category models
 */
export interface Verified {
  readonly _tag: "Verified"
  readonly decoded: Decoded
  readonly signers: ReadonlyArray<Signer.Signer.Service>
  readonly lastValidBlockHeight: Option.Option<bigint>
}

// The checks are plain functions (the first refusal, or `undefined`), so that verifying
// costs one Effect step after the asynchronous part of `decode`.

/** Present signatures verify; local signers are required; every missing one is local. */
const signaturesRefusal = (
  decoded: Decoded,
  required: ReadonlyArray<string>,
  local: ReadonlyArray<Signer.Signer.Service>
): Refusal | undefined => {
  const stage = decoded.label
  for (const signer of local) {
    if (!required.includes(signer.publicKey)) {
      return new SignerNotRequired({
        stage,
        signer: signer.publicKey,
        message: `${stage}: the local signer ${signer.publicKey} is not a required signer`
      })
    }
  }
  const results = decoded.signatureChecks
  const signatures = decoded.transaction.signatures
  for (let i = 0; i < decoded.signers.length; i++) {
    const address = decoded.signers[i]!
    if (!results[i]) {
      return new InvalidSignature({
        stage,
        signer: address,
        message: `${stage}: the signature of ${address} does not verify`
      })
    }
    if (signatures[address as keyof typeof signatures] === null && !local.some((s) => s.publicKey === address)) {
      return new SignatureUnavailable({
        stage,
        signer: address,
        message: `${stage}: ${address} must sign, has not, and is not a local signer`
      })
    }
  }
  return undefined
}

const signerSetRefusal = (decoded: Decoded, required: ReadonlyArray<string>): Refusal | undefined => {
  const stage = decoded.label
  for (const signer of decoded.signers) {
    if (!required.includes(signer)) {
      return new UnexpectedSigner({
        stage,
        signer,
        message: `${stage}: the message is signed by ${signer}, which requiredSigners does not list`
      })
    }
  }
  for (const signer of required) {
    if (!decoded.signers.includes(signer)) {
      return new MissingSigner({
        stage,
        signer,
        message: `${stage}: requiredSigners lists ${signer}, which the message does not`
      })
    }
  }
  return undefined
}

const lifetimeRefusal = (decoded: Decoded, blockhash: string): Refusal | undefined =>
  decoded.blockhash === blockhash ? undefined : new LifetimeMismatch({
    stage: decoded.label,
    message: `${decoded.label}: the message's blockhash ${decoded.blockhash} is not the stated ${blockhash}`
  })

const budgetRefusal = (decoded: Decoded, budget: Plan.Budget): Refusal | undefined => {
  const stage = decoded.label
  const found = decoded.budget
  if (
    decoded.version === 1 &&
    (found.computeUnitLimit === undefined || found.loadedAccountsDataSizeLimit === undefined)
  ) {
    return new MissingV1Limits({
      stage,
      message: `${stage}: a v1 message must set both a compute-unit limit and a loaded-accounts-data limit`
    })
  }
  const mismatch = (what: string) => new BudgetMismatch({ stage, message: `${stage}: budget ${what}` })
  if (found.problem !== undefined) return mismatch(found.problem)
  if (found.computeUnitLimit !== budget.computeUnitLimit) {
    return mismatch(`computeUnitLimit is ${found.computeUnitLimit ?? "unset"}, stated ${budget.computeUnitLimit}`)
  }
  if (found.loadedAccountsDataSizeLimit !== budget.loadedAccountsDataSizeLimit) {
    return mismatch(
      `loadedAccountsDataSizeLimit is ${found.loadedAccountsDataSizeLimit ?? "unset"}, stated ${budget.loadedAccountsDataSizeLimit}`
    )
  }
  if ((found.priorityFee ?? 0n) !== budget.priorityFee.amount) {
    return mismatch(`priority fee is ${found.priorityFee ?? 0n}, stated ${budget.priorityFee.amount}`)
  }
  return undefined
}

const sizeRefusal = (decoded: Decoded, size: Plan.Stage["size"]): Refusal | undefined => {
  const found = decoded.size
  return found.bytes === size.bytes && found.accounts === size.accounts && found.signatures === size.signatures
    ? undefined
    : new SizeMismatch({
      stage: decoded.label,
      message: `${decoded.label}: size is ${found.bytes} bytes, ${found.accounts} accounts, ${found.signatures} signatures; ` +
        `stated ${size.bytes}, ${size.accounts}, ${size.signatures}`
    })
}

const formatOf = (version: Decoded["version"]) => version === 1 ? "v1" : version === 0 ? "v0" : "legacy"

const stageRefusal = (
  decoded: Decoded,
  stage: Plan.Stage,
  signers: ReadonlyArray<Signer.Signer.Service>
): Refusal | undefined => {
  if (formatOf(decoded.version) !== stage.format) {
    return new FormatMismatch({
      stage: stage.id,
      message: `${stage.id}: the message is ${formatOf(decoded.version)}, the stage says ${stage.format}`
    })
  }
  if (decoded.messageSha256 !== stage.messageSha256) {
    return new MessageHashMismatch({
      stage: stage.id,
      message: `${stage.id}: SHA-256 of the message is ${decoded.messageSha256}, stated ${stage.messageSha256}`
    })
  }
  return signerSetRefusal(decoded, stage.requiredSigners) ??
    signaturesRefusal(decoded, stage.requiredSigners, signers) ??
    lifetimeRefusal(decoded, stage.lifetime.blockhash) ??
    budgetRefusal(decoded, stage.budget) ??
    sizeRefusal(decoded, stage.size)
}

/**
 * Verifies a claim-plan stage before signing: canonical bytes; the version is the stage's
 * format; SHA-256 of the message equals `messageSha256`; the message's signers equal
 * `requiredSigners` as a set; every local signer is required; every present signature
 * verifies and every missing one is local; the blockhash is the lifetime's; a v1 message
 * sets both limits; the budget and the size match.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyStage = (
  stage: Plan.Stage,
  signers: ReadonlyArray<Signer.Signer.Service>
): Effect.Effect<Verified, Refusal> =>
  decode(stage.transaction, stage.encoding, stage.id).pipe(
    Effect.flatMap((decoded): Effect.Effect<Verified, Refusal> => {
      const refusal = stageRefusal(decoded, stage, signers)
      return refusal === undefined
        ? Effect.succeed({
          _tag: "Verified",
          decoded,
          signers,
          lastValidBlockHeight: Option.some(stage.lifetime.lastValidBlockHeight)
        })
        : Effect.fail(refusal)
    }),
    Effect.withSpan("WireTransaction.verifyStage", { attributes: { stage: stage.id }, captureStackTrace: false })
  )

/** The first local signer must be a signer of the message; the others sign when listed. */
const verifySimple = (
  decoded: Decoded,
  signers: ReadonlyArray<Signer.Signer.Service>,
  lastValidBlockHeight: Option.Option<bigint>
): Effect.Effect<Verified, Refusal> => {
  const chosen = signers.filter((signer, i) => i === 0 || decoded.signers.includes(signer.publicKey))
  const refusal = signaturesRefusal(decoded, decoded.signers, chosen)
  return refusal === undefined
    ? Effect.succeed({ _tag: "Verified", decoded, signers: chosen, lastValidBlockHeight })
    : Effect.fail(refusal)
}

/**
 * Verifies the launch transaction (base58): the mint is a signer whose signature is present
 * and valid, the first local signer (the wallet) is a signer, every other signature present
 * verifies and every missing one is local. Further local signers sign only if listed.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyLaunch = (
  text: string,
  options: { readonly mint: PublicKey.PublicKey; readonly signers: ReadonlyArray<Signer.Signer.Service> }
): Effect.Effect<Verified, Refusal> =>
  Effect.gen(function*() {
    const decoded = yield* decode(text, "base58", "launch")
    const index = decoded.signers.indexOf(options.mint)
    if (index < 0) {
      return yield* new MissingSigner({
        stage: "launch",
        signer: options.mint,
        message: `launch: the mint ${options.mint} is not a signer of the message`
      })
    }
    if (decoded.transaction.signatures[options.mint as keyof Transaction["signatures"]] === null) {
      return yield* new SignatureUnavailable({
        stage: "launch",
        signer: options.mint,
        message: `launch: the mint ${options.mint} has not signed`
      })
    }
    return yield* verifySimple(decoded, options.signers, Option.none())
  })

/**
 * Verifies a swap transaction (base58): the first local signer (the wallet) is a signer,
 * every present signature verifies, and a compute-unit limit in the message equals the
 * stated one.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifySwap = (
  result: Pick<Trade.SwapResult, "swapTransaction" | "computeUnitLimit" | "lastValidBlockHeight">,
  signers: ReadonlyArray<Signer.Signer.Service>
): Effect.Effect<Verified, Refusal> =>
  Effect.gen(function*() {
    const decoded = yield* decode(result.swapTransaction, "base58", "swap")
    const limit = decoded.budget.computeUnitLimit
    if (limit !== undefined && limit !== result.computeUnitLimit) {
      return yield* new BudgetMismatch({
        stage: "swap",
        message: `swap: budget computeUnitLimit is ${limit}, stated ${result.computeUnitLimit}`
      })
    }
    return yield* verifySimple(decoded, signers, Option.some(BigInt(result.lastValidBlockHeight)))
  })

/**
 * Verifies a fee-share update or partner-claim entry (base58): the message's blockhash is
 * the entry's, the first local signer (the wallet) is a signer, every present signature
 * verifies.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyEntry = (
  entry: FeeShare.TransactionEntry,
  signers: ReadonlyArray<Signer.Signer.Service>,
  label: string
): Effect.Effect<Verified, Refusal> =>
  Effect.gen(function*() {
    const decoded = yield* decode(entry.transaction, "base58", label)
    const refusal = lifetimeRefusal(decoded, entry.blockhash.blockhash)
    if (refusal !== undefined) return yield* Effect.fail(refusal)
    return yield* verifySimple(decoded, signers, Option.some(BigInt(entry.blockhash.lastValidBlockHeight)))
  })

// ---------------------------------------------------------------------------
// signing
// ---------------------------------------------------------------------------

/**
 * A fully signed transaction, re-encoded in the encoding it arrived in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Signed {
  readonly label: string
  /** The text, in the encoding the transaction arrived in. */
  readonly text: string
  readonly bytes: Uint8Array
  readonly transaction: Transaction
  /** The transaction id: the fee payer's signature, base58. */
  readonly signature: string
  readonly lastValidBlockHeight: Option.Option<bigint>
}

/**
 * Adds the local signers' signatures, keeping every signature already present, and
 * re-encodes in the transaction's own encoding.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (verified: Verified): Effect.Effect<Signed, Signer.SignerError> => {
  const { decoded } = verified
  const message = decoded.messageBytes
  const existing = decoded.transaction.signatures
  const needed = verified.signers.filter((signer, i) =>
    existing[signer.publicKey as keyof typeof existing] === null &&
    verified.signers.findIndex((other) => other.publicKey === signer.publicKey) === i
  )
  return Effect.forEach(needed, (signer) =>
    Effect.flatMap(signer.signMessage(message), (signature) =>
      signature.length === 64 ? Effect.succeed(signature) : Effect.fail(
        new Signer.SignerError({
          publicKey: signer.publicKey,
          message: `the signer returned ${signature.length} bytes, not a 64-byte signature`
        })
      ))).pipe(
      Effect.map((produced): Signed => {
        const signatures: Record<string, SignatureBytes | null> = { ...existing }
        for (let i = 0; i < needed.length; i++) signatures[needed[i]!.publicKey] = produced[i]! as SignatureBytes
        // the wire bytes are canonical (checked by `decode`), so signing only fills signature slots
        const bytes = new Uint8Array(decoded.bytes)
        const slots = decoded.version === 1
          ? message.length
          : bytes.length - message.length - 64 * decoded.signers.length
        for (let i = 0; i < decoded.signers.length; i++) {
          const signature = signatures[decoded.signers[i]!]
          if (signature !== null && signature !== undefined) bytes.set(signature, slots + 64 * i)
        }
        const payer = signatures[decoded.signers[0] ?? ""]
        return {
          label: decoded.label,
          text: Wire.fromBytes(bytes, decoded.encoding),
          bytes,
          transaction: {
            messageBytes: decoded.transaction.messageBytes,
            signatures: Object.freeze(signatures) as Transaction["signatures"]
          },
          signature: payer === null || payer === undefined ? "" : toBase58(payer),
          lastValidBlockHeight: verified.lastValidBlockHeight
        }
      }),
      Effect.withSpan("WireTransaction.sign", { attributes: { stage: decoded.label }, captureStackTrace: false })
    )
}

/**
 * `true` when every signer of the message has a signature.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFullySigned = (signed: Signed): boolean =>
  Object.values(signed.transaction.signatures).every((signature) => signature !== null)
