/**
 * The error classes a `FeeShare` call rejects with. Each class extends the Effect core's
 * class of the same tag (so `instanceof` works against either), and every rejection carries
 * `tag` (= `_tag`), `status` (the HTTP status, 0 when no HTTP answer is involved),
 * `message` and `rateLimit` (the last rate-limit headers, when known), plus the fields of
 * its class. A call never rejects with a `FiberFailure` wrapper.
 *
 * @since 0.1.0
 */
import * as AgentLogin from "@feeshare/client/AgentLogin"
import * as Domain from "@feeshare/domain/FeeShareError"
import * as Plan from "@feeshare/domain/Plan"
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import * as Signer from "@feeshare/domain/Signer"
import * as Chain from "@feeshare/solana/Chain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Wire from "@feeshare/solana/WireTransaction"
import { Cause, Schema } from "effect"

/**
 * What every rejection of a `FeeShare` call carries.
 *
 * @since 0.1.0
 * @category models
 */
export interface ErrorFields {
  /** The class name, e.g. `RateLimited` (the same as `_tag`). */
  readonly tag: string
  readonly _tag: string
  /** HTTP status of the answer; 0 when no HTTP answer is involved. */
  readonly status: number
  readonly message: string
  /** The rate-limit headers seen with the answer, when there was one. */
  readonly rateLimit?: RateLimitInfo | undefined
}

// ---------------------------------------------------------------------------
// the service's answers
// ---------------------------------------------------------------------------

/**
 * 400 (and other 4xx without a class of their own): invalid parameters, nothing to claim.
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Domain.BadRequest implements ErrorFields {
  readonly tag = this._tag
}

/**
 * 401: the API key is missing or invalid.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Domain.Unauthorized implements ErrorFields {
  readonly tag = this._tag
}

/**
 * 403: the API key lacks the permission.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Domain.Forbidden implements ErrorFields {
  readonly tag = this._tag
}

/**
 * 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Domain.NotFound implements ErrorFields {
  readonly tag = this._tag
}

/**
 * 429, or a wait for the rate-limit reset longer than `maxRateLimitWait` (status 0, nothing
 * sent). `resetAt` is a Unix time in seconds.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Domain.RateLimited implements ErrorFields {
  readonly tag = this._tag
}

/**
 * 5xx, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Domain.ServerError implements ErrorFields {
  readonly tag = this._tag
}

/**
 * An answer that is not a well-formed envelope; `body` holds its first 512 characters.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends Domain.UnexpectedResponse implements ErrorFields {
  readonly tag = this._tag
}

/**
 * The request did not complete (connection refused or reset, DNS failure), after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Domain.TransportError implements ErrorFields {
  readonly tag = this._tag
}

/**
 * No answer within the per-request time limit, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends Domain.Timeout implements ErrorFields {
  readonly tag = this._tag
}

// ---------------------------------------------------------------------------
// refused before anything was sent
// ---------------------------------------------------------------------------

/**
 * The shared rate budget's store (Redis, see `feeshare/redis`) did not answer within its
 * deadline and the budget fails closed; nothing was sent. `store` names it (no password).
 *
 * @since 0.1.0
 * @category errors
 */
export class BudgetUnavailable extends Domain.BudgetUnavailable implements ErrorFields {
  readonly tag = this._tag
}

/**
 * An input (or an option) breaks a rule; nothing was sent. `field` is the path of the
 * offending value, `rule` the rule it breaks.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Domain.InvalidRequest implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The wallet has MFA enabled and no code was given: call `agentAuth.callback` with
 * `{ authCode, mfaCode, keyName }`, or `login` again with an `mfaCode`.
 *
 * @since 0.1.0
 * @category errors
 */
export class MfaRequired extends AgentLogin.MfaRequired implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A signer could not be loaded (missing or unreadable key file, bad JSON, wrong length,
 * mismatched public key). Never carries key material.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidKey extends LocalSigner.InvalidKey implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A signer failed to sign.
 *
 * @since 0.1.0
 * @category errors
 */
