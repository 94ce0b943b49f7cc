/**
 * Analytics: lifetime fees, claim statistics, pools.
 */
import type { Analytics } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import { Effect } from "effect"
import type { MarketState } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { tokens, launchFound } = market

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

  return { lifetimeFees, claimStats, pools }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
