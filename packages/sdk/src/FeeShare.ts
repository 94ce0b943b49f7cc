/**
 * The Promise facade: every operation of the Effect client (`@feeshare/client`), the
 * wallet login, plan execution and sign-and-send (`@feeshare/solana`) as `async` methods,
 * run on one `ManagedRuntime` per instance. It adds no behaviour of its own: the values are
 * the ones the Effect client returns, and a failure rejects with the class of the same tag
 * from `Errors` (never a `FiberFailure`).
 *
 * @since 0.1.0
 */
import { platform } from "#platform"
import { FetchHttpClient } from "@effect/platform"
import * as ClientCall from "@feeshare/client/CallOptions"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import * as Client from "@feeshare/client/FeeShareClient"
import type * as AgentAuth from "@feeshare/domain/AgentAuth"
import type * as Claims from "@feeshare/domain/Claims"
import * as Domain from "@feeshare/domain/FeeShareError"
import type * as Plan from "@feeshare/domain/Plan"
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import * as BundleRelay from "@feeshare/solana/BundleRelay"
import type * as Chain from "@feeshare/solana/Chain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as Flows from "@feeshare/solana/Flows"
import * as LaunchRecord from "@feeshare/solana/LaunchRecord"
import * as LaunchToken from "@feeshare/solana/LaunchToken"
import * as LedgerReads from "@feeshare/solana/LedgerReads"
import type * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as TokenAccount from "@feeshare/solana/TokenAccount"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Ref } from "effect"
import * as Errors from "./Errors.js"
import { Calls } from "./internal/calls.js"
import * as Logging from "./internal/logging.js"
import type {
  ApiResponse,
  CallOptions,
  ClaimAllOptions,
  ExecutePlanOptions,
  FeeShareOptions,
  Group,
  LaunchGroup,
  LaunchTokenOptions,
  LoginOptions,
  PlanExecution,
  PlanVerification,
  Promised,
  SendOptions,
  SignAndSend,
  VerifyPlanOptions
} from "./Options.js"
import * as Rejection from "./Rejection.js"
import * as SignerInput from "./SignerInput.js"

/** The answer of the call `withResponse` wraps, once it is known. */
interface Capture {
  response: ApiResponse<unknown> | undefined
}

/** The format a plan was requested in: the request's, `v0` by default; unknown without it. */
const requestedFormat = (request: Claims.ClaimPlanRequest | undefined) =>
  request === undefined ? undefined : request.transactionFormat ?? "v0"

const isList = (
  signer: SignerInput.SignerInput | ReadonlyArray<SignerInput.SignerInput>
): signer is ReadonlyArray<SignerInput.SignerInput> => Array.isArray(signer)

/** Whether `text` is an absolute http(s) URL. */
const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const invalid = (operation: string, field: string, rule: string) =>
  new Domain.InvalidRequest({ operation, field, rule, message: `${operation}: ${field} ${rule}` })

/** A call refused before it runs, with the facade's class of the failure. */
const rejected = (error: Domain.InvalidRequest): Promise<never> =>
  Promise.reject(Rejection.fromCause(Cause.fail(error)))

/**
 * The client for Promise users. Create one per configuration and `close()` it (or declare
 * it with `await using`) when done.
 *
 * @example
 * ```ts
 * import { FeeShare } from "feeshare"
 *
 * await using feeshare = new FeeShare({ baseUrl: "http://127.0.0.1:8787/api/v1", apiKey: process.env.FEESHARE_API_KEY })
 * const pools = await feeshare.analytics.pools({ onlyMigrated: true })
 * ```
 *
 * @since 0.1.0
 * @category facade
 */
