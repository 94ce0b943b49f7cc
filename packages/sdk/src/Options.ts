/**
 * The options of a `FeeShare` and of its methods, and the types of its groups.
 *
 * @since 0.1.0
 */
import type * as ClientCall from "@feeshare/client/CallOptions"
import type * as Client from "@feeshare/client/FeeShareClient"
import type * as Claims from "@feeshare/domain/Claims"
import type * as FeeShareDomain from "@feeshare/domain/FeeShare"
import type * as LaunchTokenDomain from "@feeshare/domain/LaunchToken"
import type * as Trade from "@feeshare/domain/Trade"
import type * as Chain from "@feeshare/solana/Chain"
import type * as ChainRpc from "@feeshare/solana/ChainRpc"
import type * as ClaimAll from "@feeshare/solana/ClaimAll"
import type * as Flows from "@feeshare/solana/Flows"
import type * as LaunchToken from "@feeshare/solana/LaunchToken"
import type * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import type { Effect, Redacted } from "effect"
import type * as Logging from "./internal/logging.js"
import type * as SignerInput from "./SignerInput.js"

/**
 * Options of a `FeeShare`: those of the Effect client (`baseUrl`, `timeout`, `retry`,
 * `maxRateLimitWait`, `budget`, with the same defaults), plus where and with what to sign.
 *
 * @since 0.1.0
 * @category models
 */
export interface FeeShareOptions extends Omit<Client.FeeShareClient.Options, "apiKey" | "onRateLimitWait"> {
  /** Sent as `x-api-key`; absent: only agent auth (`login`) and `ping` work. */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /** Called before every rate-limit wait (a spent window, the budget, a 429, a `Retry-After`). */
  readonly onRateLimitWait?: ((wait: Client.RateLimitWait) => void) | undefined
  /**
   * Solana JSON-RPC endpoint, needed by `executePlan` and `signAndSend`; or several: every
   * transaction is sent to all of them, reads go to the first that answers.
   */
  readonly rpcUrl?: string | ReadonlyArray<string> | undefined
  /** The most one RPC call may take before it is retried (default 10 s). */
  readonly rpcTimeout?: ChainRpc.Options["timeout"]
  /**
   * The wallet that signs (or several: the first is the wallet the requests are made for,
   * the others sign only transactions that require them).
   */
  readonly signer?: SignerInput.SignerInput | ReadonlyArray<SignerInput.SignerInput> | undefined
  /** Default commitment of `executePlan` and `signAndSend` (default `confirmed`). */
  readonly commitment?: Chain.Commitment | undefined
  /** Time between two signature-status polls of the RPC endpoint (default 400 ms). */
  readonly rpcPollInterval?: ChainRpc.Options["pollInterval"]
  /**
   * A custom `fetch` (proxies, tests, edge runtimes). Default: on Node, undici's pooled
   * client (loaded on the first call); elsewhere `globalThis.fetch`.
   */
  readonly fetch?: typeof globalThis.fetch | undefined
  /**
   * The least severe log line passed to `logger`: `debug` (a line per call: operation,
   * method, status, failure, duration), `info`, `warn` (the default), `error`, or `off`.
   * Default: the `FEESHARE_LOG` environment variable (Node), else `warn`. The API key and
   * secret keys are never logged.
   */
  readonly logLevel?: Logging.Level | undefined
  /** Where log lines go (default `console`): `(message, fields)` per level. */
  readonly logger?: Logging.FeeShareLogger | undefined
}

/**
 * Every method takes these as its last argument.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallOptions extends ClientCall.Options {
  /** Aborting interrupts the call and cancels its HTTP request; it rejects with `Aborted`. */
  readonly signal?: AbortSignal | undefined
}

/**
 * A value with the answer it came in (see `FeeShare.withResponse`).
 *
 * @since 0.1.0
 * @category models
 */
export type ApiResponse<A> = ClientCall.Response<A>

/**
 * An operation of the Effect client as an `async` method with `CallOptions` appended.
 *
 * @since 0.1.0
 * @category models
 */
export type Promised<F> = F extends (...input: infer I) => Effect.Effect<infer A, infer _E, infer _R>
  ? (...args: [...input: I, options?: CallOptions]) => Promise<A>
  : never

/**
 * The operations of one group of the contract, as `async` methods.
 *
 * @since 0.1.0
 * @category models
 */
