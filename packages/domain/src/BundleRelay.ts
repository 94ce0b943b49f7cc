/**
 * A bundle relay: a group of signed transactions that land together or not at all. The
 * service's own relay (its body and tip recipient) is not documented, so feeshare speaks this
 * protocol, which the sandbox serves (`POST {root_url}/sandbox/bundles`): a JSON body of
 * 1 to 5 base58 signed transactions, in order; the answer says whether all of them landed,
 * their signatures, and which one failed (then none landed). No tip is required or sent.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { ArrayBetween } from "./internal/schema.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * The most transactions a bundle holds (the common relays' limit).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxTransactions = 5

/**
 * A bundle to land: signed transactions, base58, in the order they must execute.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RelayRequest = Schema.Struct({
  transactions: ArrayBetween(Base58Transaction, 1, maxTransactions)
}).annotations({ identifier: "BundleRelayRequest" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type RelayRequest = typeof RelayRequest.Type

/**
 * The transaction of a bundle that failed, by its index in the bundle, and why.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FailedTransaction = Schema.Struct({
  index: Schema.Int,
  signature: Schema.String,
  error: Schema.String
}).annotations({ identifier: "BundleFailedTransaction" })

/**
 * What became of a bundle: `landed` (every transaction, in order, with `signatures` in the
 * bundle's order), or not (`failed` names the transaction; none of them landed).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RelayAnswer = Schema.Struct({
  landed: Schema.Boolean,
  signatures: Schema.Array(Schema.String),
  slot: Schema.NullOr(Schema.Number),
  failed: Schema.NullOr(FailedTransaction)
}).annotations({ identifier: "BundleRelayAnswer" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type RelayAnswer = typeof RelayAnswer.Type
