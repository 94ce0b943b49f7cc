/**
 * The sweep of an aggregate vault (`claim-vault`) and the claim of a wallet's deployer
 * positions (deployer claim batches) as durable workflows, like a position's claim
 * (`Claim.ts`): the journaled stages of an earlier attempt are settled with the chain first
 * (nothing new is asked of the service while they can still land); every transaction the
 * service answers is verified (`ClaimVerification`: gas-sponsored, nothing leaves the wallet,
 * the payout goes to the wallet's own token account) before the wallet signs it, and a refused
 * one is reported, never signed; the signed bytes are journaled before they are sent.
 *
 * @since 0.1.0
 */
import { Workflow } from "@effect/workflow"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import { ClaimTransactions, type Signer } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as ClaimCost from "@feeshare/solana/ClaimCost"
import * as ClaimVerification from "@feeshare/solana/ClaimVerification"
import * as TransactionSigning from "@feeshare/solana/TransactionSigning"
import type { Verified } from "@feeshare/solana/TransactionVerification"
import { Clock, Effect, Option, Schema } from "effect"
import { settleEarlier } from "./Claim.js"
import * as Item from "./Item.js"
import * as Journal from "./Journal.js"
import * as JournalWrites from "./JournalWrites.js"
import * as Outcome from "./Outcome.js"
import { Settings } from "./Settings.js"

/**
 * The sweep of one vault or of the deployer's positions, durable: the idempotency key is the
 * run's key (the wallet, the item's subject, `Item.ts`, and the round) and, on a cluster, the
 * placement number (`Placement.ts`; 0 on one machine).
 *
 * @since 0.1.0
 * @category workflows
 */
export const SweepWorkflow = Workflow.make({
  name: "FeeshareKeeperSweep",
  payload: Schema.Struct({
    wallet: Schema.String,
    subject: Schema.String,
    key: Schema.String,
    claimable: Schema.BigInt,
    placement: Schema.optional(Schema.Number)
  }),
  success: Outcome.Outcome,
  idempotencyKey: ({ key, placement }) => placement === undefined || placement === 0 ? key : `${key}@${placement}`
})

/**
 * A sweep's run.
 *
 * @since 0.1.0
 * @category models
 */
export interface Run {
  readonly wallet: string
  /** The item's subject (`Item.vaultSubject`, `Item.deployerSubject`). */
  readonly subject: string
  readonly key: string
  /** What the listing said is owed, in the quote mint's smallest unit. */
  readonly claimable: bigint
}

type SweepSubject = Exclude<Item.Subject, { readonly kind: "position" }>

const nothing = () => Outcome.make({ outcome: "nothing" })

/** `undefined` for the service's 400 "Nothing to claim", the answer otherwise. */
const orNothing = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(effect, ClaimAll.isNothingToClaim, () => Effect.succeed(undefined))

/**
 * What the service lists as owed now for a vault or the deployer's positions (0 when nothing).
 *
 * @since 0.1.0
 * @category claiming
 */
export const owedNow = (wallet: string, subject: SweepSubject) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    if (subject.kind === "vault") {
      const listed = yield* orNothing(client.claims.vaults({ wallet }))
      return listed?.vaults.find((v) => v.kind === subject.vault && v.quoteMint === subject.quoteMint)
        ?.claimableAmount ?? 0n
    }
    const positions = yield* orNothing(client.claims.deployerPositions({ wallet }))
    return positions === undefined || positions.quoteMint !== subject.quoteMint
      ? 0n
      : ClaimTransactions.deployerOwed(positions)
  })

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/**
 * Signs, journals and sends one answer of the service (its verified transactions, in order):
 * the signed bytes of all of them journaled in one commit first (round `round`), then each
 * sent and confirmed in turn, its fate journaled. The fees are those the wallet pays
 * (`ClaimCost`: nothing for a gas-sponsored claim).
 */