export type Group<G extends string> = {
  readonly [K in keyof Client.GroupClient<G>]: Promised<Client.GroupClient<G>[K]>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface LoginOptions extends CallOptions {
  /** The MFA code, or a function asked for it only when the wallet has MFA enabled. */
  readonly mfaCode?: string | (() => Promise<string>) | undefined
}

/**
 * Options of `executePlan`: those of the plan executor, plus the request the plan came
 * from (needed when the plan must be rebuilt: `setup_required`, or an expired blockhash).
 *
 * @since 0.1.0
 * @category models
 */
export interface ExecutePlanOptions extends
  CallOptions,
  Pick<
    PlanExecutor.Options<never, never>,
    "commitment" | "maxRebuilds" | "warmupInterval" | "warmupDeadline" | "rebroadcastInterval"
  >
{
  /** The request of `claims.createPlan` that built the plan; it is sent again to rebuild. */
  readonly request?: Claims.ClaimPlanRequest | undefined
  /** Called with every progress event (verified, signed, submitted, landed, rebuilt, ...). */
  readonly onEvent?: ((event: PlanExecutor.Event) => void) | undefined
}

/**
 * What `executePlan` resolves with: the landed stages, and what the claim paid into the fee
 * claimer's token account of the plan's asset (raw units; `undefined` without
 * `options.request`, which names the fee claimer).
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanExecution extends PlanExecutor.Result {
  readonly paid: bigint | undefined
}

/**
 * Options of `claimAll`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimAllOptions
  extends
    CallOptions,
    Pick<ClaimAll.Options, "commitment" | "rebroadcastInterval" | "maxDeployerRounds" | "deployerBatchSize" | "sponsor">
{
  /** Verify every transaction, sign nothing. */
  readonly dryRun?: boolean | undefined
  /** The smallest amount claimed per asset, mint → raw amount; smaller items are skipped. */
  readonly min?: Readonly<Record<string, bigint>> | undefined
  /** Called with every item when it is listed and whenever it changes. */
  readonly onItem?: ((item: ClaimAll.Item, index: number) => void) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface VerifyPlanOptions extends CallOptions {
  /** The request the plan came from: its `transactionFormat` (default `v0`) is enforced. */
  readonly request?: Claims.ClaimPlanRequest | undefined
  /** Commitment of the block height the expiry is checked against (default `confirmed`). */
  readonly commitment?: Chain.Commitment | undefined
}

/**
 * What `verifyPlan` found: every stage verified, and (with `rpcUrl`) those already expired.
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanVerification extends PlanExecutor.Verification {
  /** Stages whose `lastValidBlockHeight` has passed; `undefined` without `rpcUrl`. */
  readonly expiredStages: ReadonlyArray<string> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SendOptions extends CallOptions, Flows.Options {}

/**
 * Verify, sign with the configured signer(s), send, and wait until landed, for the service's
 * single transactions. Every transaction is verified before any is signed.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignAndSend {
  /** The launch transaction (already signed by the token `mint`). */
  readonly launch: (
    transaction: string,
    options: SendOptions & { readonly mint: string }
  ) => Promise<Chain.Landed>
  /** A swap transaction, as `trade.swap` returned it. */
  readonly swap: (result: Trade.SwapResult, options?: SendOptions) => Promise<Chain.Landed>
  /** The fee-share update entries, in order, each after the previous landed. */
  readonly feeShareUpdate: (
    entries: FeeShareDomain.TransactionEntries,
    options?: SendOptions
  ) => Promise<ReadonlyArray<Chain.Landed>>
  /**
   * Config creation's answer (`feeShare.createConfig`): every transaction verified first (the
   * wallet the fee payer and its slot the only empty one), then each bundle through the
   * bundle relay at `bundleRelayUrl` (all or nothing: `BundleRejected` names the failed
   * transaction), then the transactions in order. `needsCreation: false` signs nothing and
   * answers the existing key. An answer with bundles and no `bundleRelayUrl` is refused
   * (`NoBundleRelay`) before any signature: the service's own relay is not documented.
   */
  readonly createConfig: (
    answer: FeeShareDomain.CreateConfigAnswer,
    options?: SendOptions & {
      /** A relay speaking `@feeshare/domain/BundleRelay`, e.g. the sandbox's `{root_url}/sandbox/bundles`. */
      readonly bundleRelayUrl?: string | undefined
    }
  ) => Promise<Flows.ConfigCreated>
  /** The partner-claim entries: all but the last together, then the last. */
  readonly partnerClaim: (
    entries: FeeShareDomain.TransactionEntries,
    options?: SendOptions
  ) => Promise<ReadonlyArray<Chain.Landed>>
}

/**
 * Where `launch.token` keeps its resume record between runs (default: in memory, per
 * `FeeShare` instance). Give your own to resume across processes, e.g. a file or a store;
 * a record holds public values only.
 *
 * @since 0.1.0
 * @category models
 */
export interface LaunchRecords {
  /** The record of `key`, or `undefined`. */
  readonly load: (key: string) => Promise<LaunchTokenDomain.LaunchRecord | undefined>
  /** Replaces the record of `record.key`. */
  readonly save: (record: LaunchTokenDomain.LaunchRecord) => Promise<void>
}

/**
 * Options of `launch.token`.
 *
 * @since 0.1.0
 * @category models
 */
export interface LaunchTokenOptions extends SendOptions {
  /** Check, resolve the handles, upload the token info, verify the config; sign and send nothing. */
  readonly dryRun?: boolean | undefined
  /** Called with every progress event (a step started, the split, a transaction landed, a step done). */
  readonly onEvent?: ((event: LaunchToken.Event) => void) | undefined
  /** A relay speaking `@feeshare/domain/BundleRelay`, for a config answer that holds bundles, e.g. the sandbox's `{root_url}/sandbox/bundles`. */
  readonly bundleRelayUrl?: string | undefined
  /** Where the resume record is kept (default: in memory, for this instance). */
  readonly records?: LaunchRecords | undefined
}

/**
 * The launch group: its operations, and `token`, the launch from nothing.
 *
 * @since 0.1.0
 * @category models
 */
export type LaunchGroup = Group<"launch"> & {
  /**
   * Launches a token from nothing: checks the inputs (a typed `InvalidRequest` naming the
   * field, before anything is sent), resolves the handles, uploads the token info, creates
   * the config (the signer is its deployer; at most 7 claimers here: more need a lookup
   * table, which the CLI and the Effect API make) and sends
   * the launch transaction, verified before it is signed. A rerun with the same inputs
   * resumes from the record.
   */
  readonly token: (
    request: LaunchTokenDomain.LaunchTokenRequest,
    options?: LaunchTokenOptions
  ) => Promise<LaunchToken.Result>
}
