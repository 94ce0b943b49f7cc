/**
 * The refusals of wire-transaction verification: each names the check that failed and the
 * transaction (a plan stage id, `launch`, `swap`, `entry <n>`, or a claim's label).
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

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
 * The message's fee payer (its first signer) is not the wallet, so the wallet would sign a
 * transaction someone else pays for and controls the order of.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FeePayerMismatch extends Schema.TaggedError<FeePayerMismatch>()("FeePayerMismatch", {
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
 * A gas-sponsored claim pays its proceeds somewhere other than the wallet's own token account
 * for the quote mint, or does not write that account at all.
 *
 * @since 0.1.0
 * @category refusals
 */
export class DestinationMismatch extends Schema.TaggedError<DestinationMismatch>()("DestinationMismatch", {
  ...fields,
  /** The account the proceeds go to ("" when the wallet's account is not written at all). */
  destination: Schema.String
}) {}

/**
 * An instruction of a gas-sponsored claim takes the wallet's signature for something other
 * than authorizing the claim (a memo): it could move funds out of the wallet.
 *
 * @since 0.1.0
 * @category refusals
 */
export class WalletOutflow extends Schema.TaggedError<WalletOutflow>()("WalletOutflow", {
  ...fields,
  /** The index of the instruction in the message. */
  instruction: Schema.Number,
  program: Schema.String
}) {}

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
  | FeePayerMismatch
  | InvalidSignature
  | SignatureUnavailable
  | LifetimeMismatch
  | MissingV1Limits
  | BudgetMismatch
  | SizeMismatch
  | DestinationMismatch
  | WalletOutflow

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
  FeePayerMismatch,
  InvalidSignature,
  SignatureUnavailable,
  LifetimeMismatch,
  MissingV1Limits,
  BudgetMismatch,
  SizeMismatch,
  DestinationMismatch,
  WalletOutflow
)
