/**
 * Fee sharing: configuration updates, partner claims (one settling entry per token, then
 * the vault's withdrawal) and the admin list.
 */
import type { FeeShare } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import type { Built } from "@feeshare/solana/StageBuilder"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import * as Programs from "../programs.js"
import { reject, sum } from "./state.js"
import type { MarketState } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { tokens, partnerVaults, lifetime, prepare, token, lookupTableContents, partnerTokens } = market

  const updateConfig = Effect.fn("Market.updateConfig")(function*(request: FeeShare.UpdateConfigRequest) {
    // the service's refusals here are all 400 (no 403, no 404)
    const state = yield* Effect.mapError(token(request.baseMint), (rejection) => reject(400, rejection.message))
    if (request.payer !== state.config.admin) {
      return yield* reject(400, `${request.payer} is not the fee-share admin of ${request.baseMint}`)
    }
    const claimers = request.claimersArray.map((wallet, i) => ({ wallet, bps: request.basisPointsArray[i] ?? 0 }))
    const admin = state.config.admin as Address
    const tables = request.additionalLookupTables ?? []
    const contents = tables.length === 0 ? undefined : yield* lookupTableContents(tables)
    const instructions = [
      Programs.memo(Programs.memoText.service("update-config", request.baseMint), [admin]),
      Programs.transferSol(admin, state.configKey, 0n, claimers.map((c) => c.wallet as Address))
    ]
    const life = yield* lifetime
    const built = yield* prepare(
      {
        format: "v0",
        feePayer: admin,
        instructions,
        lifetime: life,
        signers: [],
        lookupTables: contents
      },
      () => {
        state.config = { ...state.config, claimers }
      }
    )
    const result: FeeShare.TransactionEntries = {
      transactions: [{
        blockhash: { blockhash: life.blockhash, lastValidBlockHeight: Number(life.lastValidBlockHeight) },
        transaction: built.base58
      }]
    }
    return result
  })

  const partnerClaim = Effect.fn("Market.partnerClaim")(function*(partnerWallet: PublicKey) {
    const vault = partnerVaults.get(partnerWallet)
    const owed = partnerTokens(partnerWallet).filter((t) => t.partnerPending > 0n)
    const total = (vault?.balance ?? 0n) + sum(owed.map((t) => t.partnerPending))
    if (vault === undefined && partnerTokens(partnerWallet).length === 0) {
      return yield* reject(404, `no partner config for ${partnerWallet}`)
    }
    if (vault === undefined || total === 0n) return yield* reject(400, `nothing to claim for partner ${partnerWallet}`)
    const partner = partnerWallet as Address
    const life = yield* lifetime
    const entries: Array<FeeShare.TransactionEntry> = []
    const entry = (built: Built) =>
      entries.push({
        blockhash: { blockhash: life.blockhash, lastValidBlockHeight: Number(life.lastValidBlockHeight) },
        transaction: built.base58
      })
    for (const state of owed) {
      const amount = state.partnerPending
      entry(
        yield* prepare(
          {
            format: "v0",
            feePayer: partner,
            instructions: [
              Programs.transferSol(state.pool.address, vault.signer.address, amount, [state.mint.address])
            ],
            lifetime: life,
            signers: [state.pool]
          },
          () => {
            state.partnerPending -= amount
            state.unpaidFees -= amount
            vault.balance += amount
          }
        )
      )
    }
    entry(
      yield* prepare(
        {
          format: "v0",
          feePayer: partner,
          instructions: [
            Programs.transferSol(vault.signer.address, partner, total),
            Programs.memo(Programs.memoText.service("partner-claim"), [partner])
          ],
          lifetime: life,
          signers: [vault.signer]
        },
        () => {
          vault.balance -= total
          vault.claimed += total
        }
      )
    )
    const result: FeeShare.TransactionEntries = { transactions: entries }
    return result
  })

  const adminList = (wallet: PublicKey) =>
    Effect.sync(() => ({
      tokenMints: [...tokens.values()].filter((t) => t.config.admin === wallet).map((t) => t.mint.address)
    }))

  return { updateConfig, partnerClaim, adminList }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
