/**
 * The payouts of claim plans: a claimer's position (and, for the deployer on its DAMM v2
 * pool, its aggregate vault), or a holding balance (wrapped SOL or the Token-2022 quote
 * mint); each claim creates a receipt account, so a second transaction built for the same
 * claim fails on the ledger instead of paying again.
 */
import type { Claims, Plan } from "@feeshare/domain"
import type { Address, Instruction, KeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import type { Landed } from "../ledger/models.js"
import * as Programs from "../programs.js"
import { type Holding, recordClaim, reject, sum, type TokenState } from "./state.js"
import type { MarketState } from "./state.js"

/** What a claim plan pays out, and how: its claim stage's instructions and what landing it changes. */
export interface Payout {
  readonly operation: Plan.Operation
  readonly instructions: ReadonlyArray<Instruction>
  readonly signers: ReadonlyArray<KeyPairSigner>
  readonly apply: (landed: Landed) => void
}

/** The payouts over the market's state. */
export const make = (market: MarketState) => {
  const { deployerTokens, deployerVaults, holdings, rentExempt, unclaimed } = market

  // claims landed per claimer, token and kind: the number in the seed of the next claim's receipt
  const landedClaims = new Map<string, number>()

  /**
   * The receipt of a claimer's next claim of a token: the claim creates an account at an
   * address derived from the claimer and the claim's number, so a second transaction built for
   * the same claim fails on the ledger instead of paying again.
   */
  const receipt = (kind: "p" | "h" | "t", state: TokenState, wallet: Address) =>
    Effect.gen(function*() {
      const key = `${kind}/${state.mint.address}/${wallet}`
      const n = landedClaims.get(key) ?? 0
      const seed = `feeshare-${kind}-${state.index}-${n}`
      const account = yield* Effect.promise(() => Programs.addressWithSeed(wallet, seed, Programs.SYSTEM_PROGRAM))
      return {
        instruction: Programs.createAccountWithSeed(
          wallet,
          account,
          wallet,
          seed,
          rentExempt,
          0,
          Programs.SYSTEM_PROGRAM
        ),
        landed: () => landedClaims.set(key, n + 1)
      }
    })

  /** The token's holding vault whose authority is `authority`. */
  const holdingOf = (state: TokenState, authority: string) => {
    const holding = [...holdings.values()].find((h) =>
      h.tokenMint === state.mint.address && h.authority.address === authority
    )
    return holding === undefined
      ? Effect.fail(
        reject(400, `source.authority ${authority} is not a holding-vault authority of token ${state.mint.address}`)
      )
      : Effect.succeed(holding)
  }

  /**
   * A holding balance: the token's holding-vault authority pays the claimer what it holds. In
   * the Token-2022 quote mint, a TransferCheckedWithFee from the authority's token account
   * stating the fee of `transferFee` (the schedule active now): the claimer receives the amount
   * less that fee, and the transfer fails on the ledger if the fee at execution is another.
   */
  const holdingPayout = (
    state: TokenState,
    wallet: Address,
    holding: Holding,
    payoutAta: Address,
    transferFee: Programs.TransferFee | undefined
  ) =>
    Effect.gen(function*() {
      const authority = holding.authority.address
      const entry = holding.balances.get(wallet)
      const amount = entry?.held ?? 0n
      if (entry === undefined || amount === 0n) {
        return yield* reject(
          400,
          `nothing to claim: holding vault authority ${authority} holds nothing for ${wallet} in ${state.mint.address}`
        )
      }
      const quote = holding.quote
      const native = quote.mint === Programs.NATIVE_MINT
      const once = yield* receipt(native ? "h" : "t", state, wallet)
      const transfer: ReadonlyArray<Instruction> = native
        ? [Programs.transferSol(authority, payoutAta, amount, [state.mint.address]), Programs.syncNative(payoutAta)]
        : [
          Programs.transferCheckedWithFee(
            yield* Effect.promise(() => Programs.associatedTokenAddress(authority, quote.mint, quote.tokenProgram)),
            quote.mint,
            payoutAta,
            authority,
            amount,
            quote.decimals,
            transferFee === undefined ? 0n : Programs.transferFeeOf(transferFee, amount)
          )
        ]
      const payout: Payout = {
        operation: { kind: "holding_claim", baseMint: state.mint.address, wallet, authority },
        instructions: [once.instruction, ...transfer],
        signers: [holding.authority],
        apply: (landed) => {
          once.landed()
          entry.held -= amount
          entry.claimed += amount
          recordClaim(state, wallet, amount, landed)
        }
      }
      return payout
    })

  /**
   * The claimer's unclaimed share of the token and, for a `pool` source on the token's DAMM
   * v2 pool claimed by the token's deployer, the deployer's aggregate vault: the pools' pending
   * deployer shares move into the vault and the vault pays out, in the same transaction.
   */
  const positionPayout = (
    state: TokenState,
    wallet: Address,
    source: Claims.ClaimSource | null | undefined,
    wsolAta: Address
  ) =>
    Effect.gen(function*() {
      const share = state.shares.get(wallet)
      const amount = unclaimed(share)
      const withVault = source?.kind === "pool" && source.protocol === "damm_v2" && state.creator === wallet
      const vault = withVault ? deployerVaults.get(wallet) : undefined
      const owing = vault === undefined
        ? []
        : deployerTokens(wallet).filter((t) => t.deployerPending > 0n).map((t) => ({
          token: t,
          amount: t.deployerPending
        }))
      const vaultTotal = vault === undefined ? 0n : vault.balance + sum(owing.map((o) => o.amount))
      if (amount === 0n && vaultTotal === 0n) {
        return yield* reject(400, `nothing to claim for ${wallet} in ${state.mint.address}`)
      }
      const once = yield* receipt("p", state, wallet)
      const instructions: Array<Instruction> = [once.instruction]
      const signers = new Map<string, KeyPairSigner>()
      if (amount > 0n) {
        instructions.push(
          Programs.transferSol(state.pool.address, wsolAta, amount, [state.mint.address, state.configKey])
        )
        signers.set(state.pool.address, state.pool)
      }
      if (vault !== undefined && vaultTotal > 0n) {
        for (const { amount: owed, token } of owing) {
          instructions.push(Programs.transferSol(token.pool.address, vault.signer.address, owed, [token.mint.address]))
          signers.set(token.pool.address, token.pool)
        }
        instructions.push(Programs.transferSol(vault.signer.address, wsolAta, vaultTotal))
        signers.set(vault.signer.address, vault.signer)
      }
      instructions.push(Programs.syncNative(wsolAta))
      const payout: Payout = {
        operation: { kind: "position_claim", baseMint: state.mint.address, wallet },
        instructions,
        signers: [...signers.values()],
        apply: (landed) => {
          once.landed()
          recordClaim(state, wallet, amount + vaultTotal, landed)
          if (share !== undefined && amount > 0n) {
            const fromDbc = share.dbc < amount ? share.dbc : amount
            share.dbc -= fromDbc
            share.damm -= amount - fromDbc
            share.claimed += amount
            state.unpaidFees -= amount
          }
          if (vault !== undefined && vaultTotal > 0n) {
            for (const { amount: owed, token } of owing) {
              token.deployerPending -= owed
              token.unpaidFees -= owed
              vault.balance += owed
            }
            vault.balance -= vaultTotal
            vault.claimed += vaultTotal
          }
        }
      }
      return payout
    })

  return { holdingOf, holdingPayout, positionPayout }
}

/** The payouts. */
export type Service = ReturnType<typeof make>
