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
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  type SignatureBytes,
  type Transaction
} from "@solana/kit"
import { Effect, Option, Schema } from "effect"
import { copy, equal, sha256Hex } from "./internal/bytes.js"

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
 * The bytes decode, but not canonically: trailing or misaligned bytes, or a re-encoding that
 * differs from the input.
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
 * v0/legacy: compute-budget instructions. `problem` describes a budget the runtime would
 * reject (unknown config bits, duplicated instructions).
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
  /** The signed message bytes (a copy of `transaction.messageBytes`). */
  readonly messageBytes: Uint8Array
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

const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

/**
 * The compute-budget program.
 *
 * @since 0.1.0
 * @category constants
 */
export const computeBudgetProgram = "ComputeBudget111111111111111111111111111111"

const v1Bits = { priorityFee: 0b11, computeUnitLimit: 0b100, loadedAccountsDataSizeLimit: 0b1000, heapSize: 0b1_0000 }
const v1KnownBits = 0b1_1111

const readU32 = (data: Uint8Array): number => new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(1, true)
const readU64 = (data: Uint8Array): bigint =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true)

const budgetOf = (message: CompiledTransactionMessage): MessageBudget => {
  if (message.version === 1) {
    const mask = message.configMask
    const values = message.configValues.map((v) => BigInt(v.value))
    let i = 0
    const next = (bit: number) => (mask & bit) === bit ? values[i++] : undefined
    const priorityFee = next(v1Bits.priorityFee)
    const cu = next(v1Bits.computeUnitLimit)
    const data = next(v1Bits.loadedAccountsDataSizeLimit)
    const heap = next(v1Bits.heapSize)
    return {
      ...(priorityFee === undefined ? {} : { priorityFee }),
      ...(cu === undefined ? {} : { computeUnitLimit: Number(cu) }),
      ...(data === undefined ? {} : { loadedAccountsDataSizeLimit: Number(data) }),
      ...(heap === undefined ? {} : { heapSize: Number(heap) }),
      ...((mask & ~v1KnownBits) === 0 ? {} : { problem: `unknown config mask bits 0x${mask.toString(16)}` })
    }
  }
  const found: { -readonly [K in keyof MessageBudget]: MessageBudget[K] } = {}
  const seen = new Set<number>()
  for (const instruction of message.instructions) {
    if (message.staticAccounts[instruction.programAddressIndex] !== computeBudgetProgram) continue
    const data = instruction.data === undefined ? new Uint8Array() : new Uint8Array(instruction.data)
    const kind = data[0]
    if (kind === undefined) continue
    if (seen.has(kind)) found.problem = `duplicate compute-budget instruction ${kind}`
    seen.add(kind)
    if (kind === 1 && data.length === 5) found.heapSize = readU32(data)
    else if (kind === 2 && data.length === 5) found.computeUnitLimit = readU32(data)
    else if (kind === 3 && data.length === 9) found.priorityFee = readU64(data)
    else if (kind === 4 && data.length === 5) found.loadedAccountsDataSizeLimit = readU32(data)
    else found.problem = `unrecognised compute-budget instruction ${kind}`
  }
  return found
}

