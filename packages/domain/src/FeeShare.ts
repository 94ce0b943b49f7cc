/**
 * Fee sharing: replacing a token's claimers and their basis points, partner claims, and the
 * admin list.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as BasisPoints from "./BasisPoints.js"
import { ArrayBetween, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * Limits and rules stated by the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = { minClaimers: 1, maxClaimers: 100, claimersWithoutLookupTables: 7 } as const

/**
 * Rule texts, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  sameLength: "must have as many entries as claimersArray",
  sum: "must sum to exactly 10000",
  duplicate: "must not repeat a claimer",
  lookupTables: "is required when there are more than 7 claimers"
} as const

/**
 * A transaction to sign, with the blockhash it was built against.
 *
 * @since 0.1.0
 * @category resources
 */
export const TransactionEntry = Schema.Struct({
  blockhash: Schema.Struct({ blockhash: Schema.String, lastValidBlockHeight: Schema.Number }),
  transaction: Base58Transaction
}).annotations({ identifier: "TransactionEntry" })

/**
 * @since 0.1.0
 * @category resources
 */
export type TransactionEntry = typeof TransactionEntry.Type

/**
 * `{ transactions: [entry] }`: the fee-share update and partner-claim answers.
 *
 * @since 0.1.0
 * @category resources
 */
export const TransactionEntries = Schema.Struct({ transactions: Schema.Array(TransactionEntry) }).annotations({
  identifier: "TransactionEntries"
})

/**
 * @since 0.1.0
 * @category resources
 */
export type TransactionEntries = typeof TransactionEntries.Type

const Claimers = ArrayBetween(PublicKey, limits.minClaimers, limits.maxClaimers).pipe(
  Schema.filter((claimers) => {
    const seen = new Set<string>()
    for (let i = 0; i < claimers.length; i++) {
      if (seen.has(claimers[i]!)) return { path: [i], message: rules.duplicate }
      seen.add(claimers[i]!)
    }
    return true
  })
)

/**
 * Body of the fee-share update: claimers and their basis points, aligned by index.
 *
 * @since 0.1.0
 * @category requests
 */
export const UpdateConfigRequest = Schema.Struct({
  baseMint: PublicKey,
  basisPointsArray: ArrayBetween(BasisPoints.BasisPoints, limits.minClaimers, limits.maxClaimers),
  claimersArray: Claimers,
  payer: PublicKey,
  additionalLookupTables: optionalNullable(Schema.Array(PublicKey))
}).pipe(
  Schema.filter((request) => {
    if (request.basisPointsArray.length !== request.claimersArray.length) {
      return { path: ["basisPointsArray"], message: rules.sameLength }
    }
    const sum = request.basisPointsArray.reduce((a, b) => a + b, 0)
    if (sum !== BasisPoints.total) return { path: ["basisPointsArray"], message: rules.sum }
    if (
      request.claimersArray.length > limits.claimersWithoutLookupTables &&
      (request.additionalLookupTables === undefined || request.additionalLookupTables === null ||
        request.additionalLookupTables.length === 0)
    ) return { path: ["additionalLookupTables"], message: rules.lookupTables }
    return true
  }),
  // the service refuses fields it does not know
  Schema.annotations({ identifier: "UpdateConfigRequest", parseOptions: { onExcessProperty: "error" } })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type UpdateConfigRequest = typeof UpdateConfigRequest.Type

/**
 * Body of the partner claim.
 *
 * @since 0.1.0
 * @category requests
 */
export const PartnerClaimRequest = Schema.Struct({ partnerWallet: PublicKey }).annotations({
  identifier: "PartnerClaimRequest"
})

/**
 * Token mints a wallet administers.
 *
 * @since 0.1.0
 * @category resources
 */
export const AdminTokens = Schema.Struct({ tokenMints: Schema.Array(Schema.String) }).annotations({
  identifier: "AdminTokens"
})
