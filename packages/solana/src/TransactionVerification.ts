/**
 * Verifying a decoded wire transaction against the metadata that came with it, before any
 * signature: a claim-plan stage (format, message hash, signer set, signatures, lifetime,
 * budget, size), a launch, a swap or a fee-share entry. Only a `Verified` transaction can be
 * signed.
 *
 * @since 0.1.0
 */
import type { FeeShare, Plan, PublicKey, Signer, Trade } from "@feeshare/domain"
import type { Transaction } from "@solana/kit"
import { Effect, Option } from "effect"
import { decode, type Decoded } from "./TransactionDecoding.js"
import {
  BudgetMismatch,
  FeePayerMismatch,
  FormatMismatch,
  InvalidSignature,
  LifetimeMismatch,
  MessageHashMismatch,
  MissingSigner,
  MissingV1Limits,
  type Refusal,
  SignatureUnavailable,
  SignerNotRequired,
  SizeMismatch,
  UnexpectedSigner
} from "./TransactionRefusal.js"

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
      `loadedAccountsDataSizeLimit is ${
        found.loadedAccountsDataSizeLimit ?? "unset"
      }, stated ${budget.loadedAccountsDataSizeLimit}`
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
      message:
        `${decoded.label}: size is ${found.bytes} bytes, ${found.accounts} accounts, ${found.signatures} signatures; ` +
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
 * The wallet (`signers[0]`) is the fee payer, and the only empty signature slot is the
 * wallet's: every other signer has signed already, and every present signature verifies.
 * Further local signers are not used. For transactions that come without plan metadata.
 */
const walletOnlyRefusal = (
  decoded: Decoded,
  wallet: Signer.Signer.Service | undefined
): Refusal | undefined => {
  const stage = decoded.label
  const payer = decoded.signers[0] ?? ""
  if (wallet === undefined || payer !== wallet.publicKey) {
    return new FeePayerMismatch({
      stage,
      signer: payer,
      message: `${stage}: the fee payer is ${payer}, not the wallet ${wallet?.publicKey ?? "(none)"}`
    })
  }
  const signatures = decoded.transaction.signatures
  for (let i = 1; i < decoded.signers.length; i++) {
    const address = decoded.signers[i]!
    if (signatures[address as keyof typeof signatures] === null) {
      return new SignatureUnavailable({
        stage,
        signer: address,
        message: `${stage}: the signature slot of ${address} is empty; only the wallet's may be`
      })
    }
  }
  return signaturesRefusal(decoded, decoded.signers, [wallet])
}

/**
 * Verifies the launch transaction (base58): the mint is a signer whose signature is present
 * and valid, the wallet (the first local signer) is the fee payer and its slot the only empty
 * one, and every present signature verifies. The reference does not say who pays for the
 * launch; feeshare requires the wallet, so that no one else can order or replace it.
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
    const wallet = options.signers[0]
    const refusal = walletOnlyRefusal(decoded, wallet)
    if (refusal !== undefined) return yield* Effect.fail(refusal)
    return {
      _tag: "Verified",
      decoded,
      signers: wallet === undefined ? [] : [wallet],
      lastValidBlockHeight: Option.none()
    }
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

/**
 * Verifies a transaction that comes without plan metadata (a config-creation entry, a
 * lookup-table transaction): decoded canonically, the message's blockhash is the stated one,
 * the wallet (the first local signer) is the fee payer and its slot the only empty one, and
 * every present signature verifies. Only the wallet signs it.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyWalletTransaction = (
  entry: FeeShare.TransactionEntry,
  signers: ReadonlyArray<Signer.Signer.Service>,
  label: string
): Effect.Effect<Verified, Refusal> =>
  Effect.gen(function*() {
    const decoded = yield* decode(entry.transaction, "base58", label)
    const wallet = signers[0]
    const refusal = walletOnlyRefusal(decoded, wallet) ?? lifetimeRefusal(decoded, entry.blockhash.blockhash)
    if (refusal !== undefined) return yield* Effect.fail(refusal)
    return {
      _tag: "Verified",
      decoded,
      signers: wallet === undefined ? [] : [wallet],
      lastValidBlockHeight: Option.some(BigInt(entry.blockhash.lastValidBlockHeight))
    }
  })