const lookupCount = (message: CompiledTransactionMessage): number => {
  if (message.version !== 0 || message.addressTableLookups === undefined) return 0
  let n = 0
  for (const lookup of message.addressTableLookups) n += lookup.writableIndexes.length + lookup.readonlyIndexes.length
  return n
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

const verifySignatureOf = (address: string, signature: Uint8Array, message: Uint8Array): Effect.Effect<boolean> =>
  Effect.promise(async () => {
    try {
      const key = await importPublicKey(address)
      return await globalThis.crypto.subtle.verify("Ed25519", key, copy(signature), copy(message))
    } catch {
      return false
    }
  })

/**
 * Decodes and fully checks the structure of a wire transaction: the text decodes, the
 * message decodes to its last byte, and re-encoding gives back the same bytes.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (
  text: string,
  encoding: Wire.Encoding,
  label: string
): Effect.Effect<Decoded, MalformedTransaction | NonCanonicalTransaction> =>
  Effect.gen(function*() {
    const bytes = Wire.toBytes(text, encoding)
    if (bytes === undefined || bytes.length === 0) {
      return yield* new MalformedTransaction({ stage: label, message: `${label}: not ${encoding} text` })
    }
    let transaction: Transaction
    let message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime
    let consumed: number
    try {
      transaction = transactionDecoder.decode(bytes)
    } catch {
      return yield* new MalformedTransaction({ stage: label, message: `${label}: the bytes are not a transaction` })
    }
    try {
      ;[message, consumed] = messageDecoder.read(transaction.messageBytes, 0)
    } catch {
      return yield* new NonCanonicalTransaction({
        stage: label,
        message: `${label}: the message does not decode (misaligned or truncated bytes)`
      })
    }
    if (consumed !== transaction.messageBytes.length) {
      return yield* new NonCanonicalTransaction({
        stage: label,
        message: `${label}: ${transaction.messageBytes.length - consumed} bytes after the end of the message`
      })
    }
    const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts)
    if (!equal(transactionEncoder.encode(transaction), bytes)) {
      return yield* new NonCanonicalTransaction({
        stage: label,
        message: `${label}: re-encoding the transaction does not give back its bytes`
      })
    }
    const keys = Object.keys(transaction.signatures)
    if (keys.length !== signers.length || keys.some((key, i) => key !== signers[i])) {
      return yield* new NonCanonicalTransaction({
        stage: label,
        message: `${label}: the signature slots do not match the message's signers`
      })
    }
    const messageBytes = copy(transaction.messageBytes)
    // the hash and the signature checks run concurrently (WebCrypto works off the main thread)
    const [messageSha256, signatureChecks] = yield* Effect.all([
      sha256Hex(messageBytes),
      Effect.all(
        Object.entries(transaction.signatures).map(([address, signature]) =>
          signature === null ? Effect.succeed(true) : verifySignatureOf(address, signature, messageBytes)
        ),
        { concurrency: "unbounded" }
      )
    ], { concurrency: "unbounded" })
    return {
      label,
      encoding,
      bytes,
      transaction,
      messageBytes,
      message,
      version: message.version,
      messageSha256,
      signatureChecks,
      signers,
      blockhash: message.lifetimeToken,
      budget: budgetOf(message),
      size: {
        bytes: bytes.length,
        accounts: message.staticAccounts.length + lookupCount(message),
        signatures: message.header.numSignerAccounts
      }
    }
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

/** Present signatures verify; local signers are required; every missing one is local. */
const checkSignatures = (
  decoded: Decoded,
  required: ReadonlyArray<string>,
  local: ReadonlyArray<Signer.Signer.Service>
) =>
  Effect.gen(function*() {
    const stage = decoded.label
    const requiredSet = new Set(required)
    for (const signer of local) {
      if (!requiredSet.has(signer.publicKey)) {
        return yield* new SignerNotRequired({
          stage,
          signer: signer.publicKey,
          message: `${stage}: the local signer ${signer.publicKey} is not a required signer`
        })
      }
    }
    const localKeys = new Set(local.map((s) => s.publicKey))
    const results = decoded.signatureChecks
    const entries = Object.entries(decoded.transaction.signatures)
    for (let i = 0; i < entries.length; i++) {
      const [address, signature] = entries[i]!
      if (!results[i]) {
        return yield* new InvalidSignature({
          stage,
          signer: address,
          message: `${stage}: the signature of ${address} does not verify`
        })
      }
      if (signature === null && !localKeys.has(address)) {
        return yield* new SignatureUnavailable({
          stage,
          signer: address,
          message: `${stage}: ${address} must sign, has not, and is not a local signer`
        })
      }
    }
  })

const checkSignerSet = (decoded: Decoded, required: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const stage = decoded.label
    const inMessage = new Set(decoded.signers)
    const requiredSet = new Set(required)
    for (const signer of decoded.signers) {
      if (!requiredSet.has(signer)) {
        return yield* new UnexpectedSigner({
          stage,
          signer,
          message: `${stage}: the message is signed by ${signer}, which requiredSigners does not list`
        })
      }
    }
    for (const signer of required) {
      if (!inMessage.has(signer)) {
        return yield* new MissingSigner({
          stage,
          signer,
          message: `${stage}: requiredSigners lists ${signer}, which the message does not`
        })
      }
    }
  })

const checkLifetime = (decoded: Decoded, blockhash: string) =>
  decoded.blockhash === blockhash ? Effect.void : Effect.fail(
    new LifetimeMismatch({
      stage: decoded.label,
      message: `${decoded.label}: the message's blockhash ${decoded.blockhash} is not the stated ${blockhash}`
    })
  )

const checkBudget = (decoded: Decoded, budget: Plan.Budget) =>
  Effect.gen(function*() {
    const stage = decoded.label
    const found = decoded.budget
    if (
      decoded.version === 1 &&
      (found.computeUnitLimit === undefined || found.loadedAccountsDataSizeLimit === undefined)
    ) {
      return yield* new MissingV1Limits({
        stage,
        message: `${stage}: a v1 message must set both a compute-unit limit and a loaded-accounts-data limit`
      })
    }
    const mismatch = (what: string) =>
      new BudgetMismatch({ stage, message: `${stage}: budget ${what}` })
    if (found.problem !== undefined) return yield* mismatch(found.problem)
    if (found.computeUnitLimit !== budget.computeUnitLimit) {
      return yield* mismatch(`computeUnitLimit is ${found.computeUnitLimit ?? "unset"}, stated ${budget.computeUnitLimit}`)
    }
    if (found.loadedAccountsDataSizeLimit !== budget.loadedAccountsDataSizeLimit) {
      return yield* mismatch(
        `loadedAccountsDataSizeLimit is ${found.loadedAccountsDataSizeLimit ?? "unset"}, stated ${budget.loadedAccountsDataSizeLimit}`
      )
    }
    if ((found.priorityFee ?? 0n) !== budget.priorityFee.amount) {
      return yield* mismatch(`priority fee is ${found.priorityFee ?? 0n}, stated ${budget.priorityFee.amount}`)
    }
  })

