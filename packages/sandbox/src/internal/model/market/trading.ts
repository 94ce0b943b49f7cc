/**
 * Trading: constant-product prices with the swap fee, quotes and swap transactions.
 */
import type { Trade } from "@feeshare/domain"
import type { Address, Instruction } from "@solana/kit"
import { Effect } from "effect"
import * as Programs from "../programs.js"
import { budgets, economics } from "./constants.js"
import { reject, type TokenState } from "./state.js"
import type { MarketState } from "./state.js"

/** A priced trade: what goes in and out, the fee, the reserve change. */
export interface PricedTrade {
  readonly side: "buy" | "sell"
  readonly state: TokenState
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly fee: bigint
  /** SOL moved into (buy, net of fee) or out of (sell, gross) the reserve. */
  readonly reserveDelta: bigint
}

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { ledger, lifetime, prepare, launched, accrue } = market

  let quotes = 0

  const price = (state: TokenState, side: "buy" | "sell", amountIn: bigint): PricedTrade => {
    const sol = economics.virtualSolLamports + state.solReserve
    if (side === "buy") {
      const fee = (amountIn * BigInt(economics.feeBps)) / 10_000n
      const net = amountIn - fee
      const out = (state.tokenReserve * net) / (sol + net)
      return { side, state, amountIn, amountOut: out, fee, reserveDelta: net }
    }
    let gross = (sol * amountIn) / (state.tokenReserve + amountIn)
    if (gross > state.solReserve) gross = state.solReserve
    const fee = (gross * BigInt(economics.feeBps)) / 10_000n
    return { side, state, amountIn, amountOut: gross - fee, fee, reserveDelta: gross }
  }

  const applyTrade = (trade: PricedTrade) => {
    const state = trade.state
    if (trade.side === "buy") {
      state.solReserve += trade.reserveDelta
      state.tokenReserve -= trade.amountOut
    } else {
      state.solReserve -= trade.reserveDelta
      state.tokenReserve += trade.amountIn
    }
    accrue(state, trade.fee)
    if (!state.migrated && state.solReserve >= economics.migrationLamports) state.migrated = true
  }

  const tradeInstructions = async (trade: PricedTrade, user: Address): Promise<ReadonlyArray<Instruction>> => {
    const state = trade.state
    const userAta = await Programs.associatedTokenAddress(user, state.mint.address)
    return trade.side === "buy"
      ? [
        Programs.createAssociatedTokenIdempotent(user, userAta, user, state.mint.address),
        Programs.transferSol(user, state.pool.address, trade.amountIn),
        Programs.transferToken(state.poolVault, userAta, state.pool.address, trade.amountOut)
      ]
      : [
        Programs.transferToken(userAta, state.poolVault, user, trade.amountIn),
        Programs.transferSol(state.pool.address, user, trade.amountOut)
      ]
  }

  const resolvePair = (inputMint: string, outputMint: string) =>
    Effect.gen(function*() {
      if (inputMint === Programs.NATIVE_MINT && outputMint !== Programs.NATIVE_MINT) {
        return { side: "buy" as const, state: yield* launched(outputMint) }
      }
      if (outputMint === Programs.NATIVE_MINT && inputMint !== Programs.NATIVE_MINT) {
        return { side: "sell" as const, state: yield* launched(inputMint) }
      }
      return yield* reject(
        400,
        `one side of the pair must be wrapped SOL (${Programs.NATIVE_MINT}) and the other a launched token`
      )
    })

  const quote = Effect.fn("Market.quote")(function*(request: Trade.QuoteRequest) {
    const { side, state } = yield* resolvePair(request.inputMint, request.outputMint)
    if (request.amount === 0n) return yield* reject(400, "amount must be greater than 0")
    const trade = price(state, side, request.amount)
    if (trade.amountOut === 0n) return yield* reject(400, "amount is too small to trade")
    const slippageBps = request.slippageMode === "manual" ? (request.slippageBps ?? 0) : economics.autoSlippageBps
    const minOut = (trade.amountOut * BigInt(10_000 - slippageBps)) / 10_000n
    const clock = yield* ledger.clock
    const sol = economics.virtualSolLamports + state.solReserve
    const spot = side === "buy" ? Number(state.tokenReserve) / Number(sol) : Number(sol) / Number(state.tokenReserve)
    const executed = Number(trade.amountOut) / Number(side === "buy" ? trade.amountIn - trade.fee : trade.amountIn)
    const impact = Math.max(0, 1 - executed / spot)
    quotes += 1
    const inputDecimals = side === "buy" ? 9 : state.decimals
    const outputDecimals = side === "buy" ? state.decimals : 9
    const result: Trade.TradeQuote = {
      requestId: `sandbox-quote-${quotes}`,
      contextSlot: Number(clock.slot),
      inAmount: trade.amountIn,
      inputMint: request.inputMint,
      outAmount: trade.amountOut,
      outputMint: request.outputMint,
      minOutAmount: minOut,
      otherAmountThreshold: minOut,
      priceImpactPct: impact.toFixed(6),
      slippageBps,
      routePlan: [{
        venue: state.migrated ? "damm_v2" : "dbc",
        inAmount: trade.amountIn,
        outAmount: trade.amountOut,
        inputMint: request.inputMint,
        outputMint: request.outputMint,
        inputMintDecimals: inputDecimals,
        outputMintDecimals: outputDecimals,
        marketKey: state.migrated ? state.dammPool : state.dbcPool,
        data: ""
      }],
      platformFee: {
        amount: trade.fee,
        feeBps: economics.feeBps,
        feeAccount: state.pool.address,
        segmenterFeeAmount: 0n,
        segmenterFeePct: 0
      },
      outTransferFee: 0n,
      simulatedComputeUnits: 60_000
    }
    return result
  })

  const swap = Effect.fn("Market.swap")(function*(request: Trade.SwapRequest) {
    const q = request.quoteResponse
    const { side, state } = yield* resolvePair(q.inputMint, q.outputMint)
    const trade = price(state, side, q.inAmount)
    if (trade.amountOut === 0n) return yield* reject(400, "amount is too small to trade")
    if (trade.amountOut < q.minOutAmount) {
      return yield* reject(
        400,
        `the price moved: the swap would give ${trade.amountOut}, below minOutAmount ${q.minOutAmount}; ask for a new quote`
      )
    }
    const user = request.userPublicKey as Address
    const instructions = yield* Effect.promise(() => tradeInstructions(trade, user))
    const life = yield* lifetime
    const built = yield* prepare(
      { format: "v0", feePayer: user, instructions, lifetime: life, signers: [state.pool], budget: budgets.swap },
      () => applyTrade(trade)
    )
    const result: Trade.SwapResult = {
      swapTransaction: built.base58,
      computeUnitLimit: budgets.swap.computeUnitLimit,
      lastValidBlockHeight: Number(life.lastValidBlockHeight),
      prioritizationFeeLamports: Number(
        (BigInt(budgets.swap.computeUnitLimit) * budgets.swap.priorityFee + 999_999n) / 1_000_000n
      )
    }
    return result
  })

  return { quote, swap, price, applyTrade, tradeInstructions }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
