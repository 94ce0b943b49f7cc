/**
 * Claiming everything a wallet is owed in one run: every claimable position (v3 for
 * SOL-quoted positions, a staged plan otherwise: `ClaimTransactions.route`), the deployer's
 * positions (claim batches fetched again until no token remains, within a bound) and every
 * aggregate vault (the gas-sponsored sweep). Each transaction is verified before the wallet
 * signs it; a refusal stops that item with nothing of it signed, and the run goes on with the
 * others. A 400 "Nothing to claim" is an outcome (`nothing`), not a failure.
 *
 * The service is passed in as functions with the shape of the client's `claims` group (pass
 * `client.claims` itself), as `PlanExecutor.execute` takes its `rebuild`.
 *
 * @since 0.1.0
 */
import type { Claims, Plan, PublicKey } from "@feeshare/domain"
import { ClaimTransactions } from "@feeshare/domain"
import { Effect, Option, Schema } from "effect"
import * as Chain from "./Chain.js"
import * as ClaimVerification from "./ClaimVerification.js"
import * as PlanExecutor from "./PlanExecutor.js"
import * as Signers from "./Signers.js"
import * as TransactionSigning from "./TransactionSigning.js"
import type { Verified } from "./TransactionVerification.js"

/**
 * The service calls the flow makes (the client's `claims` group has this shape).
 *
 * @since 0.1.0
 * @category models
 */
export interface Calls<E, R> {
  /** `GET token-launch/claimable-positions`. */
  readonly positions: (
    input: { readonly wallet: string }
  ) => Effect.Effect<ReadonlyArray<Claims.ClaimablePosition>, E, R>
  /** `GET token-launch/damm-v2/vault-claimables`. */
  readonly vaults: (input: { readonly wallet: string }) => Effect.Effect<typeof Claims.VaultClaimables.Type, E, R>
  /** `GET fee-share/deployer/claimable-positions`. */
  readonly deployerPositions: (
    input: { readonly wallet: string }
  ) => Effect.Effect<ClaimTransactions.DeployerPositions, E, R>
  /** `POST token-launch/damm-v2/claim-vault`. */
  readonly claimVault: (input: ClaimTransactions.VaultClaimRequest) => Effect.Effect<ClaimTransactions.VaultClaim, E, R>
  /** `POST fee-share/deployer/claim-txs`. */
  readonly deployerClaim: (
    input: ClaimTransactions.DeployerClaimRequest
  ) => Effect.Effect<ClaimTransactions.DeployerClaimBatch, E, R>
  /** `POST token-launch/claim-txs/v3`. */
  readonly claimV3: (
    input: ClaimTransactions.V3ClaimRequest
  ) => Effect.Effect<ClaimTransactions.V3ClaimTransactions, E, R>
  /** `POST token-launch/create-claim-txs/v2` (asked again to rebuild). */
  readonly createPlan: (input: Claims.ClaimPlanRequest) => Effect.Effect<Plan.TransactionPlan, E, R>
}

/**
 * What an item is: a claimable position, an aggregate vault, or the deployer's positions.
 *
 * @since 0.1.0
 * @category models
 */
export type ItemKind = "position" | "vault" | "deployer"

/**
 * How an item is claimed: the v3 claim, a staged plan, the vault sweep, deployer batches.
 *
 * @since 0.1.0
 * @category models
 */
export type ItemRoute = "v3" | "plan" | "claim-vault" | "deployer-claim"

/**
 * Where an item is: `pending` (not yet done), `verified` (a dry run: every transaction passed
 * every check, nothing signed), `claimed`, `nothing` (the service had nothing to claim),
 * `below-min` (skipped: under `min` for its asset), `refused` (a check failed; nothing of the
 * item was signed), `failed` (the service or the chain failed).
 *
 * @since 0.1.0
 * @category models
 */
export type ItemState = "pending" | "verified" | "claimed" | "nothing" | "below-min" | "refused" | "failed"

/**
 * One row of the run.
 *
 * @since 0.1.0
 * @category models
 */