const checkSize = (decoded: Decoded, size: Plan.Stage["size"]) => {
  const found = decoded.size
  return found.bytes === size.bytes && found.accounts === size.accounts && found.signatures === size.signatures
    ? Effect.void
    : Effect.fail(
      new SizeMismatch({
        stage: decoded.label,
        message: `${decoded.label}: size is ${found.bytes} bytes, ${found.accounts} accounts, ${found.signatures} signatures; ` +
          `stated ${size.bytes}, ${size.accounts}, ${size.signatures}`
      })
    )
}

const formatOf = (version: Decoded["version"]) => version === 1 ? "v1" : version === 0 ? "v0" : "legacy"

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
  Effect.gen(function*() {
    const decoded = yield* decode(stage.transaction, stage.encoding, stage.id)
    if (formatOf(decoded.version) !== stage.format) {
      return yield* new FormatMismatch({
        stage: stage.id,
        message: `${stage.id}: the message is ${formatOf(decoded.version)}, the stage says ${stage.format}`
      })
    }
    if (decoded.messageSha256 !== stage.messageSha256) {
      return yield* new MessageHashMismatch({
        stage: stage.id,
        message: `${stage.id}: SHA-256 of the message is ${decoded.messageSha256}, stated ${stage.messageSha256}`
      })
    }
    yield* checkSignerSet(decoded, stage.requiredSigners)
    yield* checkSignatures(decoded, stage.requiredSigners, signers)
    yield* checkLifetime(decoded, stage.lifetime.blockhash)
    yield* checkBudget(decoded, stage.budget)
    yield* checkSize(decoded, stage.size)
    return {
      _tag: "Verified" as const,
      decoded,
      signers,
      lastValidBlockHeight: Option.some(stage.lifetime.lastValidBlockHeight)
    }
  }).pipe(Effect.withSpan("WireTransaction.verifyStage", { attributes: { stage: stage.id } }))

/** The first local signer must be a signer of the message; the others sign when listed. */
const verifySimple = (
  decoded: Decoded,
  signers: ReadonlyArray<Signer.Signer.Service>,
  lastValidBlockHeight: Option.Option<bigint>
): Effect.Effect<Verified, Refusal> => {
  const chosen = signers.filter((signer, i) => i === 0 || decoded.signers.includes(signer.publicKey))
  return checkSignatures(decoded, decoded.signers, chosen).pipe(
    Effect.as({ _tag: "Verified" as const, decoded, signers: chosen, lastValidBlockHeight })
  )
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
    yield* checkLifetime(decoded, entry.blockhash.blockhash)
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
export const sign = (verified: Verified): Effect.Effect<Signed, Signer.SignerError> =>
  Effect.gen(function*() {
    const { decoded } = verified
    const signatures: Record<string, SignatureBytes | null> = { ...decoded.transaction.signatures }
    const message = decoded.messageBytes
    for (const signer of verified.signers) {
      if (signatures[signer.publicKey] !== null) continue
      const signature = yield* signer.signMessage(message)
      if (signature.length !== 64) {
        return yield* new Signer.SignerError({
          publicKey: signer.publicKey,
          message: `the signer returned ${signature.length} bytes, not a 64-byte signature`
        })
      }
      signatures[signer.publicKey] = signature as SignatureBytes
    }
    const transaction: Transaction = {
      messageBytes: decoded.transaction.messageBytes,
      signatures: signatures as Transaction["signatures"]
    }
    const bytes = new Uint8Array(transactionEncoder.encode(transaction))
    const payer = signatures[decoded.signers[0] ?? ""]
    return {
      label: decoded.label,
      text: Wire.fromBytes(bytes, decoded.encoding),
      bytes,
      transaction,
      signature: payer === null || payer === undefined ? "" : PublicKey.base58.encode(payer),
      lastValidBlockHeight: verified.lastValidBlockHeight
    }
  }).pipe(Effect.withSpan("WireTransaction.sign", { attributes: { stage: verified.decoded.label } }))

/**
 * `true` when every signer of the message has a signature.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFullySigned = (signed: Signed): boolean =>
  Object.values(signed.transaction.signatures).every((signature) => signature !== null)
