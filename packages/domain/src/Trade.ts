/**
 * Trading: quotes and swap transactions.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { BasisPointsFromString } from "./BasisPoints.js"
import { KeepUnknown, optional, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  slippageRequired: "is required when slippageMode is manual"
} as const

const U64FromQuery = RawAmount

/**
 * Query of the quote operation. `slippageBps` is required when `slippageMode` is `manual`;
 * in `auto` mode (the default) it may be sent and is ignored, as the service does.
 *
 * @since 0.1.0
 * @category requests
 */
export const QuoteRequest = Schema.Struct({
  inputMint: PublicKey,
  outputMint: PublicKey,
  amount: U64FromQuery,
  slippageMode: optional(Schema.Literal("auto", "manual")),
  slippageBps: optional(BasisPointsFromString)
}).pipe(
  Schema.filter((query) => {
    const manual = query.slippageMode === "manual"
    if (manual && query.slippageBps === undefined) return { path: ["slippageBps"], message: rules.slippageRequired }
    return true
  })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type QuoteRequest = typeof QuoteRequest.Type

/**
 * One hop of a quote's route.
 *
 * @since 0.1.0
 * @category resources
 */
export const RouteStep = Schema.Struct({
  venue: Schema.String,
  inAmount: RawAmount,
  outAmount: RawAmount,
  inputMint: Schema.String,
  outputMint: Schema.String,
  inputMintDecimals: Schema.Number,
  outputMintDecimals: Schema.Number,
  marketKey: Schema.String,
  data: Schema.String
}, KeepUnknown).annotations({ identifier: "RouteStep" })

/**
 * @since 0.1.0
 * @category resources
 */
export const PlatformFee = Schema.Struct({
  amount: RawAmount,
  feeBps: Schema.Number,
  feeAccount: Schema.String,
  segmenterFeeAmount: RawAmount,
  segmenterFeePct: Schema.Number
}, KeepUnknown).annotations({ identifier: "PlatformFee" })

/**
 * A quote. It keeps every field it arrived with (unknown ones too), so that encoding it
 * for the swap body gives back the same JSON value.
 *
 * @since 0.1.0
 * @category resources
 */
export const TradeQuote = Schema.Struct({
  requestId: Schema.String,
  contextSlot: Schema.Number,
  inAmount: RawAmount,
  inputMint: Schema.String,
  outAmount: RawAmount,
  outputMint: Schema.String,
  minOutAmount: RawAmount,
  otherAmountThreshold: RawAmount,
  priceImpactPct: Schema.String,
  slippageBps: Schema.Number,
  routePlan: Schema.Array(RouteStep),
  platformFee: optionalNullable(PlatformFee),
  outTransferFee: optionalNullable(RawAmount),
  simulatedComputeUnits: optionalNullable(Schema.Number)
}, KeepUnknown).annotations({ identifier: "TradeQuote" })

/**
 * @since 0.1.0
 * @category resources
 */
export type TradeQuote = typeof TradeQuote.Type

/**
 * Body of the swap operation.
 *
 * @since 0.1.0
 * @category requests
 */
export const SwapRequest = Schema.Struct({
  quoteResponse: TradeQuote,
  userPublicKey: PublicKey
}).annotations({ identifier: "SwapRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export type SwapRequest = typeof SwapRequest.Type

/**
 * A swap transaction (base58) ready to sign.
 *
 * @since 0.1.0
 * @category resources
 */
export const SwapResult = Schema.Struct({
  swapTransaction: Base58Transaction,
  computeUnitLimit: Schema.Number,
  lastValidBlockHeight: Schema.Number,
  prioritizationFeeLamports: Schema.Number
}).annotations({ identifier: "SwapResult" })

/**
 * @since 0.1.0
 * @category resources
 */
export type SwapResult = typeof SwapResult.Type
