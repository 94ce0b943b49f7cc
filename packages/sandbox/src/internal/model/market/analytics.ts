/**
 * Analytics: lifetime fees, claim statistics, claim events, pools.
 */
import { type Analytics, ClaimEvents } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import { Effect } from "effect"
import { type MarketState, reject } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { tokens, launchFound } = market

  /** A token the market made (launched or not); the service answers 400 for any other mint. */
  const known = (mint: PublicKey) =>
    Effect.suspend(() => {
      const found = tokens.get(mint)
      return found === undefined ? Effect.fail(reject(400, `token not found: ${mint}`)) : Effect.succeed(found)
    })

  const lifetimeFees = (mint: PublicKey) => Effect.map(launchFound(mint), (state) => state.lifetimeFees)

  const claimStats = (mint: PublicKey) =>
    Effect.map(launchFound(mint), (state) => {
      const wallets = new Set([...state.config.claimers.map((c) => c.wallet), ...state.shares.keys()])
      return [...wallets].map((wallet): Analytics.ClaimStatistics => ({
        username: "",
        pfp: "",
        royaltyBps: state.config.claimers.find((c) => c.wallet === wallet)?.bps ?? 0,
        isCreator: wallet === state.creator,
        wallet,
        totalClaimed: state.shares.get(wallet)?.claimed ?? 0n,
        provider: null,
        providerUsername: null,
        isAdmin: wallet === state.config.admin
      }))
    })

  /** Newest first: a page of them (offset mode), or those of a window of unix seconds (time mode). */
  const claimEvents = (query: ClaimEvents.ClaimEventsQuery) =>
    Effect.map(known(query.tokenMint), (state): ClaimEvents.ClaimEvents => {
      const newestFirst = [...state.claimEvents].reverse()
      const chosen = query.mode === "time"
        ? newestFirst.filter((e) => e.blockTime >= (query.from ?? 0) && e.blockTime <= (query.to ?? Infinity))
        : newestFirst.slice(query.offset ?? 0, (query.offset ?? 0) + (query.limit ?? ClaimEvents.limits.defaultLimit))
      return {
        events: chosen.map((e) => ({
          wallet: e.wallet,
          isCreator: e.isCreator,
          amount: e.amount,
          signature: e.signature,
          timestamp: new Date(e.blockTime * 1000)
        }))
      }
    })

  const pools = (onlyMigrated: boolean) =>
    Effect.sync(() =>
      [...tokens.values()]
        .filter((t) => t.launched && (!onlyMigrated || t.migrated))
        .map((t): Analytics.PoolEntry => ({
          tokenMint: t.mint.address,
          dbcConfigKey: t.flow === "dbc" ? t.configKey : null,
          dbcPoolKey: t.flow === "dbc" ? t.dbcPool : null,
          dammV2PoolKey: t.migrated ? t.dammPool : null
        }))
    )

  return { lifetimeFees, claimStats, claimEvents, pools }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
