/**
 * The tools' handlers: reads through `FeeShareClient`; writes in two steps: `prepare_*`
 * builds and verifies (nothing signed) and keeps the result under a single-use preview id;
 * `execute` signs and sends it once, under the policy's caps.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { Claims, FeeShare, FeeShareError, Plan, Signer, Trade } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as Flows from "@feeshare/solana/Flows"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Context, type Duration, Effect, Layer, Option, type Redacted, Schema, Scope, SubscriptionRef } from "effect"
import * as Policy from "./Policy.js"
import * as Previews from "./Previews.js"
import { type Preview, toolkit, ToolFailure } from "./Tools.js"

/**
 * What the handlers run under: the policy and the wallets that may sign (none in read-only
 * mode).
 *
 * @since 0.1.0
 * @category services
 */
export class Environment extends Context.Tag("@feeshare/mcp/Environment")<Environment, {
  readonly policy: Policy.Policy
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

interface Failing {
  readonly _tag: string
  readonly message: string
}

const stringField = (error: object, key: string): string | undefined => {
  const value: unknown = Reflect.get(error, key)
  return typeof value === "string" ? value : undefined
}

/**
 * Any typed failure as a `ToolFailure`: its tag, its message, and its field and rule (an
 * `InvalidRequest`), policy rule (a `PolicyViolation`) or HTTP status when it has them.
 *
 * @since 0.1.0
 * @category failures
 */
export const toFailure = (error: Failing): ToolFailure => {
  if (error instanceof ToolFailure) return error
  const status: unknown = Reflect.get(error, "status")
  const field = stringField(error, "field")
  const rule = stringField(error, "rule")
  return new ToolFailure({
    error: error._tag,
    message: error.message,
    ...(field === undefined ? {} : { field }),
    ...(rule === undefined ? {} : { rule }),
    ...(typeof status === "number" ? { status } : {})
  })
}

const failing = <A, E extends Failing, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ToolFailure, R> =>
  Effect.mapError(effect, toFailure)

/** The network fee of a verified transaction: 5000 lamports per signature plus its priority fee. */
const networkFee = (decoded: WireTransaction.Decoded): bigint => {
  const base = 5000n * BigInt(decoded.size.signatures)
  const priority = decoded.budget.priorityFee ?? 0n
  if (decoded.version === 1) return base + priority
  const units = BigInt(decoded.budget.computeUnitLimit ?? 200_000)
  return base + (priority * units + 999_999n) / 1_000_000n
}

/**
 * What the preview shows of one verified transaction.
 *
 * @since 0.1.0
 * @category models
 */
export type StagePreview = ReturnType<typeof stagePreview>

const stagePreview = (id: string, kind: string, verified: WireTransaction.Verified) => ({
  id,
  kind,
  requiredSigners: verified.decoded.signers,
  presigned: verified.decoded.signers.filter((key) =>
    Reflect.get(verified.decoded.transaction.signatures, key) !== null
  ),
  accounts: verified.decoded.message.staticAccounts.map(String),
  networkFeeLamports: String(networkFee(verified.decoded)),
  messageSha256: verified.decoded.messageSha256
})

type Unsaved = Omit<Preview, "previewId" | "expiresAt">

/**
 * A claim preview's limits on what a rebuilt plan may be.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClaimBound {
  readonly operation: string
  readonly asset: string
  readonly signers: ReadonlySet<string>
  /** Accounts per stage kind seen in the preview. */
  readonly accounts: ReadonlyMap<string, ReadonlySet<string>>
  readonly maxStageFee: bigint
}

/**
 * How much more than the costliest previewed stage a rebuilt stage may cost in network fees
 * (a claim stage after lookup-table setup uses more compute than the setup stage).
 *
 * @since 0.1.0
 * @category constants
 */
export const rebuiltFeeFactor = 4n

type Pending =
  | {
    readonly action: "claim"
    readonly wallet: Signer.Signer.Service
    readonly request: Claims.ClaimPlanRequest
    readonly plan: Plan.TransactionPlan
    readonly fees: bigint
    readonly bound: ClaimBound
  }
  | {
    readonly action: "swap"
    readonly wallet: Signer.Signer.Service
    readonly result: Trade.SwapResult
    readonly lamports: bigint
    readonly fees: bigint
  }
  | {
    readonly action: "launch"
    readonly wallet: Signer.Signer.Service
    readonly transaction: string
    readonly mint: string
    readonly lamports: bigint
    readonly fees: bigint
  }
  | {
    readonly action: "fee_share_update" | "partner_claim"
    readonly wallet: Signer.Signer.Service
    readonly entries: FeeShare.TransactionEntries
    readonly fees: bigint
  }