const sendRound = (
  run: Run,
  signer: Signer.Signer.Service,
  verified: ReadonlyArray<Verified>,
  stageIds: ReadonlyArray<string>,
  round: number,
  paid: { fees: bigint; signatures: Array<string> }
) =>
  Effect.gen(function*() {
    const { commitment, options, rebroadcastInterval, runner } = yield* Settings
    const chain = yield* Chain.Chain
    const signed = yield* Effect.forEach(verified, TransactionSigning.sign)
    // no stated lifetime (a vault sweep): the newest blockhash's, which no signed transaction outlives
    const bound = yield* chain.lastValidBlockHeight(commitment)
    const now = yield* Clock.currentTimeMillis
    const rows = signed.map((transaction, i): Journal.StageRow => ({
      key: run.key,
      wallet: run.wallet,
      mint: run.subject,
      round,
      stage: stageIds[i]!,
      kind: "claim",
      dependsOn: i === 0 ? [] : [stageIds[i - 1]!],
      signature: transaction.signature,
      bytes: base64(transaction.bytes),
      lastValidBlockHeight: Option.getOrElse(transaction.lastValidBlockHeight, () => bound),
      fee: ClaimCost.ofTransaction(verified[i]!.decoded, signer.publicKey).fees,
      claimable: run.claimable,
      status: "signed",
      slot: null,
      createdAt: now,
      runner
    }))
    // nothing of the round is sent before its signed bytes are journaled
    yield* JournalWrites.recordSigned.run(rows).pipe(Effect.orDie)
    if (options.hooks?.afterJournal !== undefined) yield* options.hooks.afterJournal(rows.map((row) => row.stage))
    const confirm = { commitment, rebroadcastInterval }
    for (const [i, transaction] of signed.entries()) {
      const row = rows[i]!
      const sendable: Chain.Sendable = {
        bytes: transaction.bytes,
        signature: transaction.signature,
        lastValidBlockHeight: Option.some(row.lastValidBlockHeight)
      }
      const submitted = yield* Chain.submit(sendable, confirm).pipe(
        Effect.tapError((error) =>
          error._tag === "BlockhashExpired" ? JournalWrites.settle.run(row, "expired", null) : Effect.void
        )
      )
      if (options.hooks?.afterSend !== undefined) yield* options.hooks.afterSend(row.stage, row.signature)
      const landed = yield* Chain.confirm(submitted, confirm).pipe(
        Effect.tapError((error) =>
          error._tag === "BlockhashExpired"
            ? JournalWrites.settle.run(row, "expired", null)
            : error._tag === "TransactionFailed"
            ? Effect.zipRight(
              JournalWrites.settle.run(row, "failed", error.slot),
              Effect.sync(() => {
                paid.fees += row.fee
              })
            )
            : Effect.void
        )
      )
      yield* JournalWrites.settle.run(row, "landed", landed.slot)
      paid.fees += row.fee
      paid.signatures.push(row.signature)
    }
  })

/**
 * The claim itself, from round `firstRound` on: asks the service for the sweep (or the
 * deployer's batches, asked again while tokens remain, `ClaimAll.defaultMaxDeployerRounds` at
 * most), verifies every transaction, checks that the first answer pays when the wallet's
 * `maxCostFraction` is set, then signs, journals and sends.
 */
const claim = (
  run: Run,
  subject: SweepSubject,
  signer: Signer.Signer.Service,
  firstRound: number,
  paid: { fees: bigint; signatures: Array<string> }
) =>
  Effect.gen(function*() {
    const { wallets } = yield* Settings
    const client = yield* FeeShareClient
    const wallet = run.wallet
    const maxCostFraction = wallets.get(wallet)?.rules.maxCostFraction
    const pays = (verified: ReadonlyArray<Verified>, claimable: bigint) => {
      if (maxCostFraction === undefined) return undefined
      const cost = ClaimCost.ofTransactions(verified.map((v) => v.decoded), wallet)
      return ClaimCost.pays(cost, claimable, maxCostFraction)
        ? undefined
        : Outcome.skip(cost, claimable, maxCostFraction)
    }
    if (subject.kind === "vault") {
      const answer = yield* orNothing(
        client.claims.claimVault({ kind: subject.vault, wallet, quoteMint: subject.quoteMint })
      )
      if (answer === undefined) return nothing()
      const verified = yield* ClaimVerification.verifyVaultClaim(answer, [signer])
      const skipped = pays([verified], answer.claimable.claimableAmount)
      if (skipped !== undefined) return skipped
      yield* sendRound(run, signer, [verified], ["sweep"], firstRound, paid)
      return Outcome.make({
        outcome: "claimed",
        lamports: answer.claimable.claimableAmount,
        fees: paid.fees,
        signatures: paid.signatures
      })
    }
    const positions = yield* orNothing(client.claims.deployerPositions({ wallet }))
    const owed = positions === undefined ? 0n : ClaimTransactions.deployerOwed(positions)
    if (positions === undefined || owed === 0n) return nothing()
    const bound = ClaimAll.defaultMaxDeployerRounds
    for (let batchNumber = 0; batchNumber < bound; batchNumber++) {
      const batch = yield* orNothing(client.claims.deployerClaim({ wallet }))
      if (batch === undefined || batch.transactions.length === 0) break
      const verified = yield* Effect.forEach(batch.transactions, (entry, i) =>
        ClaimVerification.verifyDeployerClaim(entry, [signer], {
          label: `deployer batch ${batchNumber} transaction ${i}`,
          quoteMint: subject.quoteMint,
          vault: positions.vault
        }))
      if (batchNumber === 0) {
        const skipped = pays(verified, owed)
        if (skipped !== undefined) {
          return skipped
        }
      }
      const ids = verified.map((_, i) =>
        `deployer-${i}`
      )
      yield* sendRound(run, signer, verified, ids, firstRound + batchNumber, paid)
      if (batch.remainingTokenMints.length === 0) break
      if (batchNumber === bound - 1) {
        return yield* new ClaimAll.DeployerRoundsExceeded({
          rounds: bound,
          remaining: batch.remainingTokenMints,
          message:
            `the deployer claim still had ${batch.remainingTokenMints.length} token(s) remaining after ${bound} batch(es)`
        })
      }
    }
    return paid.signatures.length === 0 ? nothing() : Outcome.make({
      outcome: "claimed",
      lamports: owed,
      fees: paid.fees,
      signatures: paid.signatures
    })
  })

