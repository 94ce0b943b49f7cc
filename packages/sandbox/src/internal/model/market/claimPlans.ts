/**
 * Claim plans: the lookup-table set-up stages, the payouts (positions, the deployer's
 * vault, holdings in wrapped SOL or the Token-2022 quote mint), fee limits, receipts.
 */
import { Claims, type Plan, Validation } from "@feeshare/domain"
import * as Alt from "@feeshare/solana/LookupTable"
import { stageOf } from "@feeshare/solana/StageBuilder"
import type { Budget, BuildInput } from "@feeshare/solana/StageBuilder"
import type { Address, AddressesByLookupTableAddress } from "@solana/kit"
import { Effect, Option } from "effect"
import type { Landed } from "../ledger/models.js"
import * as Programs from "../programs.js"
import { budgets } from "./constants.js"
import type * as Payouts from "./payouts.js"
import { type LookupTable, type Quote, reject, wrappedSol } from "./state.js"
import type { MarketState } from "./state.js"

/** The operations of this area over the market's state. */
export const make = (market: MarketState, payouts: Payouts.Service) => {
  const { ledger, tables, lifetime, prepare, token, lookupTableContents } = market
  const { holdingOf, holdingPayout, positionPayout } = payouts

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
    readonly apply?: (landed: Landed) => void
  }

  const stage = (input: StageInput) =>
    Effect.map(
      prepare(input.build, input.apply),
      (built) => stageOf({ ...input, lifetime: input.build.lifetime }, built)
    )

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
        const [address, bump] = yield* Effect.promise(() => Alt.tableAddress(wallet, recentSlot))
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
              instructions: [Alt.create(address, wallet, wallet, recentSlot, bump)],
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
            instructions: [Alt.extend(address, wallet, wallet, contents)],
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
    const issue = Claims.claimPlanIssue(request)
    if (issue !== undefined) return yield* reject(400, `${Validation.formatPath(issue.path)}: ${issue.rule}`)
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
      lookupTables = {
        ...(extra.length === 0 ? {} : yield* lookupTableContents(extra)),
        [table.address]: table.addresses
      }
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
        instructions: [
          Programs.createAssociatedTokenIdempotent(wallet, payoutAta, wallet, quote.mint, quote.tokenProgram)
        ],
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