export interface Item {
  readonly kind: ItemKind
  readonly route: ItemRoute
  /** The token mint (a position), `partner`/`deployer` vault, or the deployer's vault. */
  readonly subject: string
  /** The payout asset (mint). */
  readonly asset: string
  /** The asset's decimals, null when not known. */
  readonly decimals: number | null
  /** What the listing said is owed, in the asset's smallest unit. */
  readonly amount: bigint
  readonly state: ItemState
  /** Transactions landed (or, in a dry run, verified). */
  readonly stages: number
  readonly signatures: ReadonlyArray<string>
  /** The refusal's or failure's tag and message. */
  readonly error: string | null
}

/**
 * What was owed and what was claimed, per payout asset (items under `min` left out).
 *
 * @since 0.1.0
 * @category models
 */
export interface Total {
  readonly asset: string
  readonly decimals: number | null
  readonly owed: bigint
  readonly claimed: bigint
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly wallet: string
  readonly dryRun: boolean
  readonly items: ReadonlyArray<Item>
  readonly totals: ReadonlyArray<Total>
  /** True when there was nothing to claim at all (no item, or only `nothing` and `below-min`). */
  readonly nothingToClaim: boolean
  /** True when every item ended `claimed`, `verified`, `nothing` or `below-min`. */
  readonly complete: boolean
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Verify everything, sign nothing. */
  readonly dryRun?: boolean | undefined
  /** The smallest amount claimed per asset (mint → raw amount); smaller items are skipped. */
  readonly min?: ReadonlyMap<string, bigint> | undefined
  /** Deployer batches asked for at most (default 10; `ClaimTransactions.deployerLimits`). */
  readonly maxDeployerRounds?: number | undefined
  /** `maxTransactions` of each deployer batch request (default: the service's). */
  readonly deployerBatchSize?: number | undefined
  /** Called with every item when it is listed and whenever it changes. */
  readonly onItem?: ((item: Item, index: number) => Effect.Effect<void>) | undefined
  /** Default `confirmed`. */
  readonly commitment?: Chain.Commitment | undefined
  /** See `Chain.sendAndConfirm`. */
  readonly rebroadcastInterval?: Chain.ConfirmOptions["rebroadcastInterval"]
  /** The gas sponsor that must pay sponsored claims, when known. */
  readonly sponsor?: string | undefined
}

/**
 * Default bound of deployer batch requests in one run.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultMaxDeployerRounds = 10

/**
 * The deployer's claim still had token mints remaining after the bound of batch requests.
 *
 * @since 0.1.0
 * @category errors
 */
export class DeployerRoundsExceeded extends Schema.TaggedError<DeployerRoundsExceeded>()("DeployerRoundsExceeded", {
  rounds: Schema.Number,
  remaining: Schema.Array(Schema.String),
  message: Schema.String
}) {}

/**
 * `true` for the service's 400 that says there is nothing to claim.
 *
 * @since 0.1.0
 * @category rules
 */
export const isNothingToClaim = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "BadRequest" &&
  "message" in error && typeof error.message === "string" && ClaimTransactions.isNothingToClaim(error.message)

/**
 * The items a wallet is owed, from its listings (pure): positions with something claimable;
 * the deployer's positions when they owe something; every non-empty vault, except the
 * deployer's vault in the deployer's quote mint when the deployer item claims it.
 *
 * @since 0.1.0
 * @category rules
 */
export const itemsOf = (
  positions: ReadonlyArray<Claims.ClaimablePosition>,
  vaults: ReadonlyArray<Claims.AggregateVault>,
  deployer: ClaimTransactions.DeployerPositions | undefined
): ReadonlyArray<Item> => {
  const item = (fields: Pick<Item, "kind" | "route" | "subject" | "asset" | "decimals" | "amount">): Item => ({
    ...fields,
    state: "pending",
    stages: 0,
    signatures: [],
    error: null
  })
  const items: Array<Item> = []
  for (const position of positions) {
    if (!(position.totalClaimableLamportsUserShare > 0)) continue
    const route = ClaimTransactions.route(position)
    const asset = position.quoteMint ?? ClaimTransactions.wrappedSolMint
    items.push(item({
      kind: "position",
      route,
      subject: position.baseMint,
      asset,
      decimals: asset === ClaimTransactions.wrappedSolMint ? 9 : null,
      amount: BigInt(Math.trunc(position.totalClaimableLamportsUserShare))
    }))
  }
  const owed = deployer === undefined ? 0n : ClaimTransactions.deployerOwed(deployer)
  if (deployer !== undefined && owed > 0n) {
    items.push(item({
      kind: "deployer",
      route: "deployer-claim",
      subject: deployer.vault ?? "deployer",
      asset: deployer.quoteMint,
      decimals: deployer.quoteMint === ClaimTransactions.wrappedSolMint ? 9 : null,
      amount: owed
    }))
  }
  for (const vault of vaults) {
    if (vault.claimableAmount <= 0n) continue
    if (vault.kind === "deployer" && owed > 0n && vault.quoteMint === deployer?.quoteMint) continue
    items.push(item({
      kind: "vault",
      route: "claim-vault",
      subject: `${vault.kind} vault`,
      asset: vault.quoteMint,
      decimals: vault.quoteDecimals,
      amount: vault.claimableAmount
    }))
  }
  return items
}

