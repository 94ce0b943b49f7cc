/**
 * Claim plans: the lookup-table set-up stages, the payouts (positions, the deployer's
 * vault, holdings in wrapped SOL or the Token-2022 quote mint), fee limits, receipts.
 */
import type { Claims, Plan } from "@feeshare/domain"
import type { Address, AddressesByLookupTableAddress, Instruction, KeyPairSigner } from "@solana/kit"
import { Effect, Option } from "effect"
import { stageOf } from "@feeshare/solana/StageBuilder"
import type { Budget, BuildInput } from "@feeshare/solana/StageBuilder"
import * as Programs from "../programs.js"
import * as Ledger from "../../Ledger.js"
import { type Holding, type LookupTable, type Quote, reject, sum, type TokenState, wrappedSol } from "./state.js"
import type { MarketState } from "./state.js"
import { budgets } from "./constants.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const {
    ledger,
    deployerVaults,
    holdings,
    tables,
    rentExempt,
    lifetime,
    prepare,
    token,
    lookupTableContents,
    unclaimed,
    deployerTokens
  } = market

  /** Addresses of a wallet's lookup table: what its claim transactions reference. */
  const tableAddresses = (wsolAta: Address): ReadonlyArray<Address> => [
    wsolAta,
    Programs.NATIVE_MINT,
    Programs.SYSTEM_PROGRAM,
    Programs.TOKEN_PROGRAM
  ]

  interface StageInput {
    readonly id: string
    readonly kind: Plan.StageKind
    readonly dependsOn: ReadonlyArray<string>
    readonly format: "v0" | "v1"
    readonly build: BuildInput
    readonly budget: Budget
    readonly apply?: (landed: Ledger.Landed) => void
  }

  const stage = (input: StageInput) =>
    Effect.map(prepare(input.build, input.apply), (built) => stageOf({ ...input, lifetime: input.build.lifetime }, built))

  const setupStages = (wallet: Address, wsolAta: Address, existing: LookupTable | undefined) =>
    Effect.gen(function*() {
      const life = yield* lifetime
      const clock = yield* ledger.clock
      const budget = budgets.setup
      const contents = tableAddresses(wsolAta)
      const stages: Array<Plan.Stage> = []
      let table = existing?.address
      if (table === undefined) {
        const recentSlot = clock.slot
        const [address, bump] = yield* Effect.promise(() => Programs.lookupTableAddress(wallet, recentSlot))
        table = address
        stages.push(
          yield* stage({
            id: "lookup-table-create",
            kind: "lookup_table_setup",
            dependsOn: [],
            format: "v0",
            budget,
            build: {
              format: "v0",
              feePayer: wallet,
              instructions: [Programs.createLookupTable(address, wallet, wallet, recentSlot, bump)],
              lifetime: life,
              signers: [],
              budget
            },
            apply: () => {
              tables.set(wallet, { address, addresses: contents, extended: false, extendedSlot: 0n })
            }
          })
        )
      }
      const address = table
      stages.push(
        yield* stage({
          id: "lookup-table-extend",
          kind: "lookup_table_setup",
          dependsOn: stages.length === 0 ? [] : ["lookup-table-create"],
          format: "v0",
          budget,
          build: {
            format: "v0",
            feePayer: wallet,
            instructions: [Programs.extendLookupTable(address, wallet, wallet, contents)],
            lifetime: life,
            signers: [],
            budget
          },
          apply: (landed) => {
            tables.set(wallet, { address, addresses: contents, extended: true, extendedSlot: landed.slot })
          }
        })
      )
      return { table: address, stages }
    })

  /** What a claim plan pays out, and how: its claim stage's instructions and what landing it changes. */
  interface Payout {
    readonly operation: Plan.Operation
    readonly instructions: ReadonlyArray<Instruction>
    readonly signers: ReadonlyArray<KeyPairSigner>
    readonly apply: () => void
  }

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
        instruction: Programs.createAccountWithSeed(wallet, account, wallet, seed, rentExempt, 0, Programs.SYSTEM_PROGRAM),
        landed: () => landedClaims.set(key, n + 1)
      }
    })

  /** The token's holding vault whose authority is `authority`. */
  const holdingOf = (state: TokenState, authority: string) => {
    const holding = [...holdings.values()].find((h) =>
      h.tokenMint === state.mint.address && h.authority.address === authority
    )
    return holding === undefined
      ? Effect.fail(reject(400, `source.authority ${authority} is not a holding-vault authority of token ${state.mint.address}`))
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
        return yield* reject(400, `nothing to claim: holding vault authority ${authority} holds nothing for ${wallet} in ${state.mint.address}`)
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
        apply: () => {
          once.landed()
          entry.held -= amount
          entry.claimed += amount
        }
      }
      return payout
    })

  /**
   * The claimer's unclaimed share of the token and, for a `pool` source on the token's DAMM
   * v2 pool claimed by the token's deployer, the deployer's aggregate vault: the pools' pending
   * deployer shares move into the vault and the vault pays out, in the same transaction.
   */
  const positionPayout = (state: TokenState, wallet: Address, source: Claims.ClaimSource | null | undefined, wsolAta: Address) =>
    Effect.gen(function*() {
      const share = state.shares.get(wallet)
      const amount = unclaimed(share)
      const withVault = source?.kind === "pool" && source.protocol === "damm_v2" && state.creator === wallet
      const vault = withVault ? deployerVaults.get(wallet) : undefined
      const owing = vault === undefined
        ? []
        : deployerTokens(wallet).filter((t) => t.deployerPending > 0n).map((t) => ({ token: t, amount: t.deployerPending }))
      const vaultTotal = vault === undefined ? 0n : vault.balance + sum(owing.map((o) => o.amount))
      if (amount === 0n && vaultTotal === 0n) {
        return yield* reject(400, `nothing to claim for ${wallet} in ${state.mint.address}`)
      }
      const once = yield* receipt("p", state, wallet)
      const instructions: Array<Instruction> = [once.instruction]
      const signers = new Map<string, KeyPairSigner>()
      if (amount > 0n) {
        instructions.push(Programs.transferSol(state.pool.address, wsolAta, amount, [state.mint.address, state.configKey]))
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
        apply: () => {
          once.landed()
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

  /** The transfer-fee schedule of a quote mint active in the ledger's current epoch; none without one. */
  const activeTransferFee = (quote: Quote) =>
    Effect.gen(function*() {
      if (quote.tokenProgram !== Programs.TOKEN_2022_PROGRAM) return undefined
      const account = yield* ledger.account(quote.mint)
      const config = Option.flatMap(account, (a) => Option.fromNullable(Programs.transferFeeConfig(a.data)))
      if (Option.isNone(config)) return undefined
      return Programs.epochTransferFee(config.value, yield* ledger.epoch)
    })

  /**
   * Checks the request's fee limits against the active schedule of the plan's asset: each must
   * name that asset (once), its `basisPoints` must be at least the active rate and its
   * `maximumFeeRaw` at least the active cap (each checked on its own). Answers the limits the
   * plan applies: the request's, or by default the active schedule (none without a transfer fee).
   */
  const applyFeeLimits = (
    limits: ReadonlyArray<Claims.FeeLimit> | null | undefined,
    quote: Quote,
    active: Programs.TransferFee | undefined
  ) =>
    Effect.gen(function*() {
      const asset = { mint: quote.mint, tokenProgram: quote.tokenProgram }
      if (limits === undefined || limits === null) {
        const observed: ReadonlyArray<Claims.FeeLimit> = active === undefined
          ? []
          : [{ asset, basisPoints: active.basisPoints, maximumFeeRaw: active.maximumFee }]
        return observed
      }
      const rate = active?.basisPoints ?? 0
      const cap = active?.maximumFee ?? 0n
      for (const [i, limit] of limits.entries()) {
        if (limit.asset.mint !== quote.mint || limit.asset.tokenProgram !== quote.tokenProgram) {
          return yield* reject(
            400,
            `feeLimits[${i}].asset: ${limit.asset.mint} (${limit.asset.tokenProgram}) is not the asset of the plan, ` +
              `${quote.mint} (${quote.tokenProgram})`
          )
        }
        if (i > 0) return yield* reject(400, `feeLimits[${i}].asset: a second limit for ${quote.mint}`)
        const exceeded: Array<string> = []
        if (rate > limit.basisPoints) {
          exceeded.push(
            `feeLimits[${i}].basisPoints: the active transfer-fee rate of ${quote.mint} is ${rate} bps, above the limit of ${limit.basisPoints} bps`
          )
        }
        if (cap > limit.maximumFeeRaw) {
          exceeded.push(
            `feeLimits[${i}].maximumFeeRaw: the active transfer-fee cap of ${quote.mint} is ${cap}, above the limit of ${limit.maximumFeeRaw}`
          )
        }
        if (exceeded.length > 0) return yield* reject(400, exceeded.join("; "))
      }
      return limits
    })

  const createPlan = Effect.fn("Market.createPlan")(function*(request: Claims.ClaimPlanRequest) {
    const state = yield* token(request.tokenMint)
    const source = request.source
    const wallet = request.feeClaimer as Address
    if (source?.kind === "pool") {
      const expected = source.protocol === "dbc" ? state.dbcPool : state.dammPool
      if (source.pool !== expected || (source.protocol === "damm_v2" && !state.migrated)) {
        return yield* reject(400, `pool ${source.pool} is not the ${source.protocol} pool of ${request.tokenMint}`)
      }
    }
    const holding = source?.kind === "holding" ? yield* holdingOf(state, source.authority) : undefined
    const quote = holding?.quote ?? wrappedSol
    if (request.quoteMint !== undefined && request.quoteMint !== null && request.quoteMint !== quote.mint) {
      const selected = source?.kind === "holding"
        ? `the quote mint of holding vault ${source.authority}`
        : `the quote mint of the fee-share config of ${request.tokenMint}`
      return yield* reject(400, `quoteMint ${request.quoteMint} does not match ${selected} (${quote.mint})`)
    }
    const transferFee = yield* activeTransferFee(quote)
    const feeLimits = yield* applyFeeLimits(request.feeLimits, quote, transferFee)
    const wsolAta = yield* Effect.promise(() => Programs.associatedTokenAddress(wallet, Programs.NATIVE_MINT))
    const payoutAta = quote.mint === Programs.NATIVE_MINT
      ? wsolAta
      : yield* Effect.promise(() => Programs.associatedTokenAddress(wallet, quote.mint, quote.tokenProgram))
    const payout = holding !== undefined
      ? yield* holdingPayout(state, wallet, holding, payoutAta, transferFee)
      : yield* positionPayout(state, wallet, source, wsolAta)
    const format = request.transactionFormat ?? "v0"
    const base = {
      contractVersion: 1 as const,
      operation: payout.operation,
      asset: { mint: quote.mint, tokenProgram: quote.tokenProgram, decimals: quote.decimals },
      feeLimits
    }
    const extra = request.additionalLookupTables ?? []
    let lookupTables: AddressesByLookupTableAddress | undefined
    if (format === "v0") {
      const table = tables.get(wallet)
      if (table === undefined || !table.extended) {
        const setup = yield* setupStages(wallet, wsolAta, table)
        const plan: Plan.TransactionPlan = {
          ...base,
          transactions: setup.stages,
          readiness: { status: "setup_required", reason: "lookup_table_missing", lookupTable: setup.table }
        }
        return plan
      }
      const clock = yield* ledger.clock
      if (clock.slot <= table.extendedSlot) {
        const plan: Plan.TransactionPlan = {
          ...base,
          transactions: [],
          readiness: {
            status: "setup_required",
            reason: "lookup_table_warming_up",
            lookupTable: table.address,
            usableFromSlot: String(table.extendedSlot + 1n)
          }
        }
        return plan
      }
      lookupTables = { ...(extra.length === 0 ? {} : yield* lookupTableContents(extra)), [table.address]: table.addresses }
    } else if (extra.length > 0) {
      return yield* reject(400, "additionalLookupTables apply to v0 transactions only")
    }
    const budget = format === "v1" ? budgets.claimV1 : budgets.claimV0
    const life = yield* lifetime
    const payoutAccount: StageInput = {
      id: "payout-account",
      kind: "config",
      dependsOn: [],
      format,
      budget,
      build: {
        format,
        feePayer: wallet,
        instructions: [Programs.createAssociatedTokenIdempotent(wallet, payoutAta, wallet, quote.mint, quote.tokenProgram)],
        lifetime: life,
        signers: [],
        budget,
        lookupTables
      }
    }
    const claim: StageInput = {
      id: "claim",
      kind: "claim",
      dependsOn: ["payout-account"],
      format,
      budget,
      build: {
        format,
        feePayer: wallet,
        instructions: payout.instructions,
        lifetime: life,
        signers: payout.signers,
        budget,
        lookupTables
      },
      apply: payout.apply
    }
    const plan: Plan.TransactionPlan = {
      ...base,
      transactions: [yield* stage(payoutAccount), yield* stage(claim)],
      readiness: { status: "ready" }
    }
    return plan
  })

  return { createPlan }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
