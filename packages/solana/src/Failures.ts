/**
 * Every failure class the core (the client, the Solana part, the domain's rules) can end a
 * call with, written once and grouped by what it means to the caller. The Promise facade
 * gives each one a facade class and the CLI an exit code, both from this table.
 *
 * It lives here because this is where the classes meet: the client's failures are all the
 * domain's (`FeeShareError`), which this package depends on too, so neither the client nor
 * this package imports the other.
 *
 * @since 0.1.0
 */
import * as FeeShareError from "@feeshare/domain/FeeShareError"
import * as Plan from "@feeshare/domain/Plan"
import * as Signer from "@feeshare/domain/Signer"
import * as BundleRelay from "./BundleRelay.js"
import * as Chain from "./Chain.js"
import * as LocalSigner from "./LocalSigner.js"
import * as PlanExecutor from "./PlanExecutor.js"
import * as TransactionRefusal from "./TransactionRefusal.js"

/**
 * The core failure classes by kind:
 * - `invalid`: an input breaks a rule; nothing was sent;
 * - `auth`: the API key is missing, invalid or not allowed, or the wallet needs an MFA code;
 * - `refused`: the service refused the request (400, 404);
 * - `rateLimited`: the rate limit is spent beyond the wait allowed;
 * - `service`: the service failed (5xx) or answered something that is not an envelope;
 * - `unreachable`: the service, the RPC or the shared budget's store could not be reached in time;
 * - `unverified`: a transaction or plan failed verification; nothing was signed;
 * - `chain`: a transaction failed on chain or expired, or a plan could not complete;
 * - `local`: a local key could not be loaded or could not sign.
 *
 * @since 0.1.0
 * @category models
 */
export const byKind = {
  invalid: [FeeShareError.InvalidRequest],
  auth: [FeeShareError.Unauthorized, FeeShareError.Forbidden, FeeShareError.MfaRequired],
  refused: [FeeShareError.BadRequest, FeeShareError.NotFound],
  rateLimited: [FeeShareError.RateLimited],
  service: [FeeShareError.ServerError, FeeShareError.UnexpectedResponse],
  unreachable: [
    FeeShareError.TransportError,
    FeeShareError.Timeout,
    Chain.ChainUnavailable,
    FeeShareError.BudgetUnavailable,
    BundleRelay.RelayUnavailable
  ],
  unverified: [...TransactionRefusal.Refusal.members, Plan.InvalidPlan],
  chain: [
    Chain.PreflightFailed,
    Chain.TransactionFailed,
    Chain.BlockhashExpired,
    PlanExecutor.RebuildLimitReached,
    PlanExecutor.SetupTimedOut,
    BundleRelay.BundleRejected
  ],
  local: [LocalSigner.InvalidKey, Signer.SignerError, BundleRelay.NoBundleRelay]
} as const

/**
 * A kind of failure (a key of `byKind`).
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = keyof typeof byKind

/**
 * Every core failure class, kind after kind.
 *
 * @since 0.1.0
 * @category models
 */
export const all = Object.values(byKind).flat()

/**
 * Any core failure class.
 *
 * @since 0.1.0
 * @category models
 */
export type Class = (typeof byKind)[Kind][number]

/**
 * A failure of the core: an instance of one of the classes.
 *
 * @since 0.1.0
 * @category models
 */
export type Failure = InstanceType<Class>

/**
 * The `_tag` of every core failure.
 *
 * @since 0.1.0
 * @category models
 */
export type Tag = Class["_tag"]

/**
 * The tags of one kind, in table order.
 *
 * @since 0.1.0
 * @category accessors
 */
export const tagsOf = (kind: Kind): ReadonlyArray<Tag> => byKind[kind].map((failure): Tag => failure._tag)