/**
 * Totals per asset of items (pure): `owed` of every item not under `min`, `claimed` of the
 * items claimed.
 *
 * @since 0.1.0
 * @category rules
 */
export const totalsOf = (items: ReadonlyArray<Item>): ReadonlyArray<Total> => {
  const totals = new Map<string, { decimals: number | null; owed: bigint; claimed: bigint }>()
  for (const item of items) {
    if (item.state === "below-min") continue
    const total = totals.get(item.asset) ?? { decimals: item.decimals, owed: 0n, claimed: 0n }
    total.owed += item.amount
    if (item.state === "claimed") total.claimed += item.amount
    totals.set(item.asset, total)
  }
  return [...totals].map(([asset, total]) => ({ asset, ...total }))
}

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? `${"_tag" in error && typeof error._tag === "string" ? `${error._tag}: ` : ""}${error.message}`
    : String(error)

const isRefusal = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" &&
  (error._tag === "InvalidPlan" || error._tag in refusalTags)

const refusalTags: Record<string, true> = {
  MalformedTransaction: true,
  NonCanonicalTransaction: true,
  FormatMismatch: true,
  MessageHashMismatch: true,
  UnexpectedSigner: true,
  MissingSigner: true,
  SignerNotRequired: true,
  FeePayerMismatch: true,
  InvalidSignature: true,
  SignatureUnavailable: true,
  LifetimeMismatch: true,
  MissingV1Limits: true,
  BudgetMismatch: true,
  SizeMismatch: true,
  DestinationMismatch: true,
  WalletOutflow: true
}

/**
 * Claims everything `wallet` (the primary `Signers` key) is owed; see the module description.
 * Fails only when a listing cannot be read; each item's own failure is its row's state.
 *
 * @since 0.1.0
 * @category flows
 */