export class SignerError extends Signer.SignerError implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A plan breaks the ordering rules; every violation is listed. Nothing was signed.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidPlan extends Plan.InvalidPlan implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

// ---------------------------------------------------------------------------
// transactions refused before signing (`stage` names the transaction)
// ---------------------------------------------------------------------------

/**
 * The text is not base64/base58, or the bytes are not a transaction. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MalformedTransaction extends Wire.MalformedTransaction implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The bytes decode, but not canonically. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class NonCanonicalTransaction extends Wire.NonCanonicalTransaction implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The message version differs from the stage's `format`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FormatMismatch extends Wire.FormatMismatch implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The SHA-256 of the message differs from the stated `messageSha256`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MessageHashMismatch extends Wire.MessageHashMismatch implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The message has a signer that `requiredSigners` does not list. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class UnexpectedSigner extends Wire.UnexpectedSigner implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A key that must sign (from `requiredSigners`, or the mint of a launch) is not a signer of
 * the message. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingSigner extends Wire.MissingSigner implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A local signer is not among the transaction's required signers. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignerNotRequired extends Wire.SignerNotRequired implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A signature already present does not verify. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class InvalidSignature extends Wire.InvalidSignature implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A required signature is neither present nor available from a local signer. Nothing was
 * signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignatureUnavailable extends Wire.SignatureUnavailable implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The message's blockhash differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class LifetimeMismatch extends Wire.LifetimeMismatch implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A v1 message without a compute-unit or loaded-accounts-data limit. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingV1Limits extends Wire.MissingV1Limits implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The message's compute budget differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BudgetMismatch extends Wire.BudgetMismatch implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The wire size, account count or signature count differs from the stated `size`. Nothing
 * was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SizeMismatch extends Wire.SizeMismatch implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

// ---------------------------------------------------------------------------
// the ledger
// ---------------------------------------------------------------------------

/**
 * The Solana RPC endpoint could not be asked.
 *
 * @since 0.1.0
 * @category chain
 */
export class ChainUnavailable extends Chain.ChainUnavailable implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The node's simulation of the transaction failed; `logs` holds the program logs.
 *
 * @since 0.1.0
 * @category chain
 */
export class PreflightFailed extends Chain.PreflightFailed implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The transaction landed and failed on chain.
 *
 * @since 0.1.0
 * @category chain
 */
export class TransactionFailed extends Chain.TransactionFailed implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The transaction can no longer land: its blockhash expired before it did.
 *
 * @since 0.1.0
 * @category chain
 */
export class BlockhashExpired extends Chain.BlockhashExpired implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * A plan was rebuilt `maxRebuilds` times and still did not complete.
 *
 * @since 0.1.0
 * @category chain
 */
export class RebuildLimitReached extends PlanExecutor.RebuildLimitReached implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

/**
 * The lookup table was still warming up at `warmupDeadline`.
 *
 * @since 0.1.0
 * @category chain
 */
export class SetupTimedOut extends PlanExecutor.SetupTimedOut implements ErrorFields {
  readonly tag = this._tag
  readonly status = 0
  readonly rateLimit: RateLimitInfo | undefined = undefined
}

// ---------------------------------------------------------------------------
// the facade's own
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// conversion
// ---------------------------------------------------------------------------

type MakeOptions = { readonly disableValidation?: boolean }

/** One core failure class, the facade class of the same tag, and the conversion between them. */
const entry = <P, D extends P & { readonly message: string }, F extends ErrorFields>(
  core: new(props: P, options?: MakeOptions) => D,
  facade: new(props: P, options?: MakeOptions) => F
) => ({
  facade,
  convert: (u: unknown): F | undefined =>
    u instanceof core
      // `message` is not enumerable on an Error: copy it explicitly
      ? new facade({ ...u, message: u.message }, { disableValidation: true })
      : undefined
})

