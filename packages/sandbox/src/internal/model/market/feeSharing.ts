/**
 * Fee sharing: config creation (the config account and the deployer's funding, as two
 * transactions in order or, above 7 claimers, one bundle), configuration updates, partner
 * claims (one settling entry per token, then the vault's withdrawal) and the admin list.
 */
import { FeeShare } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import type { Built } from "@feeshare/solana/StageBuilder"
import type { Address } from "@solana/kit"
import { Effect } from "effect"
import * as Programs from "../programs.js"
import { configCreation } from "./constants.js"
import { reject, sum } from "./state.js"
import type { MarketState } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const {
    tokens,
    partnerVaults,
    deployerVaults,
    ledger,
    lifetime,
    prepare,
    token,
    signer,
    fundedVault,
    lookupTableContents,
    partnerTokens
  } = market

  const createConfig = Effect.fn("Market.createConfig")(function*(request: FeeShare.CreateConfigRequest) {
    // the service's refusals here are all 400
    const state = yield* Effect.mapError(token(request.baseMint), (rejection) => reject(400, rejection.message))
    const feeShareAuthority = (yield* signer(`token/${state.index}/fee-share-authority`)).address
    if (state.createdConfig !== null) {
      // the config exists: it keeps its terms, and its key is the answer
      const existing: FeeShare.CreateConfigAnswer = {
        needsCreation: false,
        feeShareAuthority,
        meteoraConfigKey: state.configKey,
        transactions: null,
        bundles: null
      }
      return existing
    }
    if (state.launched) return yield* reject(400, `token ${request.baseMint} has already launched`)
    const claimers = request.claimersArray.map((wallet, i) => ({ wallet, bps: request.basisPointsArray[i] ?? 0 }))
    // the domain's rule, checked again here: the sandbox refuses what the service refuses
    const issue = FeeShare.createConfigIssue(request)
    if (issue !== undefined) return yield* reject(400, `${issue.field} ${issue.rule}`)
    const tables = request.additionalLookupTables ?? []
    const contents = tables.length === 0 ? undefined : yield* lookupTableContents(tables)
    if (contents !== undefined && claimers.length > FeeShare.limits.claimersWithoutLookupTables) {
      const held = new Set(Object.values(contents).flat())
      const missing = claimers.find((c) => !held.has(c.wallet as Address))
      if (missing !== undefined) {
        return yield* reject(400, `additionalLookupTables: claimer ${missing.wallet} is in none of the tables`)
      }
    }
    const payer = request.payer as Address
    const configType = request.platformConfigType ?? FeeShare.defaultConfigType
    const config = yield* signer(`token/${state.index}/config`)
    const deployerVault = yield* fundedVault("deployer", request.payer)
    const partner = request.partner ?? null
    const partnerVault = partner === null ? undefined : yield* fundedVault("partner", partner)
    const space = configCreation.accountSpace(claimers.length)
    const life = yield* lifetime
    const entry = (built: Built): FeeShare.TransactionEntry => ({
      blockhash: { blockhash: life.blockhash, lastValidBlockHeight: Number(life.lastValidBlockHeight) },
      transaction: built.base58
    })
    const create = yield* prepare(
      {
        format: "v0",
        feePayer: payer,
        instructions: [
          Programs.createAccount(payer, config.address, ledger.minimumBalance(space), space, Programs.SYSTEM_PROGRAM),
          // the claimers, read-only: through the lookup tables when there are many
          Programs.transferSol(payer, config.address, 0n, claimers.map((c) => c.wallet as Address)),
          Programs.memo(Programs.memoText.service("create-config", `${request.baseMint} ${configType}`), [payer])
        ],
        lifetime: life,
        signers: [config],
        lookupTables: contents
      },
      () => {
        state.config = { admin: request.payer, partner, claimers, customFeeVault: null, deployer: request.payer }
        state.createdConfig = { configType, payer: request.payer }
        if (partner !== null && partnerVault !== undefined) partnerVaults.set(partner, partnerVault)
      }
    )
    const fundDeployer = yield* prepare(
      {
        format: "v0",
        feePayer: payer,
        instructions: [
          Programs.transferSol(payer, deployerVault.signer.address, configCreation.deployerFundingLamports),
          Programs.memo(Programs.memoText.service("fund-deployer", request.baseMint), [payer])
        ],
        lifetime: life,
        signers: []
      },
      () => {
        // the vault's lamports grow; its claimable balance does not
        deployerVaults.set(request.payer, deployerVault)
      }
    )
    const entries = [entry(create), entry(fundDeployer)]
    const bundled = claimers.length > configCreation.bundleAbove
    const answer: FeeShare.CreateConfigAnswer = {
      needsCreation: true,
      feeShareAuthority,
      meteoraConfigKey: state.configKey,
      transactions: bundled ? null : entries,
      bundles: bundled ? [entries] : null
    }
    return answer
  })

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

  return { createConfig, updateConfig, partnerClaim, adminList }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
