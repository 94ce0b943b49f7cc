/**
 * Token launch: the launch transaction request.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { NonEmptyText, optional } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { LamportsNumber } from "./RawAmount.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * @since 0.1.0
 * @category rules
 */
export const rules = { tip: "tipWallet and tipLamports go together" } as const

/**
 * Body of the launch operation. The tip is optional, but its two fields go together.
 *
 * @since 0.1.0
 * @category requests
 */
export const LaunchRequest = Schema.Struct({
  ipfs: NonEmptyText,
  tokenMint: PublicKey,
  wallet: PublicKey,
  initialBuyLamports: LamportsNumber,
  configKey: PublicKey,
  tipWallet: optional(PublicKey),
  tipLamports: optional(LamportsNumber)
}).pipe(
  Schema.filter((request) =>
    (request.tipWallet === undefined) === (request.tipLamports === undefined) ||
    { path: [request.tipWallet === undefined ? "tipWallet" : "tipLamports"], message: rules.tip }
  ),
  Schema.annotations({ identifier: "LaunchRequest" })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type LaunchRequest = typeof LaunchRequest.Type

/**
 * The launch transaction: base58, already signed by the token mint.
 *
 * @since 0.1.0
 * @category resources
 */
export const LaunchTransaction = Base58Transaction