/**
 * Checks a rebuilt claim plan against its preview's bound: the same operation and asset, no
 * signer the preview did not show, for a stage kind the preview showed no account it did
 * not show, and no stage costlier than `rebuiltFeeFactor` times the costliest previewed one.
 *
 * @since 0.1.0
 * @category verification
 */
export const matchesBound = (
  bound: ClaimBound,
  plan: Pick<Plan.TransactionPlan, "operation" | "asset">,
  stages: ReadonlyArray<StagePreview>
): string | undefined => {
  if (JSON.stringify(plan.operation) !== bound.operation) return "the plan's operation changed"
  if (plan.asset.mint !== bound.asset) return "the plan's asset changed"
  for (const stage of stages) {
    // a signer whose signature came with the transaction (verified) is not asked to sign
    const signer = stage.requiredSigners.find((key) => !bound.signers.has(key) && !stage.presigned.includes(key))
    if (signer !== undefined) return `${stage.id}: signer ${signer} was not in the preview`
    const known = bound.accounts.get(stage.kind)
    const account = known === undefined ? undefined : stage.accounts.find((key) => !known.has(key))
    if (account !== undefined) return `${stage.id}: account ${account} was not in the preview's ${stage.kind} stages`
    if (BigInt(stage.networkFeeLamports) > bound.maxStageFee * rebuiltFeeFactor) {
      return `${stage.id}: network fee ${stage.networkFeeLamports} lamports is above the preview's bound`
    }
  }
  return undefined
}

/**
 * The bound a claim preview sets: its operation, asset, signers, accounts per stage kind and
 * costliest stage.
 *
 * @since 0.1.0
 * @category verification
 */
export const boundOf = (
  wallet: string,
  plan: Pick<Plan.TransactionPlan, "operation" | "asset">,
  stages: ReadonlyArray<StagePreview>
): ClaimBound => {
  const accounts = new Map<string, Set<string>>()
  for (const stage of stages) {
    const set = accounts.get(stage.kind) ?? new Set<string>()
    for (const key of stage.accounts) set.add(key)
    accounts.set(stage.kind, set)
  }
  return {
    operation: JSON.stringify(plan.operation),
    asset: plan.asset.mint,
    signers: new Set([wallet, ...stages.flatMap((stage) => stage.requiredSigners)]),
    accounts,
    maxStageFee: stages.reduce((max, stage) => {
      const fee = BigInt(stage.networkFeeLamports)
      return fee > max ? fee : max
    }, 5000n)
  }
}

const sum = (values: ReadonlyArray<string>) => values.reduce((total, value) => total + BigInt(value), 0n)

const claimNote = (plan: Plan.TransactionPlan) =>
  plan.readiness.status === "setup_required"
    ? "The lookup-table setup stages land first; the plan is then rebuilt and its claim stages are verified and " +
      `signed only while they keep this operation, asset and signers and cost at most ${rebuiltFeeFactor}x the ` +
      "costliest stage shown here."
    : `Every stage verified. A plan rebuilt after a blockhash expiry is signed only while it matches this preview.`

/** What the human is asked to approve (`askHuman`): the action, wallet, amounts and note of a preview. */
const summaryOf = (preview: Unsaved): string =>
  [
    `${preview.action} by ${preview.wallet}`,
    preview.mints.length === 0 ? undefined : `mints ${preview.mints.join(", ")}`,
    `SOL spent ${preview.lamportsSpent} lamports, network fees ${preview.networkFeesLamports} lamports`,
    `${preview.stages.length} transaction(s): ${preview.stages.map((stage) => stage.kind).join(", ")}`,
    preview.note
  ].filter((line) => line !== undefined).join("\n")

/**
 * The policy's `askHuman`: the human approves the preview through MCP elicitation; a
 * decline, a cancel, or a client without elicitation refuses the execution (nothing signed).
 */
