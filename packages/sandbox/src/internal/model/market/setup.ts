/**
 * The sandbox-only set-up: tokens, fee-share configs, holdings, the Token-2022 quote
 * mint's transfer fee, airdrops, slots, and the state view.
 */
import type { BundleRelay } from "@feeshare/domain"
import * as BasisPoints from "@feeshare/domain/BasisPoints"
import * as Wire from "@feeshare/domain/WireTransaction"
import type { Instruction } from "@solana/kit"
import { Effect, Option } from "effect"
import { maxAirdropLamports } from "../ledger/faucet.js"
import type { ClockState } from "../ledger/models.js"
import * as Programs from "../programs.js"
import { economics } from "./constants.js"
import type {
  AdvanceSlotsInput,
  AirdropInput,
  AirdropResult,
  ClockView,
  CreatedToken,
  CreateFeeShareConfigInput,
  CreateHoldingInput,
  CreateTokenInput,
  FeeShareConfigView,
  HoldingView,
  LedgerState,
  QuoteMintView,
  SetTransferFeeInput
} from "./service.js"
import { type Holding, type Quote, reject, type TokenState, wrappedSol } from "./state.js"
import type { MarketState } from "./state.js"

/** How many of a token's latest claims the state snapshot carries. */
const claimEventsShown = 20