export const run = <E, R>(
  calls: Calls<E, R>,
  options: Options = {}
): Effect.Effect<Result, E, R | Chain.Chain | Signers.Signers> =>
  Effect.gen(function*() {
    const signers = yield* Signers.Signers
    const wallet: PublicKey.PublicKey = signers.primary.publicKey
    const dryRun = options.dryRun === true
    const confirm = { commitment: options.commitment, rebroadcastInterval: options.rebroadcastInterval }
    const nothingAsUndefined = <A>(effect: Effect.Effect<A, E, R>) =>
      Effect.catchIf(effect, isNothingToClaim, () => Effect.succeed(undefined))
    const [positions, vaults, deployer] = yield* Effect.all([
      nothingAsUndefined(calls.positions({ wallet })),
      nothingAsUndefined(calls.vaults({ wallet })),
      nothingAsUndefined(calls.deployerPositions({ wallet }))
    ], { concurrency: 3 })
    const items = [...itemsOf(positions ?? [], vaults?.vaults ?? [], deployer)]
    const emit = (index: number) => options.onItem === undefined ? Effect.void : options.onItem(items[index]!, index)
    const update = (index: number, change: Partial<Item>) =>
      Effect.suspend(() => {
        items[index] = { ...items[index]!, ...change }
        return emit(index)
      })
    for (const [index, item] of items.entries()) {
      const min = options.min?.get(item.asset)
      if (min !== undefined && item.amount < min) items[index] = { ...item, state: "below-min" }
      yield* emit(index)
    }

    /** Verifies all, then (unless a dry run) signs all and sends in order; counts landed stages. */
    const sendAll = (index: number, verified: ReadonlyArray<Verified>) =>
      Effect.gen(function*() {
        if (dryRun) return yield* update(index, { stages: items[index]!.stages + verified.length })
        const signed = yield* Effect.forEach(verified, TransactionSigning.sign)
        for (const transaction of signed) {
          const landed = yield* Chain.sendAndConfirm(transaction, confirm)
          const current = items[index]!
          yield* update(index, { stages: current.stages + 1, signatures: [...current.signatures, landed.signature] })
        }
      })

    const claimOne = (index: number) =>
      Effect.gen(function*() {
        const item = items[index]!
        switch (item.route) {
          case "v3": {
            const answer = yield* calls.claimV3({ feeClaimer: wallet, tokenMint: item.subject })
            const verified = yield* Effect.forEach(
              answer,
              (entry, i) => ClaimVerification.verifyV3(entry, signers.all, `v3 ${i}`)
            )
            return yield* sendAll(index, verified)
          }
          case "plan": {
            const request: Claims.ClaimPlanRequest = { feeClaimer: wallet, tokenMint: item.subject }
            const plan = yield* calls.createPlan(request)
            if (dryRun) {
              const verification = yield* PlanExecutor.verify(plan, { format: "v0" })
              return yield* update(index, { stages: verification.stages.length })
            }
            const result = yield* PlanExecutor.execute(plan, {
              rebuild: () => calls.createPlan(request),
              format: "v0",
              commitment: options.commitment,
              rebroadcastInterval: options.rebroadcastInterval
            })
            return yield* update(index, {
              stages: result.stages.length,
              signatures: result.stages.map((stage) => stage.signature)
            })
          }
          case "claim-vault": {
            const kind = item.subject.startsWith("partner") ? "partner" : "deployer"
            const answer = yield* calls.claimVault({ kind, wallet, quoteMint: item.asset })
            const verified = yield* ClaimVerification.verifyVaultClaim(answer, signers.all, {
              sponsor: options.sponsor
            })
            return yield* sendAll(index, [verified])
          }
          case "deployer-claim": {
            const bound = options.maxDeployerRounds ?? defaultMaxDeployerRounds
            const vault = deployer?.vault ?? undefined
            for (let round = 1; round <= bound; round++) {
              const batch = yield* calls.deployerClaim({
                wallet,
                ...(options.deployerBatchSize === undefined ? {} : { maxTransactions: options.deployerBatchSize })
              })
              const verified = yield* Effect.forEach(batch.transactions, (entry, i) =>
                ClaimVerification.verifyDeployerClaim(entry, signers.all, {
                  label: `deployer round ${round} transaction ${i}`,
                  quoteMint: item.asset,
                  vault,
                  sponsor: options.sponsor
                }))
              yield* sendAll(index, verified)
              // a dry run cannot see past the first batch: the next one needs it landed
              if (dryRun || batch.remainingTokenMints.length === 0) return
              if (round === bound) {
                return yield* new DeployerRoundsExceeded({
                  rounds: bound,
                  remaining: batch.remainingTokenMints,
                  message:
                    `the deployer claim still had ${batch.remainingTokenMints.length} token(s) remaining after ${bound} batch(es)`
                })
              }
            }
            return
          }
        }
      })

    for (const index of items.keys()) {
      if (items[index]!.state !== "pending") {
        continue
      }
      const outcome = yield* Effect.either(claimOne(index))
      if (outcome._tag === "Right") {
        yield* update(index, { state: dryRun ? "verified" : "claimed" })
      } else if (isNothingToClaim(outcome.left)) {
        yield* update(index, { state: "nothing" })
      } else {
        yield* update(index, {
          state: isRefusal(outcome.left) ? "refused" : "failed",
          error: describe(outcome.left)
        })
      }
    }
    const done = new Set<ItemState>(["claimed", "verified", "nothing", "below-min"])
    const idle = new Set<ItemState>(["nothing", "below-min"])
    const result: Result = {
      wallet,
      dryRun,
      items,
      totals: totalsOf(items),
      nothingToClaim: items.every((item) =>
        idle.has(item.state)
      ),
      complete: items.every((item) => done.has(item.state))
    }
    return result
  })

/**
 * `Option` of the first item that did not end well (refused or failed), for callers that
 * turn an incomplete run into an error.
 *
 * @since 0.1.0
 * @category rules
 */
export const firstProblem = (result: Pick<Result, "items">): Option.Option<Item> =>
  Option.fromNullable(result.items.find((item) => item.state === "refused" || item.state === "failed"))
