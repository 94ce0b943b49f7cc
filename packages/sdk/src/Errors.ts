/**
 * The error classes a `FeeShare` call rejects with. Each class extends the Effect core's
 * class of the same tag (so `instanceof` works against either), and every rejection carries
 * `tag` (= `_tag`), `status` (the HTTP status, 0 when no HTTP answer is involved),
 * `message` and `rateLimit` (the last rate-limit headers, when known), plus the fields of
 * its class. A call never rejects with a `FiberFailure` wrapper.
 *
 * The core's one table of failures (`Failures` of `@feeshare/client`) drives this module:
 * every core failure class has the class exported here under its tag (the compiler checks
 * that none is missing), and the conversion and `FeeShareError` follow the table.
 *
 * @since 0.1.0
 */
import * as AgentLogin from "@feeshare/client/AgentLogin"
import * as Failures from "@feeshare/client/Failures"
import * as Domain from "@feeshare/domain/FeeShareError"
import * as Plan from "@feeshare/domain/Plan"
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import * as Signer from "@feeshare/domain/Signer"
import * as Chain from "@feeshare/solana/Chain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Refusal from "@feeshare/solana/TransactionRefusal"
import { Cause, Schema } from "effect"
// this module's own exports, found by the table's tags
import * as Errors from "./Errors.js"

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

/**
 * What the facade adds to a core failure `E`: `tag`, and, when `E` has no HTTP answer,
 * `status` 0 and no `rateLimit`.
 *
 * @since 0.1.0
 * @category models
 */
export type FacadeFields<E extends { readonly _tag: string }> =
  & { readonly tag: E["_tag"] }
  & (E extends { readonly status: number } ? unknown : { readonly status: 0; readonly rateLimit: RateLimitInfo | undefined })

/**
 * The base of the facade class of the core failure class `C`: `C`'s statics, and a
 * constructor of `C`'s instances with `FacadeFields`.
 *
 * @since 0.1.0
 * @category models
 */
export type FacadeBase<C extends Failures.Class> =
  & Omit<C, "prototype">
  & (new(
    props: ConstructorParameters<C>[0],
    options?: Schema.MakeOptions
  ) => InstanceType<C> & FacadeFields<InstanceType<C>>)

/** A core failure class, as the implementation of `facade` sees it. */
type AnyCore = new(props: never, options?: Schema.MakeOptions) => { readonly _tag: string }