export class FeeShare implements AsyncDisposable {
  readonly #runtime: ManagedRuntime.ManagedRuntime<FeeShareClient, Domain.InvalidRequest>
  readonly #closing = new AbortController()
  readonly #calls = new Calls()
  readonly #signers: Redacted.Redacted<ReadonlyArray<SignerInput.SignerInput>>
  readonly #rpcUrl: string | ReadonlyArray<string> | undefined
  readonly #rpcOptions: ChainRpc.Options
  readonly #commitment: Chain.Commitment | undefined
  /** The resume records of `launch.token` when the caller gives none. */
  readonly #launchRecords = LaunchRecord.memory()
  /** Set by `withResponse` while its `call` starts: the operation it starts records its answer here. */
  #capture: Capture | undefined

  constructor(options: FeeShareOptions) {
    const {
      apiKey,
      commitment,
      fetch,
      logger,
      logLevel,
      onRateLimitWait,
      rpcPollInterval,
      rpcTimeout,
      rpcUrl,
      signer,
      ...clientOptions
    } = options
    const http = platform.httpClient(fetch)
    const key = typeof apiKey === "string" ? Redacted.make(apiKey) : apiKey
    const logging = Logging.layer({
      logLevel,
      env: platform.env("FEESHARE_LOG"),
      logger,
      apiKey: key === undefined ? undefined : Redacted.value(key)
    })
    this.#runtime = ManagedRuntime.make(
      Layer.merge(
        Client.layer({
          ...clientOptions,
          apiKey: key,
          onRateLimitWait: onRateLimitWait === undefined
            ? undefined
            : (wait) => Effect.sync(() => onRateLimitWait(wait))
        }).pipe(Layer.provide(http)),
        logging
      )
    )
    this.#signers = Redacted.make(signer === undefined ? [] : isList(signer) ? [...signer] : [signer])
    this.#rpcUrl = rpcUrl
    this.#rpcOptions = { pollInterval: rpcPollInterval, timeout: rpcTimeout }
    this.#commitment = commitment
  }

  /** Runs `effect` on the runtime; rejects with the facade class of its failure. */
  #run<A, E>(effect: Effect.Effect<A, E, FeeShareClient>, options: CallOptions | undefined): Promise<A> {
    if (this.#closing.signal.aborted) {
      return Promise.reject(new Errors.Closed({ status: 0, message: "the client is closed" }))
    }
    const capture = this.#capture
    if (capture !== undefined) {
      // only the operations of the service (through #call) have an answer to give
      this.#capture = undefined
      return rejected(invalid("withResponse", "call", "must call one operation of the service"))
    }
    const signal = options?.signal
    const overridden = options !== undefined &&
        (options.timeout !== undefined || options.retry !== undefined || options.maxRateLimitWait !== undefined)
      ? ClientCall.withCallOptions(options)(effect)
      : effect
    return this.#calls.run(this.#runtime, overridden, signal, (exit) => {
      if (Exit.isSuccess(exit)) return exit.value
      // an interruption comes from the caller's signal or from close()
      throw Rejection.fromCause(exit.cause, signal?.aborted === true ? signal : this.#closing.signal)
    })
  }

  #call<A, E>(f: (client: Client.FeeShareClient.Service) => Effect.Effect<A, E>, options: CallOptions | undefined) {
    const call = Effect.flatMap(FeeShareClient, f)
    const capture = this.#capture
    if (capture === undefined) return this.#run(call, options)
    this.#capture = undefined
    return this.#run(
      Effect.map(ClientCall.withResponse(call), (response) => {
        capture.response = response
        return response.data
      }),
      options
    )
  }

  /**
   * The value of one operation with the answer it came in: its HTTP status, headers and
   * rate-limit snapshot. `call` must call one operation of this `FeeShare` (not a plan or
   * a transaction flow), e.g.
   * `const { data, status, rateLimit } = await feeshare.withResponse(() => feeshare.analytics.pools())`.
   */
  async withResponse<A>(call: () => Promise<A>): Promise<ApiResponse<A>> {
    const capture: Capture = { response: undefined }
    this.#capture = capture
    let promise: Promise<A>
    try {
      promise = call()
    } finally {
      this.#capture = undefined
    }
    const data = await promise
    const response = capture.response
    if (response === undefined) {
      throw Rejection.fromCause(Cause.fail(invalid("withResponse", "call", "must call one operation of the service")))
    }
    return { data, status: response.status, headers: response.headers, rateLimit: response.rateLimit }
  }

  /** The configured signers, or `InvalidRequest` when there is none. */
  #signersLayer(operation: string): Layer.Layer<Signers.Signers, Domain.InvalidRequest | LocalSigner.InvalidKey> {
    const [primary, ...others] = Redacted.value(this.#signers)
    return primary === undefined
      ? Layer.fail(invalid(operation, "signer", "is required to sign transactions"))
      : Signers.layerEffect(SignerInput.load(primary), ...others.map(SignerInput.load))
  }

  /** The RPC endpoint(s), or `undefined` when none is configured. */
  #chainLayer(): Layer.Layer<Chain.Chain> | undefined {
    return this.#rpcUrl === undefined || this.#rpcUrl.length === 0
      ? undefined
      : ChainRpc.layer(this.#rpcUrl, this.#rpcOptions)
  }

  /** The RPC endpoint and the configured signers, or `InvalidRequest` naming what is missing. */
  #onChain(
    operation: string
  ): Layer.Layer<Chain.Chain | Signers.Signers, Domain.InvalidRequest | LocalSigner.InvalidKey> {
    const chain = this.#chainLayer()
    return chain === undefined
      ? Layer.fail(invalid(operation, "rpcUrl", "is required to send transactions"))
      : Layer.merge(chain, this.#signersLayer(operation))
  }

  #send<A, E>(
    operation: string,
    flow: (options: Flows.Options) => Effect.Effect<A, E, Chain.Chain | Signers.Signers>,
    options: SendOptions | undefined
  ): Promise<A> {
    const flowOptions: Flows.Options = {
      commitment: options?.commitment ?? this.#commitment,
      rebroadcastInterval: options?.rebroadcastInterval
    }
    return this.#run(Effect.provide(flow(flowOptions), this.#onChain(operation)), options)
  }

  /**
   * Claim plans, claimable positions, partner/deployer vaults; the vault sweep, the deployer's
   * positions and claim batches, and the v3 claim (transactions to verify and sign: see
   * `claimAll`).
   */
  readonly claims: Group<"claims"> = {
    createPlan: (input, options) => this.#call((client) => client.claims.createPlan(input), options),
    positions: (input, options) => this.#call((client) => client.claims.positions(input), options),
    vaults: (input, options) => this.#call((client) => client.claims.vaults(input), options),
    claimVault: (input, options) => this.#call((client) => client.claims.claimVault(input), options),
    deployerPositions: (input, options) => this.#call((client) => client.claims.deployerPositions(input), options),
    deployerClaim: (input, options) => this.#call((client) => client.claims.deployerClaim(input), options),
    claimV3: (input, options) => this.#call((client) => client.claims.claimV3(input), options)
  }

  /** Fee-share config creation and updates, partner claims, the admin list. */
  readonly feeShare: Group<"feeShare"> = {
    createConfig: (input, options) => this.#call((client) => client.feeShare.createConfig(input), options),
    updateConfig: (input, options) => this.#call((client) => client.feeShare.updateConfig(input), options),
    partnerClaim: (input, options) => this.#call((client) => client.feeShare.partnerClaim(input), options),
    adminList: (input, options) => this.#call((client) => client.feeShare.adminList(input), options)
  }

  /** The bundle relay at `url` (none when `undefined`), or `InvalidRequest` naming `field`. */
  #relay(operation: string, url: string | undefined) {
    return url === undefined
      ? Layer.empty
      : isHttpUrl(url)
      ? BundleRelay.layerHttp(url).pipe(Layer.provide(FetchHttpClient.layer))
      : Layer.fail(invalid(operation, "bundleRelayUrl", "must be an absolute http(s) URL"))
  }

  #launchToken(
    request: Parameters<LaunchGroup["token"]>[0],
    options: LaunchTokenOptions | undefined
  ): Promise<LaunchToken.Result> {
    const operation = "launch.token"
    const records = options?.records
    const store: LaunchRecord.Store = records === undefined ? this.#launchRecords : {
      location: "records",
      load: (key) =>
        Effect.tryPromise({
          try: () => records.load(key),
          catch: (error) => new LaunchRecord.RecordUnavailable({ path: "records", message: String(error) })
        }).pipe(Effect.map(Option.fromNullable)),
      save: (record) =>
        Effect.tryPromise({
          try: () => records.save(record),
          catch: (error) => new LaunchRecord.RecordUnavailable({ path: "records", message: String(error) })
        })
    }
    const onEvent = options?.onEvent
    const program = Effect.flatMap(FeeShareClient, (client) =>
      LaunchToken.run(request, {
        wallets: client.launch.wallets,
        createTokenInfo: client.launch.createTokenInfo,
        createConfig: client.feeShare.createConfig,
        createTransaction: client.launch.createTransaction
      }, {
        store,
        dryRun: options?.dryRun,
        onEvent: onEvent === undefined ? undefined : (event) => Effect.sync(() => onEvent(event)),
        commitment: options?.commitment ?? this.#commitment,
        rebroadcastInterval: options?.rebroadcastInterval
      }))
    return this.#run(
      Effect.provide(
        program,
        Layer.merge(this.#onChain(operation), this.#relay(operation, options?.bundleRelayUrl))
      ),
      options
    )
  }

  /**
   * Launch transactions; token info (a multipart upload: the image as bytes, its type read
   * from them, at most 15,000,000 bytes; the service makes the mint and signs the later
   * launch with it); launch wallets by social handle (`wallet`: a miss rejects with
   * `NotFound`; `wallets`: 1 to 100 handles, a miss is a null wallet, in input order); and
   * `token`, the launch from nothing (token info, handles, lookup table, config, launch) with
   * progress callbacks (`onEvent`), resumable from its record.
   */
  readonly launch: LaunchGroup = {
    token: (request, options) => this.#launchToken(request, options),
    createTransaction: (input, options) => this.#call((client) => client.launch.createTransaction(input), options),
    createTokenInfo: (input, options) => this.#call((client) => client.launch.createTokenInfo(input), options),
    wallet: (input, options) => this.#call((client) => client.launch.wallet(input), options),
    wallets: (input, options) => this.#call((client) => client.launch.wallets(input), options)
  }

  /** Quotes and swaps (a quote travels back to `swap` unchanged). */
  readonly trade: Group<"trade"> = {
    quote: (input, options) => this.#call((client) => client.trade.quote(input), options),
    swap: (input, options) => this.#call((client) => client.trade.swap(input), options)
  }

  /** Lifetime fees, claim statistics, pools. */
  readonly analytics: Group<"analytics"> = {
    lifetimeFees: (input, options) => this.#call((client) => client.analytics.lifetimeFees(input), options),
    claimStats: (input, options) => this.#call((client) => client.analytics.claimStats(input), options),
    claimEvents: (input, options) => this.#call((client) => client.analytics.claimEvents(input), options),
    pools: (input, options) => this.#call((client) => client.analytics.pools(input), options)
  }

  /** EVM-chain reads. */
  readonly evm: Group<"evm"> = {
    indexTokenStatus: (input, options) => this.#call((client) => client.evm.indexTokenStatus(input), options),
    claimablePositions: (input, options) => this.#call((client) => client.evm.claimablePositions(input), options),
    creationFee: (options) => this.#call((client) => client.evm.creationFee(), options)
  }

  /** The user that owns the API key. */
  readonly identity: Group<"identity"> = {
    me: (options) => this.#call((client) => client.identity.me(), options)
  }

  /** Wallet signature for an API key: `init`, `callback`, and `login` doing both. */
  readonly agentAuth: Group<"agentAuth"> & { readonly login: FeeShare["login"] } = {
    init: (input, options) => this.#call((client) => client.agentAuth.init(input), options),
    callback: (input, options) => this.#call((client) => client.agentAuth.callback(input), options),
    login: (signer, keyName, options) => this.login(signer, keyName, options)
  }

  /** Verify, sign and send the launch, swap, fee-share update and partner-claim transactions. */
  readonly signAndSend: SignAndSend = {
    launch: (transaction, options) =>
      this.#send("signAndSend.launch", (flow) => Flows.launch(transaction, { ...flow, mint: options.mint }), options),
    swap: (result, options) => this.#send("signAndSend.swap", (flow) => Flows.swap(result, flow), options),
    feeShareUpdate: (entries, options) =>
      this.#send("signAndSend.feeShareUpdate", (flow) => Flows.feeShareUpdate(entries, flow), options),
    partnerClaim: (entries, options) =>
      this.#send("signAndSend.partnerClaim", (flow) => Flows.partnerClaim(entries, flow), options),
    createConfig: (answer, options) => {
      const relay = this.#relay("signAndSend.createConfig", options?.bundleRelayUrl)
      return this.#send(
        "signAndSend.createConfig",
        (flow) => Effect.provide(Flows.createConfig(answer, flow), relay),
        options
      )
    }
  }

  /**
   * `{root_url}/ping`: a cheap call that refreshes `rateLimit()`.
   */
  ping(options?: CallOptions): ReturnType<Promised<Client.GroupClient<"system">["ping"]>> {
    return this.#call((client) => client.ping(), options)
  }

  /**
   * Logs in by wallet signature: asks for a challenge, signs it with `signer`, and returns
   * a new API key named `keyName` (`apiKey` is `Redacted`: read it with
   * `Redacted.value(credential.apiKey)`). No API key is needed for this call.
   */
  login(signer: SignerInput.SignerInput, keyName: string, options?: LoginOptions): Promise<AgentAuth.Credential> {
    const mfaCode = options?.mfaCode
    return this.#call(
      (client) =>
        Effect.flatMap(SignerInput.load(signer), (wallet) =>
          client.agentAuth.login({
            signer: wallet,
            keyName,
            mfaCode: typeof mfaCode === "function" ? Effect.promise(mfaCode) : mfaCode
          })),
      options
    )
  }

  /**
   * Executes a claim plan with the configured signer(s) on `rpcUrl`: verifies every stage
   * before signing any, submits stages as their dependencies land, runs lookup-table setup
   * and waits for it to warm up (rebuilding the plan from `options.request`), and resolves
   * with every landed stage and, with `options.request`, what the claim paid: the change of
   * the fee claimer's token account of the plan's asset.
   */
  executePlan(plan: Plan.TransactionPlan, options: ExecutePlanOptions = {}): Promise<PlanExecution> {
    const { onEvent, request } = options
    if (request === undefined && plan.readiness.status === "setup_required") {
      // checked before anything is signed: the setup would land and the plan could not go on
      return rejected(
        invalid("executePlan", "request", "is required for a setup_required plan (it is rebuilt after the setup)")
      )
    }
    const program = Effect.flatMap(FeeShareClient, (client) =>
      PlanExecutor.execute(plan, {
        rebuild: () =>
          request === undefined
            ? Effect.fail(invalid("executePlan", "request", "is required when the plan must be rebuilt"))
            : client.claims.createPlan(request),
        onEvent: onEvent === undefined ? undefined : (event) => Effect.sync(() => onEvent(event)),
        commitment: options.commitment ?? this.#commitment,
        maxRebuilds: options.maxRebuilds,
        warmupInterval: options.warmupInterval,
        warmupDeadline: options.warmupDeadline,
        rebroadcastInterval: options.rebroadcastInterval,
        format: requestedFormat(request)
      }))
    const rpcUrl = this.#rpcUrl === undefined
      ? undefined
      : typeof this.#rpcUrl === "string"
      ? this.#rpcUrl
      : this.#rpcUrl[0]
    const measured = request === undefined || rpcUrl === undefined
      ? Effect.map(program, (result): PlanExecution => ({ ...result, paid: undefined }))
      : TokenAccount.measurePaid(request.feeClaimer, plan.asset, program).pipe(
        Effect.map(({ paid, result }): PlanExecution => ({ ...result, paid })),
        Effect.provide(LedgerReads.layerRpc(rpcUrl))
      )
    return this.#run(Effect.provide(measured, this.#onChain("executePlan")), options)
  }

  /**
   * Claims everything the signer's wallet is owed in one run: every claimable position (the
   * v3 claim for SOL-quoted ones, a claim plan otherwise), the deployer's positions (claim
   * batches until no token remains) and every partner/deployer vault (the gas-sponsored
   * sweep). Every transaction is verified before it is signed; an item that fails a check is
   * not signed (its row says `refused` and why) and the others go on. With `dryRun`, every
   * transaction is verified and nothing is signed. Resolves with a row per item and a total
   * per payout asset (`nothingToClaim` when there was nothing).
   */
  claimAll(options: ClaimAllOptions = {}): Promise<ClaimAll.Result> {
    const { min, onItem } = options
    const program = Effect.flatMap(FeeShareClient, (client) =>
      ClaimAll.run(client.claims, {
        dryRun: options.dryRun,
        min: min === undefined ? undefined : new Map(Object.entries(min)),
        maxDeployerRounds: options.maxDeployerRounds,
        deployerBatchSize: options.deployerBatchSize,
        sponsor: options.sponsor,
        onItem: onItem === undefined ? undefined : (item, index) => Effect.sync(() => onItem(item, index)),
        commitment: options.commitment ?? this.#commitment,
        rebroadcastInterval: options.rebroadcastInterval
      }))
    return this.#run(Effect.provide(program, this.#onChain("claimAll")), options)
  }

  /**
   * A dry run of `executePlan`: every check it makes before a signature (the plan's rules,
   * the requested format, each stage's bytes against its metadata with the configured
   * signers), and nothing is signed or sent. With `rpcUrl`, also lists the stages whose
   * blockhash has already expired (they would be rebuilt). Rejects with the first refusal.
   */
  verifyPlan(plan: Plan.TransactionPlan, options: VerifyPlanOptions = {}): Promise<PlanVerification> {
    const verification = PlanExecutor.verify(plan, { format: requestedFormat(options.request) })
    const chain = this.#chainLayer()
    const expired = chain === undefined
      ? Effect.succeed(undefined)
      : Effect.provide(PlanExecutor.expiredStages(plan, options.commitment ?? this.#commitment), chain)
    const program = Effect.zipWith(verification, expired, (verified, expiredStages) => ({ ...verified, expiredStages }))
    return this.#run(Effect.provide(program, this.#signersLayer("verifyPlan")), options)
  }

  /**
   * The rate-limit headers of the latest answer (errors included); `undefined` before any.
   */
  rateLimit(options?: CallOptions): Promise<RateLimitInfo | undefined> {
    return this.#call((client) => Effect.map(Ref.get(client.rateLimit), Option.getOrUndefined), options)
  }

  /**
   * Aborts the calls still running (they reject with `Aborted`) and releases the runtime.
   * Later calls reject with `Closed`. Closing twice is harmless.
   */
  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return
    this.#closing.abort(new Errors.Closed({ status: 0, message: "the client was closed" }))
    await this.#calls.interruptAll()
    await this.#runtime.dispose()
  }

  /** `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }
}
