/**
 * Claims answered with ready transactions: the aggregate vault sweep (`claim-vault`), the
 * deployer's positions and claim batches, and the v3 claim. Vault and deployer transactions
 * are gas-sponsored: the sandbox's sponsor pays their fee and signs first, the vault's key
 * signs its withdrawal, the wallet signs a memo as the authorizer, and the payout goes to the
 * wallet's wrapped-SOL associated token account (created by the sponsor when missing). The v3
 * claim is the wallet's own transaction, as the service builds it.
 */
import { ClaimTransactions } from "@feeshare/domain"
import type { Claims, FeeShare } from "@feeshare/domain"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import type { Built } from "@feeshare/solana/StageBuilder"
import type { Address, Instruction, KeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import * as Programs from "../programs.js"
import { budgets } from "./constants.js"
import type * as Payouts from "./payouts.js"
import type { SponsoredHostile } from "./service.js"
import { type AggregateVault, display, recordClaim, reject, sum, type TokenState } from "./state.js"
import type { MarketState } from "./state.js"

/**
 * A hostile variant of a sponsored transaction (`--tamper sponsor-*`): built and signed as the
 * sandbox builds the real one, with one thing changed that a client must refuse.
 */
export type Hostile = SponsoredHostile

/** Pools a vault sweep collects in one transaction (the rest stay owed to the next sweep). */
export const poolsPerSweep = 8

/** Lamports the sponsor starts with (and is topped up to when it runs low). */
const sponsorFunding = 100n * 1_000_000_000n

/** The operations of this area over the market's state. */
export const make = (market: MarketState, payouts: Payouts.Service) => {
  const { ledger, partnerVaults, deployerVaults, partnerTokens, deployerTokens, lifetime, prepare, signer, launched } =
    market

  const nothing = (detail: string) => reject(400, `${ClaimTransactions.nothingToClaimMessage}: ${detail}`)

  /** The gas sponsor, funded on first use and topped up when below a tenth of its funding. */
  const sponsor = Effect.gen(function*() {
    const key = yield* signer("gas-sponsor")
    const balance = yield* ledger.balance(key.address)
    if (balance < sponsorFunding / 10n) yield* market.fund(key.address, sponsorFunding - balance)
    return key
  })

  /** The address a `destination` tamper pays instead of the wallet. */
  const elsewhere = Effect.map(signer("tamper/elsewhere"), (key) => key.address)

  interface Sweep {
    readonly vault: AggregateVault
    /** Pools to collect into the vault first, and what each owes. */
    readonly collect: ReadonlyArray<{ readonly token: TokenState; readonly amount: bigint }>
    /** What the vault pays the wallet (its balance, when included, and what is collected). */
    readonly payout: bigint
    readonly pending: (token: TokenState) => void
  }

  /** A gas-sponsored sweep transaction: collect, pay the wallet's wrapped-SOL account, memo. */
  const sponsored = (
    kind: "claim-vault" | "deployer-claim",
    wallet: Address,
    sweep: Sweep,
    hostile: Hostile | undefined
  ) =>
    Effect.gen(function*() {
      const payer = yield* sponsor
      const ata = yield* Effect.promise(() => Programs.associatedTokenAddress(wallet, Programs.NATIVE_MINT))
      const destination = hostile === "destination" ? yield* elsewhere : ata
      const signers = new Map<string, KeyPairSigner>([[payer.address, payer]])
      const instructions: Array<Instruction> = [
        Programs.createAssociatedTokenIdempotent(payer.address, ata, wallet, Programs.NATIVE_MINT)
      ]
      for (const { amount, token } of sweep.collect) {
        instructions.push(Programs.transferSol(token.pool.address, sweep.vault.signer.address, amount))
        signers.set(token.pool.address, token.pool)
      }
      instructions.push(Programs.transferSol(sweep.vault.signer.address, destination, sweep.payout))
      signers.set(sweep.vault.signer.address, sweep.vault.signer)
      if (destination === ata) instructions.push(Programs.syncNative(ata))
      if (hostile === "extra-transfer") instructions.push(Programs.transferSol(wallet, yield* elsewhere, 1_000_000n))
      instructions.push(Programs.memo(Programs.memoText.service(kind, wallet), [wallet]))
      const life = yield* lifetime
      const built = yield* prepare(
        {
          format: "v0",
          // the fee-payer tamper: the wallet pays, the sponsor only co-signs (it funds the account)
          feePayer: hostile === "fee-payer" ? wallet : payer.address,
          instructions,
          lifetime: life,
          signers: [...signers.values()],
          budget: budgets.claimV0
        },
        (landed) => {
          const vault = sweep.vault
          for (const { amount, token } of sweep.collect) {
            // the token's share of the sweep is a claim of its fees (the vault's older balance is no token's)
            if (amount > 0n) recordClaim(token, wallet, amount, landed)
            token.unpaidFees -= amount
            sweep.pending(token)
            vault.balance += amount
          }
          vault.balance -= sweep.payout
          vault.claimed += sweep.payout
        }
      )
      const entry: FeeShare.TransactionEntry = {
        blockhash: { blockhash: life.blockhash, lastValidBlockHeight: Number(life.lastValidBlockHeight) },
        transaction: built.base58
      }
      return entry
    })

  const vaultOf = (kind: ClaimTransactions.VaultKind, wallet: string) =>
    (kind === "partner" ? partnerVaults : deployerVaults).get(wallet)

  /** The tokens that owe a vault, and what each owes. */
  const owing = (kind: ClaimTransactions.VaultKind, wallet: string) =>
    kind === "partner"
      ? partnerTokens(wallet).filter((t) => t.partnerPending > 0n).map((token) => ({
        token,
        amount: token.partnerPending
      }))
      : deployerTokens(wallet).filter((t) => t.deployerPending > 0n).map((token) => ({
        token,
        amount: token.deployerPending
      }))

  const settle = (kind: ClaimTransactions.VaultKind) => (token: TokenState) => {
    if (kind === "partner") token.partnerPending = 0n
    else token.deployerPending = 0n
  }

  /**
   * `POST /token-launch/damm-v2/claim-vault`: one sponsored transaction that collects what the
   * pools owe the vault (at most `poolsPerSweep` of them) and pays the vault's whole claimable
   * amount to the wallet's wrapped-SOL account. 400 `Nothing to claim` for an empty or unknown
   * vault, or a quote mint other than wrapped SOL (the sandbox's vaults are all in it).
   */
  const claimVault = Effect.fn("Market.claimVault")(function*(
    request: ClaimTransactions.VaultClaimRequest,
    hostile?: Hostile
  ) {
    const vault = vaultOf(request.kind, request.wallet)
    if (vault === undefined || request.quoteMint !== Programs.NATIVE_MINT) {
      return yield* nothing(`no ${request.kind} vault of ${request.wallet} in ${request.quoteMint}`)
    }
    const collect = owing(request.kind, request.wallet).slice(0, poolsPerSweep)
    const payout = vault.balance + sum(collect.map((c) => c.amount))
    if (payout === 0n) return yield* nothing(`the ${request.kind} vault of ${request.wallet} is empty`)
    const entry = yield* sponsored(
      "claim-vault",
      request.wallet as Address,
      { vault, collect, payout, pending: settle(request.kind) },
      hostile
    )
    const claimable: Claims.AggregateVault = {
      kind: request.kind,
      wallet: request.wallet,
      quoteMint: Programs.NATIVE_MINT,
      quoteDecimals: 9,
      vaultAta: vault.signer.address,
      claimableAmount: payout,
      claimableDisplayAmount: display(payout, 9)
    }
    const answer: ClaimTransactions.VaultClaim = { transaction: entry.transaction, claimable }
    return answer
  })

  /** `GET /fee-share/deployer/claimable-positions`: pending per token, the vault and its residual. */
  const deployerPositions = Effect.fn("Market.deployerPositions")(function*(wallet: PublicKey) {
    const vault = deployerVaults.get(wallet)
    const lamports = vault === undefined ? 0n : yield* ledger.balance(vault.signer.address)
    const residual = vault === undefined ? 0n : lamports - market.rentExempt - vault.balance
    const answer: ClaimTransactions.DeployerPositions = {
      wallet,
      quoteMint: Programs.NATIVE_MINT,
      vault: vault?.signer.address ?? null,
      vaultBalance: vault?.balance ?? 0n,
      residual: residual > 0n ? residual : 0n,
      tokens: deployerTokens(wallet).filter((t) => t.deployerPending > 0n).map((t) => ({
        tokenMint: t.mint.address,
        dbcPending: t.migrated ? 0n : t.deployerPending,
        dammPending: t.migrated ? t.deployerPending : 0n
      }))
    }
    return answer
  })

  /**
   * `POST /fee-share/deployer/claim-txs`: one sponsored transaction per pending pool (the first
   * also pays out the vault's balance; with no pool pending, one that pays out the vault), at
   * most `maxTransactions` (10 by default) of the first `poolCandidates` pools; the pools left
   * over are `remainingTokenMints`.
   */
  const deployerClaim = Effect.fn("Market.deployerClaim")(function*(
    request: ClaimTransactions.DeployerClaimRequest,
    hostile?: Hostile
  ) {
    const wallet = request.wallet
    const vault = deployerVaults.get(wallet)
    if (vault === undefined) return yield* nothing(`${wallet} has no deployer vault`)
    const filter = request.tokenMints === undefined ? undefined : new Set<string>(request.tokenMints)
    const pools = owing("deployer", wallet).filter((o) => filter === undefined || filter.has(o.token.mint.address))
    const max = request.maxTransactions ?? 10
    const candidates = pools.slice(0, ClaimTransactions.deployerLimits.poolCandidates)
    const batch = candidates.slice(0, max)
    const remaining = pools.slice(batch.length).map((o) => o.token.mint.address)
    if (batch.length === 0 && vault.balance === 0n) return yield* nothing(`the deployer vault of ${wallet} is empty`)
    const sweeps: Array<Sweep> = batch.length === 0
      ? [{ vault, collect: [], payout: vault.balance, pending: settle("deployer") }]
      : batch.map((o, i) => ({
        vault,
        collect: [o],
        payout: o.amount + (i === 0 ? vault.balance : 0n),
        pending: settle("deployer")
      }))
    const transactions: Array<FeeShare.TransactionEntry> = []
    for (const [i, sweep] of sweeps.entries()) {
      transactions.push(yield* sponsored("deployer-claim", wallet as Address, sweep, i === 0 ? hostile : undefined))
    }
    const answer: ClaimTransactions.DeployerClaimBatch = {
      transactions,
      deferredClaims: [],
      remainingTokenMints: remaining
    }
    return answer
  })

  /**
   * `POST /token-launch/claim-txs/v3`: the wallet's claim of its position in a token, one v0
   * transaction the wallet pays for (the pool's key co-signs): the payout account, the receipt,
   * the payout. 400 for an unknown or unlaunched token, `Nothing to claim` when nothing is owed.
   */
  const claimV3 = Effect.fn("Market.claimV3")(function*(request: ClaimTransactions.V3ClaimRequest) {
    const state = yield* Effect.mapError(launched(request.tokenMint), (rejection) => reject(400, rejection.message))
    const wallet = request.feeClaimer as Address
    const ata = yield* Effect.promise(() => Programs.associatedTokenAddress(wallet, Programs.NATIVE_MINT))
    const share = state.shares.get(wallet)
    if (market.unclaimed(share) === 0n) return yield* nothing(`${wallet} is owed nothing in ${request.tokenMint}`)
    const payout = yield* payouts.positionPayout(state, wallet, undefined, ata)
    const life = yield* lifetime
    const built: Built = yield* prepare(
      {
        format: "v0",
        feePayer: wallet,
        instructions: [
          Programs.createAssociatedTokenIdempotent(wallet, ata, wallet, Programs.NATIVE_MINT),
          ...payout.instructions,
          Programs.memo(Programs.memoText.service("claim-v3", request.tokenMint), [wallet])
        ],
        lifetime: life,
        signers: payout.signers,
        budget: budgets.claimV0
      },
      payout.apply
    )
    const answer: ClaimTransactions.V3ClaimTransactions = [{
      tx: built.base58,
      blockhash: { blockhash: life.blockhash, lastValidBlockHeight: Number(life.lastValidBlockHeight) }
    }]
    return answer
  })

  return { claimVault, deployerPositions, deployerClaim, claimV3 }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
