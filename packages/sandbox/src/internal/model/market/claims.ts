/**
 * Claims views: a wallet's claimable positions and its partner / deployer aggregate vaults.
 */
import type { Claims } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import { Effect } from "effect"
import * as Programs from "../programs.js"
import { type AggregateVault, display, sum } from "./state.js"
import type { MarketState } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { tokens, partnerVaults, deployerVaults, partnerTokens, unclaimed, deployerTokens } = market

  const positions = (wallet: PublicKey) =>
    Effect.sync(() => {
      const out: Array<Claims.ClaimablePosition> = []
      for (const state of tokens.values()) {
        const share = state.shares.get(wallet)
        const total = unclaimed(share)
        if (share === undefined || total === 0n) continue
        const claimerIndex = state.config.claimers.findIndex((c) => c.wallet === wallet)
        const poolUnclaimed = sum([...state.shares.values()].map(unclaimed))
        const vault = state.config.customFeeVault
        out.push({
          isCustomFeeVault: vault !== null,
          baseMint: state.mint.address,
          isMigrated: state.migrated,
          totalClaimableLamportsUserShare: Number(total),
          programId: Programs.SYSTEM_PROGRAM,
          quoteMint: Programs.NATIVE_MINT,
          virtualPool: state.flow === "dbc" ? state.dbcPool : null,
          virtualPoolAddress: state.flow === "dbc" ? state.dbcPool : null,
          virtualPoolClaimableAmount: Number(poolUnclaimed),
          virtualPoolClaimableLamportsUserShare: Number(share.dbc),
          dammPoolClaimableAmount: state.migrated ? Number(poolUnclaimed) : 0,
          dammPoolClaimableLamportsUserShare: Number(share.damm),
          dammPoolAddress: state.migrated ? state.dammPool : null,
          dammPositionInfo: state.migrated ? state.dammPosition : null,
          claimableDisplayAmount: display(total, 9),
          user: wallet,
          claimerIndex: claimerIndex >= 0 ? claimerIndex : null,
          userBps: claimerIndex >= 0 ? (state.config.claimers[claimerIndex]?.bps ?? null) : null,
          ...(vault === null ? {} : {
            customFeeVault: vault,
            customFeeVaultClaimerA: state.config.claimers[0]?.wallet ?? null,
            customFeeVaultClaimerB: state.config.claimers[1]?.wallet ?? null,
            customFeeVaultClaimerSide: claimerIndex === 1 ? "B" as const : "A" as const
          })
        })
      }
      return out
    })

  const vaultView = (
    kind: "partner" | "deployer",
    wallet: string,
    vault: AggregateVault,
    amount: bigint
  ): Claims.AggregateVault => ({
    kind,
    wallet,
    quoteMint: Programs.NATIVE_MINT,
    quoteDecimals: 9,
    vaultAta: vault.signer.address,
    claimableAmount: amount,
    claimableDisplayAmount: display(amount, 9)
  })

  /** A vault's claimable amount: its balance and what the pools still owe it. */
  const vaults = (wallet: PublicKey) =>
    Effect.sync((): typeof Claims.VaultClaimables.Type => {
      const out: Array<Claims.AggregateVault> = []
      const partner = partnerVaults.get(wallet)
      if (partner !== undefined) {
        const amount = partner.balance + sum(partnerTokens(wallet).map((t) => t.partnerPending))
        if (amount > 0n) out.push(vaultView("partner", wallet, partner, amount))
      }
      const deployer = deployerVaults.get(wallet)
      if (deployer !== undefined) {
        const amount = deployer.balance + sum(deployerTokens(wallet).map((t) => t.deployerPending))
        if (amount > 0n) out.push(vaultView("deployer", wallet, deployer, amount))
      }
      return { vaults: out }
    })

  return { positions, vaults }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
