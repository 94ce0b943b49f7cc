/**
 * Sign-and-send for the service's simpler answers: the launch transaction, the swap
 * transaction, config creation (its bundles through the `BundleRelay`, each landing whole,
 * then its transactions in order), the fee-share update entries (in order, each after the
 * previous landed) and
 * the partner-claim entries (all but the last together; the last, which withdraws from the
 * vault, only after the others landed). Every transaction is verified before any is signed.
 *
 * @since 0.1.0
 */
import type { FeeShare, PublicKey, Signer, Trade } from "@feeshare/domain"
import { Effect, Option } from "effect"
import { BundleRejected, BundleRelay, NoBundleRelay, type RelayUnavailable } from "./BundleRelay.js"
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
export type FlowError =
  | WireTransaction.Refusal
  | Signer.SignerError
  | Chain.ConfirmError
  | BundleRejected
  | NoBundleRelay
  | RelayUnavailable

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
  return yield* send(yield* signLaunch(transaction, options.mint), options)
})

/**
 * Verifies the launch transaction (`WireTransaction.verifyLaunch`: signed by the mint, the
 * wallet the fee payer) and signs it, without sending it.
 *
 * @since 0.1.0
 * @category flows
 */
export const signLaunch = Effect.fn("Flows.signLaunch")(function*(transaction: string, mint: PublicKey.PublicKey) {
  const signers = yield* Signers.Signers
  return yield* WireTransaction.sign(yield* WireTransaction.verifyLaunch(transaction, { mint, signers: signers.all }))
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

/**
 * What config creation did: the config key (for the launch's `configKey`), whether it was
 * created now, and the signatures of its bundles and transactions.
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfigCreated {
  readonly configKey: string
  readonly created: boolean
  readonly bundles: ReadonlyArray<ReadonlyArray<string>>
  readonly transactions: ReadonlyArray<Chain.Landed>
}

/**
 * Verifies every transaction of a config-creation answer (no plan metadata: the wallet is the
 * fee payer and its slot the only empty one, every present signature verifies, the blockhash
 * is the stated one), signs them with the wallet only, sends each bundle through the
 * `BundleRelay` (all of them first: a bundle lands whole or not at all, and a bundle that does
 * not land is `BundleRejected`, naming the transaction that failed), then the transactions in
 * order. `needsCreation: false` is a success that reuses the key (nothing is signed). Answers
 * with bundles and no `BundleRelay` fail with `NoBundleRelay` before any signature.
 *
 * @since 0.1.0
 * @category flows
 */
export const createConfig = Effect.fn("Flows.createConfig")(function*(
  answer: FeeShare.CreateConfigAnswer,
  options: Options = {}
) {
  if (!answer.needsCreation) {
    const existing: ConfigCreated = {
      configKey: answer.meteoraConfigKey,
      created: false,
      bundles: [],
      transactions: []
    }
    return existing
  }
  const signers = yield* Signers.Signers
  const wallet = [signers.primary]
  const bundles = answer.bundles ?? []
  const relay = yield* Effect.serviceOption(BundleRelay)
  if (bundles.length > 0 && Option.isNone(relay)) {
    return yield* new NoBundleRelay({
      message: `the answer holds ${bundles.length} bundle(s) and no bundle relay is provided; nothing was signed`
    })
  }
  const verifiedBundles = yield* Effect.forEach(
    bundles,
    (bundle, i) =>
      Effect.forEach(
        bundle,
        (entry, j) => WireTransaction.verifyWalletTransaction(entry, wallet, `bundle ${i} transaction ${j}`)
      )
  )
  const verified = yield* Effect.forEach(
    answer.transactions ?? [],
    (entry, i) => WireTransaction.verifyWalletTransaction(entry, wallet, `transaction ${i}`)
  )
  const signedBundles = yield* Effect.forEach(verifiedBundles, signAll)
  const signed = yield* signAll(verified)
  const landedBundles: Array<ReadonlyArray<string>> = []
  for (const [i, bundle] of signedBundles.entries()) {
    if (Option.isNone(relay)) break
    const result = yield* relay.value.send(bundle.map((transaction) => transaction.text))
    if (!result.landed) {
      const failed = result.failed
      return yield* new BundleRejected({
        bundle: i,
        index: failed?.index ?? -1,
        signature: failed?.signature ?? "",
        error: failed?.error ?? "not landed",
        message: `bundle ${i}: transaction ${failed?.index ?? "?"} failed (${
          failed?.error ?? "not landed"
        }); none of the bundle's transactions landed`
      })
    }
    landedBundles.push(result.signatures)
  }
  const transactions = yield* Effect.forEach(signed, (transaction) => send(transaction, options))
  const created: ConfigCreated = {
    configKey: answer.meteoraConfigKey,
    created: true,
    bundles: landedBundles,
    transactions
  }
  return created
})