/** The base of a facade class: the core class `core`, its instances given `FacadeFields`. */
function facade<C extends Failures.Class>(core: C): FacadeBase<C>
function facade(core: AnyCore): AnyCore {
  return class extends core {
    readonly tag = this._tag
    constructor(props: never, options?: Schema.MakeOptions) {
      super(props, options)
      if (!("status" in this)) Object.assign(this, { status: 0, rateLimit: undefined })
    }
  }
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
export class BadRequest extends facade(Domain.BadRequest) {}

/**
 * 401: the API key is missing or invalid.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends facade(Domain.Unauthorized) {}

/**
 * 403: the API key lacks the permission.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends facade(Domain.Forbidden) {}

/**
 * 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends facade(Domain.NotFound) {}

/**
 * 429, or a wait for the rate-limit reset longer than `maxRateLimitWait` (status 0, nothing
 * sent). `resetAt` is a Unix time in seconds.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends facade(Domain.RateLimited) {}

/**
 * 5xx, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends facade(Domain.ServerError) {}

/**
 * An answer that is not a well-formed envelope; `body` holds its first 512 characters.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends facade(Domain.UnexpectedResponse) {}

/**
 * The request did not complete (connection refused or reset, DNS failure), after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends facade(Domain.TransportError) {}

/**
 * No answer within the per-request time limit, after the retries.
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends facade(Domain.Timeout) {}

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
export class BudgetUnavailable extends facade(Domain.BudgetUnavailable) {}

/**
 * An input (or an option) breaks a rule; nothing was sent. `field` is the path of the
 * offending value, `rule` the rule it breaks.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends facade(Domain.InvalidRequest) {}

/**
 * The wallet has MFA enabled and no code was given: call `agentAuth.callback` with
 * `{ authCode, mfaCode, keyName }`, or `login` again with an `mfaCode`.
 *
 * @since 0.1.0
 * @category errors
 */
export class MfaRequired extends facade(AgentLogin.MfaRequired) {}

/**
 * A signer could not be loaded (missing or unreadable key file, bad JSON, wrong length,
 * mismatched public key). Never carries key material.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidKey extends facade(LocalSigner.InvalidKey) {}

/**
 * A signer failed to sign.
 *
 * @since 0.1.0
 * @category errors
 */
export class SignerError extends facade(Signer.SignerError) {}

/**
 * A plan breaks the ordering rules; every violation is listed. Nothing was signed.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidPlan extends facade(Plan.InvalidPlan) {}

// ---------------------------------------------------------------------------
// transactions refused before signing (`stage` names the transaction)
// ---------------------------------------------------------------------------

/**
 * The text is not base64/base58, or the bytes are not a transaction. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MalformedTransaction extends facade(Refusal.MalformedTransaction) {}

/**
 * The bytes decode, but not canonically. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class NonCanonicalTransaction extends facade(Refusal.NonCanonicalTransaction) {}

/**
 * The message version differs from the stage's `format`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class FormatMismatch extends facade(Refusal.FormatMismatch) {}

/**
 * The SHA-256 of the message differs from the stated `messageSha256`. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MessageHashMismatch extends facade(Refusal.MessageHashMismatch) {}

/**
 * The message has a signer that `requiredSigners` does not list. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class UnexpectedSigner extends facade(Refusal.UnexpectedSigner) {}

/**
 * A key that must sign (from `requiredSigners`, or the mint of a launch) is not a signer of
 * the message. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingSigner extends facade(Refusal.MissingSigner) {}

/**
 * A local signer is not among the transaction's required signers. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignerNotRequired extends facade(Refusal.SignerNotRequired) {}

/**
 * A signature already present does not verify. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class InvalidSignature extends facade(Refusal.InvalidSignature) {}

/**
 * A required signature is neither present nor available from a local signer. Nothing was
 * signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SignatureUnavailable extends facade(Refusal.SignatureUnavailable) {}

/**
 * The message's blockhash differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class LifetimeMismatch extends facade(Refusal.LifetimeMismatch) {}

/**
 * A v1 message without a compute-unit or loaded-accounts-data limit. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class MissingV1Limits extends facade(Refusal.MissingV1Limits) {}

/**
 * The message's compute budget differs from the stated one. Nothing was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class BudgetMismatch extends facade(Refusal.BudgetMismatch) {}

/**
 * The wire size, account count or signature count differs from the stated `size`. Nothing
 * was signed.
 *
 * @since 0.1.0
 * @category refusals
 */
export class SizeMismatch extends facade(Refusal.SizeMismatch) {}

// ---------------------------------------------------------------------------
// the ledger
// ---------------------------------------------------------------------------

/**
 * The Solana RPC endpoint could not be asked.
 *
 * @since 0.1.0
 * @category chain
 */
export class ChainUnavailable extends facade(Chain.ChainUnavailable) {}

/**
 * The node's simulation of the transaction failed; `logs` holds the program logs.
 *
 * @since 0.1.0
 * @category chain
 */
export class PreflightFailed extends facade(Chain.PreflightFailed) {}

/**
 * The transaction landed and failed on chain.
 *
 * @since 0.1.0
 * @category chain
 */
export class TransactionFailed extends facade(Chain.TransactionFailed) {}

/**
 * The transaction can no longer land: its blockhash expired before it did.
 *
 * @since 0.1.0
 * @category chain
 */
export class BlockhashExpired extends facade(Chain.BlockhashExpired) {}

/**
 * A plan was rebuilt `maxRebuilds` times and still did not complete.
 *
 * @since 0.1.0
 * @category chain
 */
export class RebuildLimitReached extends facade(PlanExecutor.RebuildLimitReached) {}

/**
 * The lookup table was still warming up at `warmupDeadline`.
 *
 * @since 0.1.0
 * @category chain
 */
export class SetupTimedOut extends facade(PlanExecutor.SetupTimedOut) {}

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

/**
 * Every class a `FeeShare` call can reject with: the facade class of every core failure, and
 * `Aborted`, `Closed` and `Defect`.
 *
 * @since 0.1.0
 * @category models
 */
export type FeeShareError = InstanceType<(typeof Errors)[Failures.Tag]> | Aborted | Closed | Defect

const isCoreFailure = (u: unknown): u is Failures.Failure => Failures.all.some((core) => u instanceof core)

/**
 * `true` for an instance of one of the classes a `FeeShare` call rejects with.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeeShareError = (u: unknown): u is FeeShareError =>
  u instanceof Aborted || u instanceof Closed || u instanceof Defect ||
  (isCoreFailure(u) && u instanceof Errors[u._tag])

/** The facade class of `failure`'s tag, made from its fields. */
const toFacade = (failure: Failures.Failure): FeeShareError | undefined => {
  // `message` is not enumerable on an Error: copy it explicitly
  const props = { ...failure, message: failure.message }
  const made: unknown = Reflect.construct(Errors[failure._tag], [props, { disableValidation: true }])
  return isFeeShareError(made) ? made : undefined
}

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
  return (isCoreFailure(error) ? toFacade(error) : undefined) ??
    new Defect({ status: 0, message: `unexpected: ${describe(error)}`, cause: error })
}