/**
 * Sweeps one vault or claims the deployer's positions (the body of the workflow): settles what
 * an earlier attempt journaled; an earlier attempt that landed a transaction is that attempt's
 * outcome (what is owed since is the next run's); else claims what the service lists as owed
 * now. Every failure becomes an `Outcome` with its tag, with the fees paid by then.
 *
 * @since 0.1.0
 * @category claiming
 */
export const sweep = (
  run: Run
): Effect.Effect<Outcome.Outcome, never, Settings | Journal.Journal | Chain.Chain | FeeShareClient> =>
  Effect.gen(function*() {
    const { wallets } = yield* Settings
    const wallet = wallets.get(run.wallet)
    if (wallet === undefined) {
      return Outcome.make({ outcome: "failed", tag: "UnknownWallet", message: `no key for ${run.wallet}` })
    }
    const subject = Item.parse(run.subject)
    if (subject.kind === "position") {
      return Outcome.make({ outcome: "failed", tag: "NotASweep", message: `${run.subject} is a position` })
    }
    yield* settleEarlier.run({ wallet: run.wallet, mint: run.subject, key: run.key })
    const journal = yield* Journal.Journal
    const earlier = yield* journal.stagesOf(run.key)
    const landed = earlier.filter((row) => row.status === "landed")
    if (landed.length > 0) {
      return Outcome.make({
        outcome: "claimed",
        // what the attempt that landed claimed (the journal's), else what the pass saw
        lamports: landed.find((row) => row.claimable !== null)?.claimable ?? run.claimable,
        fees: earlier.filter((row) => row.status === "landed" || row.status === "failed").reduce(
          (sum, row) => sum + row.fee,
          0n
        ),
        signatures: landed.map((row) => row.signature)
      })
    }
    const firstRound = earlier.reduce((max, row) => Math.max(max, row.round + 1), 0)
    const claimable = earlier.length === 0 ? run.claimable : yield* owedNow(run.wallet, subject)
    if (claimable === 0n) return nothing()
    const paid = { fees: 0n, signatures: [] as Array<string> }
    return yield* claim({ ...run, claimable }, subject, wallet.signer, firstRound, paid).pipe(
      Effect.catchAll((error) => Effect.succeed(Outcome.fromError(error, paid.fees)))
    )
  }).pipe(Effect.catchAll((error) => Effect.succeed(Outcome.fromError(error))))

/**
 * The sweep workflow's implementation (the sweep as the workflow's body, as `Claim.ts` does).
 *
 * @since 0.1.0
 * @category layers
 */
export const SweepWorkflowLive = SweepWorkflow.toLayer((payload) => sweep(payload))

/**
 * Dry run of a sweep: the service's transactions (the vault sweep, or the deployer's first
 * batch: the next one needs it landed) verified as for real; nothing signed or sent.
 *
 * @since 0.1.0
 * @category claiming
 */
export const dryRun = (wallet: Signer.Signer.Service, subject: string, claimable: bigint) =>
  Effect.gen(function*() {
    const client = yield* FeeShareClient
    const item = Item.parse(subject)
    const address = wallet.publicKey
    if (item.kind === "position") {
      return Outcome.make({ outcome: "failed", tag: "NotASweep", message: `${subject} is a position` })
    }
    if (item.kind === "vault") {
      const answer = yield* orNothing(
        client.claims.claimVault({ kind: item.vault, wallet: address, quoteMint: item.quoteMint })
      )
      if (answer === undefined) return nothing()
      yield* ClaimVerification.verifyVaultClaim(answer, [wallet])
      return Outcome.make({ outcome: "dry-run", lamports: answer.claimable.claimableAmount })
    }
    const positions = yield* orNothing(client.claims.deployerPositions({ wallet: address }))
    const batch = yield* orNothing(client.claims.deployerClaim({ wallet: address }))
    if (batch === undefined) return nothing()
    yield* Effect.forEach(batch.transactions, (entry, i) =>
      ClaimVerification.verifyDeployerClaim(entry, [wallet], {
        label: `deployer batch 0 transaction ${i}`,
        quoteMint: item.quoteMint,
        vault: positions?.vault
      }))
    return Outcome.make({ outcome: "dry-run", lamports: claimable })
  }).pipe(Effect.catchAll((error) => Effect.succeed(Outcome.fromError(error))))
