/**
 * The tools' handlers: reads through `FeeShareClient`; writes in two steps: `prepare_*`
 * builds and verifies (nothing signed) and keeps the result under a single-use preview id;
 * `execute` signs and sends it once, under the policy's caps. Each group lives in its own
 * internal module (`internal/reads`, `internal/prepare`, `internal/execute`,
 * `internal/login`); this module assembles them over the shared `internal/context`.
 *
 * @since 0.1.0
 */
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { FeeShareError, Signer } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import { Context, type Duration, Effect, type Redacted, type Scope } from "effect"
import * as HandlerContext from "./internal/context.js"
import * as Execute from "./internal/execute.js"
import * as Login from "./internal/login.js"
import * as Prepare from "./internal/prepare.js"
import * as Reads from "./internal/reads.js"
import { toolkit } from "./Tools.js"
import type * as WritePolicy from "./WritePolicy.js"

export {
  /**
   * The bound a claim preview sets: its operation, asset, signers, accounts per stage kind and
   * costliest stage.
   *
   * @since 0.1.0
   * @category verification
   */
  boundOf,
  /**
   * A claim preview's limits on what a rebuilt plan may be.
   *
   * @since 0.1.0
   * @category models
   */
  type ClaimBound,
  /**
   * Checks a rebuilt claim plan against its preview's bound (see `internal/claimBound`).
   *
   * @since 0.1.0
   * @category verification
   */
  matchesBound,
  /**
   * How much more than the costliest previewed stage a rebuilt stage may cost in network fees.
   *
   * @since 0.1.0
   * @category constants
   */
  rebuiltFeeFactor
} from "./internal/claimBound.js"
export {
  /**
   * Any typed failure as a `ToolFailure`: its tag, its message, and its field and rule, policy
   * rule or HTTP status when it has them.
   *
   * @since 0.1.0
   * @category failures
   */
  toFailure
} from "./internal/failures.js"
export {
  /**
   * What the preview shows of one verified transaction.
   *
   * @since 0.1.0
   * @category models
   */
  type StagePreview
} from "./internal/stagePreview.js"

/**
 * What the handlers run under: the policy and the wallets that may sign (none in read-only
 * mode).
 *
 * @since 0.1.0
 * @category services
 */
export class Environment extends Context.Tag("@feeshare/mcp/Environment")<Environment, {
  readonly policy: WritePolicy.Policy
  readonly signers: ReadonlyArray<Signer.Signer.Service>
  /** Whether an API key was configured (otherwise `login` may get one). */
  readonly hasApiKey: boolean
  /** A client with this API key (`login` replaces the keyless one with it). */
  readonly clientWith: (
    apiKey: Redacted.Redacted<string>
  ) => Effect.Effect<FeeShareClient.Service, FeeShareError.InvalidRequest, Scope.Scope>
  /** Wait between warm-up polls of a claim plan's lookup table (default 1 second). */
  readonly warmupInterval?: Duration.DurationInput | undefined
}>() {}

/**
 * The handlers of every tool, over `FeeShareClient`, the `Chain` and the `Environment`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = toolkit.toLayer(Effect.gen(function*() {
  const { clientWith, hasApiKey, policy, signers, warmupInterval } = yield* Environment
  const context = yield* HandlerContext.make({
    api: yield* FeeShareClient,
    chain: yield* Chain.Chain,
    policy,
    signers,
    warmupInterval
  })
  const handlers: HandlerContext.ToolHandlers = {
    ...Reads.make(context),
    ...Login.make(context, { hasApiKey, clientWith, scope: yield* Effect.scope }),
    ...Prepare.make(context),
    ...Execute.make(context)
  }
  return handlers
}))
