/**
 * Token accounts: the token programs, a wallet's associated token account for a mint, its
 * balance, and what a run of transactions paid into it.
 *
 * @since 0.1.0
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit"
import { Effect, Option } from "effect"
import { LedgerReads } from "./LedgerReads.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const associatedTokenProgram = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"

/**
 * Wrapped SOL: the default quote mint.
 *
 * @since 0.1.0
 * @category constants
 */
export const nativeMint = "So11111111111111111111111111111111111111112"

/**
 * A mint and the token program that owns it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Asset {
  readonly mint: string
  readonly tokenProgram: string
}

const addressEncoder = getAddressEncoder()

/**
 * The associated token account of `owner` for `asset`.
 *
 * @since 0.1.0
 * @category addresses
 */
export const associatedTokenAddress = (owner: string, asset: Asset): Effect.Effect<string> =>
  Effect.promise(() =>
    getProgramDerivedAddress({
      programAddress: associatedTokenProgram as Address,
      seeds: [
        addressEncoder.encode(owner as Address),
        addressEncoder.encode(asset.tokenProgram as Address),
        addressEncoder.encode(asset.mint as Address)
      ]
    })
  ).pipe(Effect.map(([address]) => address))

/** Offset and size of `amount` in the token-account layout both token programs share. */
const amountOffset = 64
const accountSize = 165

/**
 * The `amount` of a token account's data; `None` when the data is too short to be one.
 *
 * @since 0.1.0
 * @category decoding
 */
export const amountOf = (data: Uint8Array): Option.Option<bigint> =>
  data.length < accountSize
    ? Option.none()
    : Option.some(new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(amountOffset, true))

/**
 * The balance of `owner`'s associated token account for `asset` (0 when it does not exist
 * or is not a token account of the asset's program).
 *
 * @since 0.1.0
 * @category reads
 */
export const balance = Effect.fn("TokenAccount.balance")(function*(owner: string, asset: Asset) {
  const reads = yield* LedgerReads
  const account = yield* reads.account(yield* associatedTokenAddress(owner, asset))
  return Option.match(account, {
    onNone: () => 0n,
    onSome: ({ data, owner: program }) =>
      program === asset.tokenProgram ? Option.getOrElse(amountOf(data), () => 0n) : 0n
  })
})

/**
 * Runs `run` and measures what it paid into `owner`'s account of `asset`: the balance after
 * less the balance before (a transfer out by someone else meanwhile lowers it; never below 0).
 * `paid` is `undefined` when a balance could not be read: the run itself is never failed by
 * the measurement.
 *
 * @since 0.1.0
 * @category reads
 */
export const measurePaid = <A, E, R>(owner: string, asset: Asset, run: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const read = Effect.option(balance(owner, asset))
    const before = yield* read
    const result = yield* run
    const after = yield* read
    const paid = Option.zipWith(before, after, (b, a) => (a > b ? a - b : 0n))
    return { result, paid: Option.getOrUndefined(paid) }
  })