const askHuman = (summary: string) =>
  McpServer.elicit({
    message: `An agent asks to sign and send:\n${summary}\nApprove?`,
    schema: Schema.Struct({ approve: Schema.Boolean.annotations({ description: "sign and send it" }) })
  }).pipe(
    Effect.catchAllCause(() => Effect.succeed({ approve: false })),
    Effect.flatMap(({ approve }) =>
      approve
        ? Effect.void
        : Effect.fail(
          new ToolFailure({
            error: "PolicyViolation",
            rule: "askHuman",
            message: "the human did not approve (declined, cancelled, or the client cannot ask): nothing was signed"
          })
        )
    )
  )

/**
 * The handlers of every tool, over `FeeShareClient`, the `Chain` and the `Environment`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = toolkit.toLayer(Effect.gen(function*() {
  let api = yield* FeeShareClient
  const chain = yield* Chain.Chain
  const { clientWith, hasApiKey, policy, signers, warmupInterval } = yield* Environment
  const scope = yield* Effect.scope
  let loggedIn = hasApiKey
  const spending = yield* Policy.makeSpending(policy)
  const previews = yield* Previews.make<{ readonly pending: Pending; readonly summary: string }>(policy.previewTtlSeconds * 1000)
  const chainLayer = Layer.succeed(Chain.Chain, chain)

  /** The signing wallet: the named one, else the first; never in read-only mode. */
  const signerFor = (wallet: string | undefined) =>
    Effect.gen(function*() {
      yield* Policy.checkWritable(policy)
      const found = wallet === undefined ? signers[0] : signers.find((signer) => signer.publicKey === wallet)
      if (found === undefined) {
        return yield* new Policy.PolicyViolation({
          rule: "wallet",
          message: wallet === undefined
            ? "no wallet may sign: start the server with --keypair or the policy's wallets"
            : `the wallet ${wallet} is not one the policy lets sign`
        })
      }
      return found
    })

  const checkDailyFees = (fees: bigint) =>
    Effect.flatMap(spending.remaining, (left) =>
      left.networkFeesLamports !== null && fees > left.networkFeesLamports
        ? Effect.fail(
          new Policy.PolicyViolation({
            rule: "maxNetworkFeesPerDayLamports",
            message: `the network fees (${fees} lamports) would pass maxNetworkFeesPerDayLamports (${left.networkFeesLamports} left today)`
          })
        )
        : Effect.void)

  /** A swap (or a launch's initial buy) spending `lamports` of SOL, against both swap caps. */
  const checkSwapCaps = (lamports: bigint) =>
    Effect.gen(function*() {
      if (policy.maxSwapLamports !== undefined && lamports > BigInt(policy.maxSwapLamports)) {
        return yield* new Policy.PolicyViolation({
          rule: "maxSwapLamports",
          message: `the transaction spends ${lamports} lamports; maxSwapLamports is ${policy.maxSwapLamports}`
        })
      }
      const left = yield* spending.remaining
      if (left.swapLamports !== null && lamports > left.swapLamports) {
        return yield* new Policy.PolicyViolation({
          rule: "maxSwapLamportsPerDay",
          message: `the transaction spends ${lamports} lamports; ${left.swapLamports} of maxSwapLamportsPerDay are left today`
        })
      }
    })

  /** Verifies fee-share update or partner-claim entries and keeps them under a preview id. */
  const previewEntries = (
    action: "fee_share_update" | "partner_claim",
    signer: Signer.Signer.Service,
    entries: FeeShare.TransactionEntries,
    mints: ReadonlyArray<string>,
    note: string
  ) =>
    Effect.gen(function*() {
      const stages = yield* Effect.forEach(entries.transactions, (entry, i) =>
        Effect.map(WireTransaction.verifyEntry(entry, [signer], `entry ${i}`), (verified) =>
          stagePreview(`entry ${i}`, action, verified)))
      const fees = sum(stages.map((stage) => stage.networkFeeLamports))
      yield* checkDailyFees(fees)
      return yield* save({ action, wallet: signer, entries, fees }, {
        action,
        wallet: signer.publicKey,
        mints,
        lamportsSpent: "0",
        networkFeesLamports: String(fees),
        stages,
        verification: {
          verified: true,
          checks: ["each entry's blockhash as stated", "the wallet is a signer", "present signatures verify"]
        },
        note
      })
    })

  const save = (pending: Pending, unsaved: Unsaved) =>
    Effect.map(previews.put({ pending, summary: summaryOf(unsaved) }), ({ expiresAt, id }): Preview => ({
      ...unsaved,
      previewId: id,
      expiresAt: new Date(expiresAt).toISOString()
    }))

  /** Verifies a claim plan for `wallet` and describes it. */
  const verifyClaim = (wallet: Signer.Signer.Service, plan: Plan.TransactionPlan) =>
    Effect.gen(function*() {
      const local = Signers.make(wallet)
      yield* PlanExecutor.verify(plan, { format: policy.transactionFormat }).pipe(Effect.provideService(Signers.Signers, local))
      return yield* Effect.forEach(plan.transactions, (stage) =>
        Effect.map(
          WireTransaction.verifyStage(stage, Signers.forTransaction(local, stage.requiredSigners)),
          (verified) => stagePreview(stage.id, stage.kind, verified)
        ))
    })

  const previewClaim = (wallet: Signer.Signer.Service, request: Claims.ClaimPlanRequest, plan: Plan.TransactionPlan) =>
    Effect.gen(function*() {
      const stages = yield* verifyClaim(wallet, plan)
      const fees = sum(stages.map((stage) => stage.networkFeeLamports))
      yield* checkDailyFees(fees)
      return yield* save(
        { action: "claim", wallet, request, plan, fees, bound: boundOf(wallet.publicKey, plan, stages) },
        {
          action: "claim",
          wallet: wallet.publicKey,
          mints: [request.tokenMint, plan.asset.mint],
          readiness: plan.readiness.status,
          lamportsSpent: "0",
          networkFeesLamports: String(fees),
          stages,
          verification: {
            verified: true,
            checks: [
              "plan rules (ids, dependencies, readiness)",
              `format ${policy.transactionFormat}`,
              "each stage's bytes against its metadata: message hash, signers, signatures, lifetime, budget, size"
            ]
          },
          note: claimNote(plan)
        }
      )
    })

  const executeClaim = (previewId: string, pending: Extract<Pending, { action: "claim" }>) =>
    Effect.gen(function*() {
      yield* failing(spending.spend("fees", pending.fees))
      const rebuild = () =>
        Effect.gen(function*() {
          const next = yield* api.claims.createPlan(pending.request)
          const stages = yield* verifyClaim(pending.wallet, next)
          const mismatch = matchesBound(pending.bound, next, stages)
          if (mismatch !== undefined) {
            const fresh = yield* previewClaim(pending.wallet, pending.request, next)
            return yield* new ToolFailure({
              error: "PreviewMismatch",
              message: `the rebuilt plan no longer matches the preview (${mismatch}): nothing of it was signed; ` +
                `review the new preview ${fresh.previewId}`,
              newPreviewId: fresh.previewId
            })
          }
          yield* spending.spend("fees", sum(stages.map((stage) => stage.networkFeeLamports)))
          return next
        }).pipe(failing)
      const result = yield* PlanExecutor.execute(pending.plan, {
        rebuild,
        format: policy.transactionFormat,
        warmupInterval: warmupInterval ?? "1 second",
        rebroadcastInterval: "1 second"
      }).pipe(
        Effect.provide(Layer.merge(Signers.layer(pending.wallet), chainLayer)),
        failing
      )
      return {
        previewId,
        action: "claim" as const,
        landed: result.stages.map((stage) => ({ id: stage.id, kind: stage.kind, signature: stage.signature, slot: String(stage.slot) })),
        rebuilds: result.rebuilds
      }
    })

  const executeSwap = (previewId: string, pending: Extract<Pending, { action: "swap" }>) =>
    Effect.gen(function*() {
      yield* spending.spend("swap", pending.lamports)
      yield* spending.spend("fees", pending.fees)
      const landed = yield* Flows.swap(pending.result, { rebroadcastInterval: "1 second" }).pipe(
        Effect.provide(Layer.merge(Signers.layer(pending.wallet), chainLayer))
      )
      return {
        previewId,
        action: "swap" as const,
        landed: [{ id: "swap", kind: "swap", signature: landed.signature, slot: String(landed.slot) }],
        rebuilds: 0
      }
    }).pipe(failing)

  const executeOther = (previewId: string, pending: Exclude<Pending, { action: "claim" | "swap" }>) =>
    Effect.gen(function*() {
      if (pending.action === "launch") yield* spending.spend("swap", pending.lamports)
      yield* spending.spend("fees", pending.fees)
      const environment = Layer.merge(Signers.layer(pending.wallet), chainLayer)
      const options = { rebroadcastInterval: "1 second" } as const
      const landed = pending.action === "launch"
        ? [yield* Flows.launch(pending.transaction, { ...options, mint: pending.mint }).pipe(Effect.provide(environment))]
        : pending.action === "fee_share_update"
        ? yield* Flows.feeShareUpdate(pending.entries, options).pipe(Effect.provide(environment))
        : yield* Flows.partnerClaim(pending.entries, options).pipe(Effect.provide(environment))
      return {
        previewId,
        action: pending.action,
        landed: landed.map((one, i) => ({
          id: pending.action === "launch" ? "launch" : `entry ${i}`,
          kind: pending.action,
          signature: one.signature,
          slot: String(one.slot)
        })),
        rebuilds: 0
      }
    }).pipe(failing)

  return {
    positions: (query) => failing(Effect.map(api.claims.positions(query), (positions) => ({ positions }))),
    vault_claimables: (query) => failing(api.claims.vaults(query)),
    admin_list: (query) => failing(api.feeShare.adminList(query)),
    lifetime_fees: (query) =>
      failing(Effect.map(api.analytics.lifetimeFees(query), (fees) => ({ tokenMint: query.tokenMint, lifetimeFeesLamports: fees }))),
    claim_stats: (query) => failing(Effect.map(api.analytics.claimStats(query), (claimers) => ({ claimers }))),
    pools: (query) => failing(Effect.map(api.analytics.pools(query), (pools) => ({ pools }))),
    quote: (query) => failing(api.trade.quote(query)),
    evm_index_status: (body) => failing(Effect.map(api.evm.indexTokenStatus(body), (statuses) => ({ statuses }))),
    evm_positions: (query) => failing(api.evm.claimablePositions(query)),
    evm_creation_fee: () => failing(api.evm.creationFee()),
    me: () => failing(api.identity.me()),
    rate_limit_status: () =>
      failing(Effect.gen(function*() {
        yield* api.ping()
        return { rateLimit: Option.getOrNull(yield* SubscriptionRef.get(api.rateLimit)) }
      })),
    policy: () =>
      Effect.map(spending.remaining, (left) => ({
        policy: { ...policy, wallets: signers.map((signer) => signer.publicKey) },
        remainingToday: {
          swapLamports: left.swapLamports === null ? null : String(left.swapLamports),
          networkFeesLamports: left.networkFeesLamports === null ? null : String(left.networkFeesLamports)
        }
      })),
    login: ({ keyName, wallet }) =>
      failing(Effect.gen(function*() {
        if (loggedIn) {
          return yield* new ToolFailure({ error: "AlreadyLoggedIn", message: "the server already has an API key" })
        }
        const signer = yield* signerFor(wallet)
        const name = keyName ?? "feeshare-mcp"
        const askHuman = McpServer.elicit({
          message: `The wallet ${signer.publicKey} asks for its MFA code to create the API key "${name}".`,
          schema: Schema.Struct({ code: Schema.String.annotations({ description: "the current MFA code" }) })
        }).pipe(
          Effect.map(({ code }) => code),
          Effect.mapError(() => new ToolFailure({ error: "MfaRefused", message: "the wallet requires MFA and no human gave a code" }))
        )
        const credential = yield* api.agentAuth.login({ signer, keyName: name, mfaCode: askHuman })
        api = yield* clientWith(credential.apiKey).pipe(Effect.provideService(Scope.Scope, scope))
        loggedIn = true
        return { wallet: signer.publicKey, keyId: credential.keyId, keyName: name, isSignup: credential.isSignup }
      })),
    prepare_claim: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* Policy.checkMint(policy, rest.tokenMint)
        const request: Claims.ClaimPlanRequest = { ...rest, feeClaimer: signer.publicKey, transactionFormat: policy.transactionFormat }
        const plan = yield* api.claims.createPlan(request)
        return yield* previewClaim(signer, request, plan)
      })),
    prepare_swap: ({ wallet, ...query }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* Policy.checkMint(policy, query.inputMint)
        yield* Policy.checkMint(policy, query.outputMint)
        const quote = yield* api.trade.quote(query)
        const lamports = quote.inputMint === Policy.nativeMint ? quote.inAmount : 0n
        yield* checkSwapCaps(lamports)
        const result = yield* api.trade.swap({ quoteResponse: quote, userPublicKey: signer.publicKey })
        const verified = yield* WireTransaction.verifySwap(result, [signer])
        const stage = stagePreview("swap", "swap", verified)
        const stated = 5000n * BigInt(verified.decoded.size.signatures) + BigInt(result.prioritizationFeeLamports)
        const fees = stated > BigInt(stage.networkFeeLamports) ? stated : BigInt(stage.networkFeeLamports)
        yield* checkDailyFees(fees)
        return yield* save({ action: "swap", wallet: signer, result, lamports, fees }, {
          action: "swap",
          wallet: signer.publicKey,
          mints: [quote.inputMint, quote.outputMint],
          lamportsSpent: String(lamports),
          networkFeesLamports: String(fees),
          stages: [{ ...stage, networkFeeLamports: String(fees) }],
          verification: {
            verified: true,
            checks: ["the wallet is a signer", "present signatures verify", "compute-unit limit as stated"]
          },
          note: `In ${quote.inAmount} of ${quote.inputMint}, out at least ${quote.minOutAmount} of ${quote.outputMint} ` +
            `(slippage ${quote.slippageBps} bps). Execute before the blockhash expires; otherwise prepare again.`
        })
      })),
    prepare_launch: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* Policy.checkMint(policy, rest.tokenMint)
        const lamports = BigInt(rest.initialBuyLamports) + BigInt(rest.tipLamports ?? 0)
        yield* checkSwapCaps(lamports)
        const transaction = yield* api.launch.createTransaction({ ...rest, wallet: signer.publicKey })
        const verified = yield* WireTransaction.verifyLaunch(transaction, { mint: rest.tokenMint, signers: [signer] })
        const stage = stagePreview("launch", "launch", verified)
        yield* checkDailyFees(BigInt(stage.networkFeeLamports))
        return yield* save(
          { action: "launch", wallet: signer, transaction, mint: rest.tokenMint, lamports, fees: BigInt(stage.networkFeeLamports) },
          {
            action: "launch",
            wallet: signer.publicKey,
            mints: [rest.tokenMint],
            lamportsSpent: String(lamports),
            networkFeesLamports: stage.networkFeeLamports,
            stages: [stage],
            verification: {
              verified: true,
              checks: ["the mint is a signer and its signature verifies", "the wallet is a signer", "present signatures verify"]
            },
            note: `Launches ${rest.tokenMint} with an initial buy of ${rest.initialBuyLamports} lamports` +
              (rest.tipLamports === undefined ? "." : ` and a tip of ${rest.tipLamports} lamports to ${rest.tipWallet}.`)
          }
        )
      })),
    prepare_fee_share_update: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* Policy.checkMint(policy, rest.baseMint)
        const entries = yield* api.feeShare.updateConfig({ ...rest, payer: signer.publicKey })
        return yield* previewEntries(
          "fee_share_update",
          signer,
          entries,
          [rest.baseMint],
          `Replaces the fee claimers of ${rest.baseMint}: ${
            rest.claimersArray.map((claimer, i) => `${claimer} ${rest.basisPointsArray[i]} bps`).join(", ")
          }.`
        )
      })),
    prepare_partner_claim: ({ wallet }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        const entries = yield* api.feeShare.partnerClaim({ partnerWallet: signer.publicKey })
        return yield* previewEntries("partner_claim", signer, entries, [], "Claims the wallet's partner fees; the vault withdrawal lands last.")
      })),
    execute: ({ previewId }) =>
      Effect.gen(function*() {
        const { pending, summary } = yield* failing(previews.take(previewId))
        yield* failing(Policy.checkWritable(policy))
        if (policy.askHuman) yield* askHuman(summary)
        return pending.action === "claim"
          ? yield* executeClaim(previewId, pending)
          : pending.action === "swap"
          ? yield* executeSwap(previewId, pending)
          : yield* executeOther(previewId, pending)
      })
  }
}))
