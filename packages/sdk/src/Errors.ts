/**
 * The error classes a `FeeShare` call rejects with. Each class extends the Effect core's
 * class of the same tag (so `instanceof` works against either), and every rejection carries
 * `tag` (= `_tag`), `status` (the HTTP status, 0 when no HTTP answer is involved),
 * `message` and `rateLimit` (the last rate-limit headers, when known), plus the fields of
 * its class. A call never rejects with a `FiberFailure` wrapper.
 *
 * The core's one table of failures (`Failures` of `@feeshare/client`) drives this module:
 * every core failure class has the class exported here under its tag (the compiler checks
 * that none is missing), and `Rejection` (`FeeShareError`, `fromCause`) follows the table.
 *
 * @since 0.1.0
 */
import * as Domain from "@feeshare/domain/FeeShareError"
import * as Plan from "@feeshare/domain/Plan"
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import * as Signer from "@feeshare/domain/Signer"
import * as BundleRelay from "@feeshare/solana/BundleRelay"
import * as Chain from "@feeshare/solana/Chain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Refusal from "@feeshare/solana/TransactionRefusal"
import { Schema } from "effect"
import { type ErrorFields, facade, register } from "./internal/facade.js"

/** @since 0.1.0 */
export type { ErrorFields, FacadeBase, FacadeFields } from "./internal/facade.js"

// --- the service's answers ---

/**
 * 400 (and other 4xx without a class of their own): invalid parameters, nothing to claim.
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends facade(Domain.BadRequest) {
  static {
    register(this)
  }
}

/**
 * 401: the API key is missing or invalid.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends facade(Domain.Unauthorized) {
  static {
    register(this)
  }
}

/**
 * 403: the API key lacks the permission.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends facade(Domain.Forbidden) {
  static {
    register(this)
  }
}

/**
 * 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends facade(Domain.NotFound) {
  static {
    register(this)
  }
}

/**
 * 429, or a wait for the rate-limit reset longer than `maxRateLimitWait` (status 0, nothing
 * sent). `resetAt` is a Unix time in seconds.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends facade(Domain.RateLimited) {
  static {
    register(this)
  }
}

/**
 * 5xx, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends facade(Domain.ServerError) {
  static {
    register(this)
  }
}

/**
 * An answer that is not a well-formed envelope; `body` holds its first 512 characters.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends facade(Domain.UnexpectedResponse) {
  static {
    register(this)
  }
}

/**
 * The request did not complete (connection refused or reset, DNS failure), after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends facade(Domain.TransportError) {
  static {
    register(this)
  }
}

/**
 * No answer within the per-request time limit, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends facade(Domain.Timeout) {
  static {
    register(this)
  }
}

// --- refused before anything was sent ---

/**
 * The shared rate budget's store (Redis, see `feeshare/redis`) did not answer within its
 * deadline and the budget fails closed; nothing was sent. `store` names it (no password).
 *
 * @since 0.1.0
 * @category errors
 */
export class BudgetUnavailable extends facade(Domain.BudgetUnavailable) {
  static {
    register(this)
  }
}

/**
 * An input (or an option) breaks a rule; nothing was sent. `field` is the path of the
 * offending value, `rule` the rule it breaks.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends facade(Domain.InvalidRequest) {
  static {
    register(this)
  }
}

/**
 * The wallet has MFA enabled and no code was given: call `agentAuth.callback` with
 * `{ authCode, mfaCode, keyName }`, or `login` again with an `mfaCode`.
 *
 * @since 0.1.0
 * @category errors
 */
export class MfaRequired extends facade(Domain.MfaRequired) {
  static {
    register(this)
  }
}

/**
 * A signer could not be loaded (missing or unreadable key file, bad JSON, wrong length,
 * mismatched public key). Never carries key material.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidKey extends facade(LocalSigner.InvalidKey) {
  static {
    register(this)
  }
}

/**
 * A signer failed to sign.
 *
 * @since 0.1.0
 * @category errors
 */
export class SignerError extends facade(Signer.SignerError) {
  static {
    register(this)
  }
}

