/**
 * Launch: the launch transaction (mint, pool vault, supply, an optional initial buy and tip).
 */
import type { Launch } from "@feeshare/domain"
import type { Address, Instruction } from "@solana/kit"
import { Clock, Effect } from "effect"
import * as Programs from "../programs.js"
import { reject, type TokenState } from "./state.js"
import type { MarketState } from "./state.js"
import type * as TokenInfoArea from "./tokenInfo.js"
import type * as Trading from "./trading.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState, trading: Trading.Service, tokenInfo: TokenInfoArea.Service) => {
  const { ledger, lifetime, prepare, token, fundedVault, deployerVaults } = market
  const { price, applyTrade, tradeInstructions } = trading

  const launch = Effect.fn("Market.launch")(function*(request: Launch.LaunchRequest) {
    const state = yield* token(request.tokenMint)
    if (state.launched) return yield* reject(400, `token ${request.tokenMint} has already launched`)
    if (request.configKey !== state.configKey) {
      return yield* reject(400, `configKey ${request.configKey} is not the config key of token ${request.tokenMint}`)
    }
    // only the creator the token was set up for may launch it; a token made by token info
    // has none yet: whoever launches it first becomes its creator
    if (state.creator !== null && request.wallet !== state.creator) {
      return yield* reject(400, `wallet ${request.wallet} is not the creator of token ${request.tokenMint}`)
    }
    const wallet = request.wallet as Address
    const mint = state.mint.address
    const instructions: Array<Instruction> = [
      Programs.createAccount(
        wallet,
        mint,
        ledger.minimumBalance(Programs.MINT_SIZE),
        Programs.MINT_SIZE,
        Programs.TOKEN_PROGRAM
      ),
      Programs.initializeMint2(mint, state.decimals, state.pool.address),
      Programs.createAssociatedTokenIdempotent(wallet, state.poolVault, state.pool.address, mint),
      Programs.mintTo(mint, state.poolVault, state.pool.address, state.supply),
      Programs.memo(Programs.memoText.service("launch", request.ipfs), [wallet])
    ]
    const initialBuy = BigInt(request.initialBuyLamports ?? 0)
    const fresh: TokenState = {
      ...state,
      tokenReserve: state.supply,
      solReserve: 0n,
      migrated: state.flow === "damm_v2_direct"
    }
    const buy = initialBuy > 0n ? price(fresh, "buy", initialBuy) : undefined
    if (buy !== undefined) {
      if (buy.amountOut === 0n) return yield* reject(400, "initialBuyLamports is too small to buy any token")
      instructions.push(...(yield* Effect.promise(() => tradeInstructions(buy, wallet))))
    }
    if (request.tipWallet !== undefined && request.tipLamports !== undefined && request.tipLamports > 0) {
      instructions.push(Programs.transferSol(wallet, request.tipWallet as Address, BigInt(request.tipLamports)))
    }
    // a token-info mint's launcher becomes its deployer: its aggregate vault, funded now, is
    // recorded when the launch lands
    const adopting = state.creator === null
    const deployerVault = adopting ? yield* fundedVault("deployer", request.wallet) : undefined
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const built = yield* prepare(
      { format: "v0", feePayer: wallet, instructions, lifetime: yield* lifetime, signers: [state.mint, state.pool] },
      (landed) => {
        if (state.launched) return
        if (adopting && state.creator === null) {
          tokenInfo.adoptLauncher(state, request.wallet, landed.signature, at)
          if (deployerVault !== undefined && !deployerVaults.has(request.wallet)) {
            deployerVaults.set(request.wallet, deployerVault)
          }
        }
        state.launched = true
        state.tokenReserve = state.supply
        state.migrated = state.flow === "damm_v2_direct"
        if (buy !== undefined) applyTrade({ ...buy, state })
      }
    )
    return built.base58
  })

  return { launch }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