/** The operations of this area over the market's state. */
export const make = (market: MarketState) =>
  Effect.gen(function*() {
    const {
      ledger,
      tokens,
      partnerVaults,
      deployerVaults,
      holdings,
      tables,
      signer,
      tokenKeys,
      extended,
      token,
      fund,
      fundRent,
      fundedVault
    } = market

    /**
     * Serialises the set-up operations: each computes its keys from the maps, funds them on the
     * ledger, and records the result in the maps only once every step succeeded, so a failed
     * set-up changes nothing in the market.
     */
    const setupLock = yield* Effect.makeSemaphore(1)

    const createToken = Effect.fn("Market.createToken")(function*(input: typeof CreateTokenInput.Type) {
      if (input.quoteMint !== undefined && input.quoteMint !== Programs.NATIVE_MINT) {
        return yield* reject(400, `quoteMint: the sandbox quotes in wrapped SOL (${Programs.NATIVE_MINT}) only`)
      }
      const index = tokens.size
      const keys = yield* tokenKeys(index)
      const mint = keys.mint
      const decimals = input.decimals ?? economics.decimals
      const supply = economics.supplyTokens * 10n ** BigInt(decimals)
      const state: TokenState = {
        index,
        ...keys,
        creator: input.creator,
        info: null,
        name: input.name ?? `Sandbox Token ${index}`,
        symbol: input.symbol ?? `SBX${index}`,
        decimals,
        flow: input.flow ?? "dbc",
        supply,
        launched: false,
        migrated: false,
        tokenReserve: 0n,
        solReserve: 0n,
        unpaidFees: 0n,
        lifetimeFees: 0n,
        partnerPending: 0n,
        deployerPending: 0n,
        config: {
          admin: input.creator,
          partner: null,
          claimers: [{ wallet: input.creator, bps: BasisPoints.total }],
          customFeeVault: null,
          deployer: null
        },
        createdConfig: null,
        shares: new Map(),
        claimEvents: []
      }
      yield* fundRent("pool authority", keys.pool.address)
      const deployerVault = yield* fundedVault("deployer", input.creator)
      tokens.set(mint.address, state)
      deployerVaults.set(input.creator, deployerVault)
      const created: typeof CreatedToken.Type = {
        mint: mint.address,
        configKey: state.configKey,
        quoteMint: Programs.NATIVE_MINT,
        decimals
      }
      return created
    }, setupLock.withPermits(1))

    const configView = (state: TokenState): typeof FeeShareConfigView.Type => ({
      mint: state.mint.address,
      admin: state.config.admin,
      partner: state.config.partner,
      claimers: state.config.claimers,
      customFeeVault: state.config.customFeeVault
    })

    const createFeeShareConfig = Effect.fn("Market.createFeeShareConfig")(function*(
      input: typeof CreateFeeShareConfigInput.Type
    ) {
      const state = yield* token(input.mint)
      if (input.claimers.length === 0 || input.claimers.length > 100) {
        return yield* reject(400, "claimers must have 1 to 100 entries")
      }
      if (new Set(input.claimers.map((c) => c.wallet)).size !== input.claimers.length) {
        return yield* reject(400, "claimers must not repeat a wallet")
      }
      if (input.claimers.reduce((a, c) => a + c.bps, 0) !== BasisPoints.total) {
        return yield* reject(400, "claimers bps must sum to exactly 10000")
      }
      if (input.customFeeVault === true && input.claimers.length !== 2) {
        return yield* reject(400, "customFeeVault: a custom fee vault has exactly 2 claimers (A and B)")
      }
      if (input.partner !== undefined) partnerVaults.set(input.partner, yield* fundedVault("partner", input.partner))
      state.config = {
        admin: input.admin,
        partner: input.partner ?? null,
        claimers: input.claimers,
        customFeeVault: input.customFeeVault === true
          ? (yield* signer(`token/${state.index}/custom-fee-vault`)).address
          : null,
        deployer: null
      }
      return configView(state)
    }, setupLock.withPermits(1))

    const createHolding = Effect.fn("Market.createHolding")(function*(input: typeof CreateHoldingInput.Type) {
      const state = yield* token(input.mint)
      if (input.lamports === 0n) return yield* reject(400, "lamports must be greater than 0")
      if (input.lamports > maxAirdropLamports) {
        return yield* reject(400, `lamports must be at most ${maxAirdropLamports} (1,000,000 SOL) per holding`)
      }
      const quote = yield* quoteOf(input.quoteMint)
      const key = `${state.mint.address}/${quote.mint}`
      const holding: Holding = holdings.get(key) ?? {
        tokenMint: state.mint.address,
        quote,
        // wrapped SOL keeps the authority it always had; another quote mint has its own
        authority: yield* signer(
          quote === wrappedSol
            ? `token/${state.index}/holding-authority`
            : `token/${state.index}/holding-authority/${quote.mint}`
        ),
        balances: new Map()
      }
      if (quote === wrappedSol) {
        yield* fundRent("holding authority", holding.authority.address)
        yield* fund(holding.authority.address, input.lamports)
      } else {
        const vault = yield* Effect.promise(() =>
          Programs.associatedTokenAddress(holding.authority.address, quote.mint, quote.tokenProgram)
        )
        yield* submitAs2022Authority(`mint ${input.lamports} of ${quote.mint} to the holding vault ${vault}`, [
          Programs.createAssociatedTokenIdempotent(
            extended.authority.address,
            vault,
            holding.authority.address,
            quote.mint,
            quote.tokenProgram
          ),
          Programs.mintTo(quote.mint, vault, extended.authority.address, input.lamports, quote.tokenProgram)
        ])
      }
      const entry = holding.balances.get(input.claimer) ?? { held: 0n, claimed: 0n }
      entry.held += input.lamports
      holding.balances.set(input.claimer, entry)
      holdings.set(key, holding)
      const view: typeof HoldingView.Type = {
        mint: state.mint.address,
        claimer: input.claimer,
        authority: holding.authority.address,
        quoteMint: quote.mint,
        held: entry.held
      }
      return view
    }, setupLock.withPermits(1))

    /** Wrapped SOL when absent, or the Token-2022 quote mint; another mint is a 400. */
    const quoteOf = (mint: string | undefined) =>
      mint === undefined || mint === Programs.NATIVE_MINT
        ? Effect.succeed(wrappedSol)
        : mint === extended.quote.mint
        ? Effect.succeed(extended.quote)
        : Effect.fail(reject(
          400,
          `quoteMint: ${mint} is not a quote mint of the sandbox (wrapped SOL ${Programs.NATIVE_MINT} or the Token-2022 mint ${extended.quote.mint})`
        ))

    /** Lands a set-up transaction paid and signed by the Token-2022 quote mint's authority. */
    const submitAs2022Authority = (what: string, instructions: ReadonlyArray<Instruction>) =>
      Effect.gen(function*() {
        const authority = extended.authority
        const balance = yield* ledger.balance(authority.address)
        if (balance < 1_000_000_000n) yield* fund(authority.address, 10n * 1_000_000_000n)
        return yield* Effect.mapError(
          ledger.submit(instructions, [authority]),
          (error) => reject(400, `could not ${what}: ${error.message}`)
        )
      })

    const quoteMintView = (quote: Quote) =>
      Effect.gen(function*() {
        const epoch = yield* ledger.epoch
        const account = yield* ledger.account(quote.mint)
        const config = Option.getOrUndefined(
          Option.flatMap(account, (a) => Option.fromNullable(Programs.transferFeeConfig(a.data)))
        )
        const feeView = (fee: Programs.TransferFee) => ({
          basisPoints: fee.basisPoints,
          maximumFeeRaw: fee.maximumFee,
          epoch: fee.epoch
        })
        const view: typeof QuoteMintView.Type = {
          mint: quote.mint,
          tokenProgram: quote.tokenProgram,
          decimals: quote.decimals,
          authority: quote === extended.quote ? extended.authority.address : null,
          epoch,
          transferFee: config === undefined ? null : feeView(Programs.epochTransferFee(config, epoch)),
          scheduledTransferFee: config === undefined || epoch >= config.newer.epoch ? null : feeView(config.newer),
          withheldInMint: config?.withheldAmount ?? 0n
        }
        return view
      })

    const quoteMints = Effect.all([quoteMintView(wrappedSol), quoteMintView(extended.quote)])

    const setTransferFee = Effect.fn("Market.setTransferFee")(function*(input: typeof SetTransferFeeInput.Type) {
      if (input.mint !== extended.quote.mint) {
        return yield* reject(
          400,
          `mint: ${input.mint} is not the sandbox's Token-2022 quote mint ${extended.quote.mint}`
        )
      }
      yield* submitAs2022Authority(
        `set the transfer fee of ${input.mint}`,
        [Programs.setTransferFee(
          extended.quote.mint,
          extended.authority.address,
          input.basisPoints,
          input.maximumFeeRaw
        )]
      )
      // Token-2022 applies the new schedule two epochs after the current one: those epochs pass now
      yield* ledger.advanceEpochs(2)
      return yield* quoteMintView(extended.quote)
    }, setupLock.withPermits(1))

    const relayBundle = Effect.fn("Market.relayBundle")(function*(input: BundleRelay.RelayRequest) {
      const wires: Array<Uint8Array> = []
      for (const [i, text] of input.transactions.entries()) {
        const bytes = Wire.toBytes(text, "base58")
        if (bytes === undefined) return yield* reject(400, `transactions[${i}] is not base58`)
        wires.push(bytes)
      }
      return yield* Effect.mapError(ledger.bundle(wires), (error) => reject(400, error.message))
    })

    const airdrop = Effect.fn("Market.airdrop")(function*(input: typeof AirdropInput.Type) {
      if (input.lamports === 0n) return yield* reject(400, "lamports must be greater than 0")
      const signature = yield* fund(input.address, input.lamports)
      const result: typeof AirdropResult.Type = { signature, balance: yield* ledger.balance(input.address) }
      return result
    })

    const clockView = (clock: ClockState): typeof ClockView.Type => ({
      slot: clock.slot,
      blockHeight: clock.blockHeight,
      blockhash: clock.blockhash
    })

    const advanceSlots = (input: typeof AdvanceSlotsInput.Type) => Effect.map(ledger.advance(input.slots), clockView)

    const state = Effect.map(
      Effect.zip(ledger.clock, quoteMints),
      ([clock, quoteMintViews]): typeof LedgerState.Type => ({
        clock: clockView(clock),
        quoteMints: quoteMintViews.map((q) => ({
          mint: q.mint,
          tokenProgram: q.tokenProgram,
          decimals: q.decimals,
          transferFee: q.transferFee === null
            ? null
            : { basisPoints: q.transferFee.basisPoints, maximumFeeRaw: q.transferFee.maximumFeeRaw.toString() }
        })),
        tokens: [...tokens.values()].map((t) => ({
          mint: t.mint.address,
          symbol: t.symbol,
          launched: t.launched,
          migrated: t.migrated,
          quoteMint: Programs.NATIVE_MINT,
          lifetimeFees: t.lifetimeFees,
          name: t.name,
          creator: t.creator,
          imageUploaded: t.info !== null && t.info.image !== null,
          decimals: t.decimals,
          flow: t.flow,
          configKey: t.configKey,
          poolAuthority: t.pool.address,
          poolTokenVault: t.poolVault,
          solReserve: t.solReserve.toString(),
          tokenReserve: t.tokenReserve.toString(),
          unpaidFees: t.unpaidFees.toString(),
          partnerPending: t.partnerPending.toString(),
          deployerPending: t.deployerPending.toString(),
          feeShare: {
            admin: t.config.admin,
            partner: t.config.partner,
            claimers: t.config.claimers.map((c) => ({ wallet: c.wallet, bps: c.bps })),
            // made by config creation: its type, and the deployer earning FeeShare.deployerBps
            configType: t.createdConfig?.configType ?? null,
            deployer: t.config.deployer
          },
          shares: [...t.shares].map(([wallet, s]) => ({
            wallet,
            unclaimed: (s.dbc + s.damm).toString(),
            claimed: s.claimed.toString()
          })),
          // the latest claims, newest first (the claim-events operation has them all)
          claimEvents: t.claimEvents.slice(-claimEventsShown).reverse().map((e) => ({
            wallet: e.wallet,
            isCreator: e.isCreator,
            amount: e.amount.toString(),
            signature: e.signature,
            blockTime: e.blockTime
          }))
        })),
        partnerVaults: [...partnerVaults].map(([partner, v]) => ({
          partner,
          vault: v.signer.address,
          balance: v.balance.toString(),
          claimed: v.claimed.toString()
        })),
        deployerVaults: [...deployerVaults].map(([deployer, v]) => ({
          deployer,
          vault: v.signer.address,
          balance: v.balance.toString(),
          claimed: v.claimed.toString()
        })),
        holdings: [...holdings.values()].flatMap((h) =>
          [...h.balances].map(([claimer, b]) => ({
            mint: h.tokenMint,
            quoteMint: h.quote.mint,
            authority: h.authority.address,
            claimer,
            held: b.held.toString(),
            claimed: b.claimed.toString()
          }))
        ),
        lookupTables: [...tables].map(([wallet, t]) => ({
          wallet,
          address: t.address,
          extended: t.extended,
          extendedSlot: t.extendedSlot.toString()
        }))
      })
    )

    return {
      createToken,
      createFeeShareConfig,
      createHolding,
      relayBundle,
      airdrop,
      advanceSlots,
      quoteMints,
      setTransferFee,
      state
    }
  })

/** The operations of this area. */
export type Service = Effect.Effect.Success<ReturnType<typeof make>>