/**
 * A plan breaks the ordering rules; every violation is listed. Nothing was signed.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidPlan extends facade(Plan.InvalidPlan) {
  static {
    register(this)
  }
}

// --- transactions refused before signing (`stage` names the transaction) ---

/**
 * The text is not base64/base58, or the bytes are not a transaction. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MalformedTransaction extends facade(Refusal.MalformedTransaction) {
  static {
    register(this)
  }
}

/**
 * The bytes decode, but not canonically. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class NonCanonicalTransaction extends facade(Refusal.NonCanonicalTransaction) {
  static {
    register(this)
  }
}

/**
 * The message version differs from the stage's `format`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FormatMismatch extends facade(Refusal.FormatMismatch) {
  static {
    register(this)
  }
}

/**
 * The SHA-256 of the message differs from the stated `messageSha256`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MessageHashMismatch extends facade(Refusal.MessageHashMismatch) {
  static {
    register(this)
  }
}

/**
 * The message has a signer that `requiredSigners` does not list. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class UnexpectedSigner extends facade(Refusal.UnexpectedSigner) {
  static {
    register(this)
  }
}

/**
 * A key that must sign (from `requiredSigners`, or the mint of a launch) is not a signer of
 * the message. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingSigner extends facade(Refusal.MissingSigner) {
  static {
    register(this)
  }
}

/**
 * A local signer is not among the transaction's required signers. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignerNotRequired extends facade(Refusal.SignerNotRequired) {
  static {
    register(this)
  }
}

/**
 * The fee payer of a transaction is not the wallet. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FeePayerMismatch extends facade(Refusal.FeePayerMismatch) {
  static {
    register(this)
  }
}

/**
 * A signature already present does not verify. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class InvalidSignature extends facade(Refusal.InvalidSignature) {
  static {
    register(this)
  }
}

/**
 * A required signature is neither present nor available from a local signer. Nothing was
 * signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignatureUnavailable extends facade(Refusal.SignatureUnavailable) {
  static {
    register(this)
  }
}

/**
 * The message's blockhash differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class LifetimeMismatch extends facade(Refusal.LifetimeMismatch) {
  static {
    register(this)
  }
}

/**
 * A v1 message without a compute-unit or loaded-accounts-data limit. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingV1Limits extends facade(Refusal.MissingV1Limits) {
  static {
    register(this)
  }
}

/**
 * The message's compute budget differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BudgetMismatch extends facade(Refusal.BudgetMismatch) {
  static {
    register(this)
  }
}

/**
 * The wire size, account count or signature count differs from the stated `size`. Nothing
 * was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SizeMismatch extends facade(Refusal.SizeMismatch) {
  static {
    register(this)
  }
}

/**
 * A gas-sponsored claim pays its proceeds somewhere other than the wallet's own token account
 * for the quote mint. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class DestinationMismatch extends facade(Refusal.DestinationMismatch) {
  static {
    register(this)
  }
}

/**
 * An instruction of a gas-sponsored claim takes the wallet's signature for more than
 * authorizing it: it could move funds out of the wallet. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class WalletOutflow extends facade(Refusal.WalletOutflow) {
  static {
    register(this)
  }
}

// --- the ledger ---

/**
 * The Solana RPC endpoint could not be asked.
 *
 * @since 0.1.0
 * @category chain
 */
export class ChainUnavailable extends facade(Chain.ChainUnavailable) {
  static {
    register(this)
  }
}

/**
 * The node's simulation of the transaction failed; `logs` holds the program logs.
 *
 * @since 0.1.0
 * @category chain
 */
export class PreflightFailed extends facade(Chain.PreflightFailed) {
  static {
    register(this)
  }
}

/**
 * The transaction landed and failed on chain.
 *
 * @since 0.1.0
 * @category chain
 */
export class TransactionFailed extends facade(Chain.TransactionFailed) {
  static {
    register(this)
  }
}

/**
 * The transaction can no longer land: its blockhash expired before it did.
 *
 * @since 0.1.0
 * @category chain
 */
export class BlockhashExpired extends facade(Chain.BlockhashExpired) {
  static {
    register(this)
  }
}

/**
 * A plan was rebuilt `maxRebuilds` times and still did not complete.
 *
 * @since 0.1.0
 * @category chain
 */
export class RebuildLimitReached extends facade(PlanExecutor.RebuildLimitReached) {
  static {
    register(this)
  }
}

/**
 * The lookup table was still warming up at `warmupDeadline`.
 *
 * @since 0.1.0
 * @category chain
 */
export class SetupTimedOut extends facade(PlanExecutor.SetupTimedOut) {
  static {
    register(this)
  }
}

// --- the facade's own ---

/**
 * The call was aborted through its `signal` (or the client was closed while it ran): the
 * work was interrupted and its HTTP request cancelled. `reason` is the signal's reason. Its
 * `name` is `AbortError`, as for an aborted `fetch`.
 *
 * @since 0.1.0
 * @category errors
 */
export class Aborted extends Schema.TaggedError<Aborted>()("Aborted", {
  status: Schema.Literal(0),
  message: Schema.String,
  reason: Schema.Unknown
}) implements ErrorFields {
  readonly tag = this._tag
  readonly rateLimit: RateLimitInfo | undefined = undefined
  override readonly name = "AbortError"
}

/**
 * The client was closed before the call.
 *
 * @since 0.1.0
 * @category errors
 */
export class Closed extends Schema.TaggedError<Closed>()("Closed", {
  status: Schema.Literal(0),
  message: Schema.String
}) implements ErrorFields {
  readonly tag = this._tag
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A bug, not a failure the contract describes (or an exception thrown by your own callback,
 * e.g. `onEvent`): `cause` holds what was thrown.
 *
 * @since 0.1.0
 * @category errors
 */
export class Defect extends Schema.TaggedError<Defect>()("Defect", {
  status: Schema.Literal(0),
  message: Schema.String,
  cause: Schema.Unknown
}) implements ErrorFields {
  readonly tag = this._tag
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A bundle of a config creation did not land: `index` names its transaction that failed;
 * none of the bundle's transactions landed.
 *
 * @since 0.1.0
 * @category chain
 */
export class BundleRejected extends facade(BundleRelay.BundleRejected) {
  static {
    register(this)
  }
}

/**
 * The bundle relay could not be reached or did not answer its protocol.
 *
 * @since 0.1.0
 * @category unreachable
 */
export class RelayUnavailable extends facade(BundleRelay.RelayUnavailable) {
  static {
    register(this)
  }
}

/**
 * An answer holds bundles and no bundle relay is configured. Nothing was signed.
 *
 * @since 0.1.0
 * @category local
 */
export class NoBundleRelay extends facade(BundleRelay.NoBundleRelay) {
  static {
    register(this)
  }
}
