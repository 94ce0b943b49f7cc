/**
 * Sign-and-send for the service's simpler answers: the launch transaction, the swap
 * transaction, the fee-share update entries (in order, each after the previous landed) and
 * the partner-claim entries (all but the last together; the last, which withdraws from the
 * vault, only after the others landed). Every transaction is verified before any is signed.
 *
 * @since 0.1.0
 */
import type { FeeShare, PublicKey, Signer, Trade } from "@feeshare/domain"
import { Effect } from "effect"
import * as Chain from "./Chain.js"
import * as Signers from "./Signers.js"
import * as WireTransaction from "./WireTransaction.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Default `confirmed`. */
  readonly commitment?: Chain.Commitment | undefined
  /** See `Chain.sendAndConfirm`. */
  readonly rebroadcastInterval?: Chain.ConfirmOptions["rebroadcastInterval"]
}

/**
 * Everything a flow can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type FlowError = WireTransaction.Refusal | Signer.SignerError | Chain.ConfirmError

const signAll = (verified: ReadonlyArray<WireTransaction.Verified>) => Effect.forEach(verified, WireTransaction.sign)

const send = (signed: WireTransaction.Signed, options: Options) =>
  Chain.sendAndConfirm(signed, { commitment: options.commitment, rebroadcastInterval: options.rebroadcastInterval })

/**
 * Verifies, co-signs and sends the launch transaction (already signed by `mint`).
 *
 * @since 0.1.0
 * @category flows
 */
export const launch = Effect.fn("Flows.launch")(function*(
  transaction: string,
  options: Options & { readonly mint: PublicKey.PublicKey }
) {
  const signers = yield* Signers.Signers
  const verified = yield* WireTransaction.verifyLaunch(transaction, { mint: options.mint, signers: signers.all })
  return yield* send(yield* WireTransaction.sign(verified), options)
})

/**
 * Verifies, signs and sends a swap transaction.
 *
 * @since 0.1.0
 * @category flows
 */
export const swap = Effect.fn("Flows.swap")(function*(result: Trade.SwapResult, options: Options = {}) {
  const signers = yield* Signers.Signers
  const verified = yield* WireTransaction.verifySwap(result, signers.all)
  return yield* send(yield* WireTransaction.sign(verified), options)
})

const verifyEntries = (entries: FeeShare.TransactionEntries, signers: Signers.Signers.Service) =>
  Effect.forEach(entries.transactions, (entry, i) => WireTransaction.verifyEntry(entry, signers.all, `entry ${i}`))

/**
 * Verifies every fee-share update entry, signs them, then sends them in order, each after
 * the previous one landed.
 *
 * @since 0.1.0
 * @category flows
 */
export const feeShareUpdate = Effect.fn("Flows.feeShareUpdate")(function*(
  entries: FeeShare.TransactionEntries,
  options: Options = {}
) {
  const signers = yield* Signers.Signers
  const signed = yield* signAll(yield* verifyEntries(entries, signers))
  return yield* Effect.forEach(signed, (transaction) => send(transaction, options))
})

/**
 * Verifies every partner-claim entry, signs them, sends all but the last together, and the
 * last only after the others landed.
 *
 * @since 0.1.0
 * @category flows
 */
export const partnerClaim = Effect.fn("Flows.partnerClaim")(function*(
  entries: FeeShare.TransactionEntries,
  options: Options = {}
) {
  const signers = yield* Signers.Signers
  const signed = yield* signAll(yield* verifyEntries(entries, signers))
  if (signed.length === 0) return []
  const first = yield* Effect.forEach(signed.slice(0, -1), (transaction) => send(transaction, options), {
    concurrency: "unbounded"
  })
  const last = yield* send(signed[signed.length - 1]!, options)
  return [...first, last]
})
