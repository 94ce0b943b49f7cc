/**
 * EVM-chain reads (segment `alt`): index-token status, claimable positions, creation fee.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { EvmAddress, toChecksum } from "./EvmAddress.js"
import { ArrayBetween } from "./internal/schema.js"
import { BigUint } from "./RawAmount.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const limits = { minAddresses: 1, maxAddresses: 100 } as const

const dedupe = (addresses: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const address of addresses) {
    const checksummed = toChecksum(address)
    if (!seen.has(checksummed)) {
      seen.add(checksummed)
      out.push(checksummed)
    }
  }
  return out
}

const Addresses = ArrayBetween(EvmAddress, limits.minAddresses, limits.maxAddresses)

/**
 * Body of the index-token status check: 1..100 addresses of any casing, normalised to
 * EIP-55 with duplicates removed (the first occurrence kept).
 *
 * @since 0.1.0
 * @category requests
 */
export const IndexStatusRequest = Schema.Struct({
  tokenAddresses: Schema.transform(Addresses, Schema.typeSchema(Addresses), {
    strict: true,
    decode: dedupe,
    encode: dedupe
  })
}).annotations({ identifier: "IndexStatusRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export type IndexStatusRequest = typeof IndexStatusRequest.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const IndexTokenStatus = Schema.Struct({
  tokenAddress: Schema.String,
  isIndexToken: Schema.Boolean,
  tokens: Schema.Array(Schema.String)
}).annotations({ identifier: "IndexTokenStatus" })

/**
 * @since 0.1.0
 * @category resources
 */
export type IndexTokenStatus = typeof IndexTokenStatus.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const IndexTokenStatuses = Schema.Array(IndexTokenStatus)

/**
 * `?owner=<address>` (any casing, normalised to EIP-55).
 *
 * @since 0.1.0
 * @category requests
 */
export const OwnerQuery = Schema.Struct({ owner: EvmAddress })

/**
 * The quote asset of an EVM token.
 *
 * @since 0.1.0
 * @category resources
 */
export const EvmQuote = Schema.Struct({
  address: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Number,
  isNative: Schema.Boolean
}).annotations({ identifier: "EvmQuote" })

/**
 * @since 0.1.0
 * @category resources
 */
export const EvmToken = Schema.Struct({
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  metadataURI: Schema.String,
  metadata: Schema.NullOr(
    Schema.Struct({ image: Schema.NullOr(Schema.String), description: Schema.NullOr(Schema.String) })
  ),
  curve: Schema.String,
  feeShare: Schema.String,
  poolId: Schema.String,
  creator: Schema.String,
  partner: Schema.NullOr(Schema.String),
  partnerFeeBps: Schema.Number,
  createdAtBlock: Schema.Number,
  createdAtTimestamp: Schema.Number,
  txHash: Schema.String,
  migrated: Schema.Boolean,
  migratedAtBlock: Schema.NullOr(Schema.Number),
  migratedAtTimestamp: Schema.NullOr(Schema.Number),
  quote: EvmQuote,
  fees: Schema.Struct({
    buyFeeBps: Schema.Number,
    sellFeeBps: Schema.Number,
    protocolBuyFeeBps: Schema.Number,
    protocolSellFeeBps: Schema.Number
  })
}).annotations({ identifier: "EvmToken" })

/**
 * A fee position an owner can act on. `actionableWei` = claimable + pending;
 * `lifetimeWei` = claimed + claimable.
 *
 * @since 0.1.0
 * @category resources
 */
export const EvmClaimablePosition = Schema.Struct({
  token: EvmToken,
  feeShare: Schema.String,
  version: Schema.Literal("v1", "v2", "v3"),
  claimableWei: BigUint,
  pendingWei: BigUint,
  actionableWei: BigUint,
  claimedWei: BigUint,
  lifetimeWei: BigUint,
  isClaimer: Schema.Boolean,
  isPartner: Schema.Boolean,
  userBps: Schema.Number,
  quote: EvmQuote
}).annotations({ identifier: "EvmClaimablePosition" })

/**
 * @since 0.1.0
 * @category resources
 */
export type EvmClaimablePosition = typeof EvmClaimablePosition.Type

/**
 * `truncated` is true when discovery hit a safety bound and positions may be incomplete.
 *
 * @since 0.1.0
 * @category resources
 */
export const EvmPositions = Schema.Struct({
  positions: Schema.Array(EvmClaimablePosition),
  truncated: Schema.Boolean
}).annotations({ identifier: "EvmPositions" })

/**
 * @since 0.1.0
 * @category resources
 */
export const CreationFee = Schema.Struct({ creationFeeWei: BigUint }).annotations({ identifier: "CreationFee" })