/** The one table from each core failure class to its facade class. */
const table = [
  entry(Domain.BadRequest, BadRequest),
  entry(Domain.Unauthorized, Unauthorized),
  entry(Domain.Forbidden, Forbidden),
  entry(Domain.NotFound, NotFound),
  entry(Domain.RateLimited, RateLimited),
  entry(Domain.ServerError, ServerError),
  entry(Domain.UnexpectedResponse, UnexpectedResponse),
  entry(Domain.TransportError, TransportError),
  entry(Domain.Timeout, Timeout),
  entry(Domain.BudgetUnavailable, BudgetUnavailable),
  entry(Domain.InvalidRequest, InvalidRequest),
  entry(AgentLogin.MfaRequired, MfaRequired),
  entry(LocalSigner.InvalidKey, InvalidKey),
  entry(Signer.SignerError, SignerError),
  entry(Plan.InvalidPlan, InvalidPlan),
  entry(Wire.MalformedTransaction, MalformedTransaction),
  entry(Wire.NonCanonicalTransaction, NonCanonicalTransaction),
  entry(Wire.FormatMismatch, FormatMismatch),
  entry(Wire.MessageHashMismatch, MessageHashMismatch),
  entry(Wire.UnexpectedSigner, UnexpectedSigner),
  entry(Wire.MissingSigner, MissingSigner),
  entry(Wire.SignerNotRequired, SignerNotRequired),
  entry(Wire.InvalidSignature, InvalidSignature),
  entry(Wire.SignatureUnavailable, SignatureUnavailable),
  entry(Wire.LifetimeMismatch, LifetimeMismatch),
  entry(Wire.MissingV1Limits, MissingV1Limits),
  entry(Wire.BudgetMismatch, BudgetMismatch),
  entry(Wire.SizeMismatch, SizeMismatch),
  entry(Chain.ChainUnavailable, ChainUnavailable),
  entry(Chain.PreflightFailed, PreflightFailed),
  entry(Chain.TransactionFailed, TransactionFailed),
  entry(Chain.BlockhashExpired, BlockhashExpired),
  entry(PlanExecutor.RebuildLimitReached, RebuildLimitReached),
  entry(PlanExecutor.SetupTimedOut, SetupTimedOut)
] as const

/**
 * Every class a `FeeShare` call can reject with: the facade class of every core failure, and
 * `Aborted`, `Closed` and `Defect`.
 *
 * @since 0.1.0
 * @category models
 */
export type FeeShareError = InstanceType<(typeof table)[number]["facade"]> | Aborted | Closed | Defect

const facades: ReadonlyArray<new(...args: never) => FeeShareError> = [
  ...table.map((row) => row.facade),
  Aborted,
  Closed,
  Defect
]

/**
 * `true` for an instance of one of the classes a `FeeShare` call rejects with.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeShareError = (u: unknown): u is FeeShareError => facades.some((facade) => u instanceof facade)

const describe = (u: unknown): string => u instanceof Error ? u.message : String(u)

/**
 * The rejection for a failed call: the facade class of the typed failure; `Aborted` when
 * the call was only interrupted; `Defect` for anything else.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromCause = (cause: Cause.Cause<unknown>, signal?: AbortSignal): FeeShareError => {
  if (Cause.isInterruptedOnly(cause)) {
    const reason: unknown = signal?.aborted === true ? signal.reason : undefined
    return new Aborted({
      status: 0,
      message: reason === undefined ? "the call was interrupted" : `the call was aborted: ${describe(reason)}`,
      reason
    })
  }
  const error = Cause.squash(cause)
  if (isFeeShareError(error)) return error
  for (const row of table) {
    const converted: FeeShareError | undefined = row.convert(error)
    if (converted !== undefined) return converted
  }
  return new Defect({ status: 0, message: `unexpected: ${describe(error)}`, cause: error })
}
