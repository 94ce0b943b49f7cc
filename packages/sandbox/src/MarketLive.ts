/**
 * The `Market` on the ledger: tokens, constant-product pools, fee-share configs, fees
 * accrued by swaps and credited to claimers by their basis points, partner vaults, claim
 * statistics and lifetime fees, all in memory and deterministic from `Options.seed`.
 *
 * Every transaction the market answers is real: it executes on the `Ledger` with the
 * System, SPL Token, Token-2022, Associated Token Account, Memo and Address Lookup Table
 * programs. The market records the effect of each transaction it builds under the SHA-256 of
 * its message and applies it only when the ledger reports that message landed, so the state
 * changes only when (and because) a transaction lands.
 *
 * On-ledger model (per token, keys derived from the seed): the mint (its keypair held by the
 * sandbox), the pool authority (a system account holding the pool's SOL reserve and the
 * unpaid fees, and owning the pool's token vault), the token vault (its associated token
 * account). Fees are paid out in wrapped SOL to the claimer's associated token account.
 *
 * Aggregate vaults (one per wallet and quote mint; wrapped SOL is their only quote mint): the
 * partner's share of every fee and, on migrated (DAMM v2) pools, the deployer's (creator's)
 * share accrue as pending amounts on the pool authority and move into the vault when claimed.
 * A partner withdraws with the partner-claim entries (one settling entry per token, the last
 * entry withdraws the vault). A deployer withdraws with a claim plan on the token's DAMM v2
 * pool (`source: { kind: "pool", protocol: "damm_v2", pool }`, `feeClaimer` the token's
 * creator): its claim stage moves the pools' pending deployer shares into the vault and pays
 * the whole vault out, together with the deployer's own unclaimed share of that token, in
 * one transaction pre-signed by the pool authorities and the vault. Any other source claims
 * the share only and leaves the vault alone.
 *
 * Holdings: a token's holding-vault authority (a sandbox-held key, one per token and quote
 * mint) holds balances for claimers, funded by the sandbox-only `createHolding`. A claim plan
 * with `source: { kind: "holding", authority }` pays the claimer's whole balance out
 * (`holding_claim`; the user pays the fees, the authority pre-signs), in the holding's quote
 * mint: wrapped SOL, or the sandbox's Token-2022 quote mint (`quoteMint2022`), whose transfers
 * cost a transfer fee. Such a payout is a Token-2022 TransferCheckedWithFee stating the fee of
 * the schedule active when the plan was built, so it fails on the ledger (FeeMismatch) if the
 * schedule changed since; the plan's `feeLimits` are checked against that schedule when it is
 * built. Swaps, pools, positions and aggregate vaults are wrapped SOL only.
 *
 * @since 0.1.0
 */
import type { Analytics, Claims, FeeShare, Launch, Plan, Trade } from "@feeshare/domain"
import * as BasisPoints from "@feeshare/domain/BasisPoints"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import * as RawAmount from "@feeshare/domain/RawAmount"
import { type Address, type AddressesByLookupTableAddress, type Instruction, type KeyPairSigner } from "@solana/kit"
import { Effect, Layer, Option } from "effect"
import { build, type Budget, type BuildInput, type Built, sizeLimit, stageOf } from "@feeshare/solana/StageBuilder"
import { deriveSigner } from "./internal/keys.js"
import * as Programs from "./internal/programs.js"
import * as Ledger from "./Ledger.js"
import {
  type AdvanceSlotsInput,
  type AirdropInput,
  type AirdropResult,
  type ClockView,
  type CreatedToken,
  type CreateFeeShareConfigInput,
  type CreateHoldingInput,
  type CreateTokenInput,
  type FeeShareConfigView,
  type HoldingView,
  type LedgerState,
  Market,
  type QuoteMintView,
  Rejection,
  type SetTransferFeeInput
} from "./Market.js"
import type { Options } from "./Options.js"

/**
 * The market's economics.
 *
 * @since 0.1.0
 * @category constants
 */
export const economics = {
  /** Swap fee on the SOL side of every trade. */
  feeBps: 100,
  /** Share of each fee that goes to the token's partner, when it has one. */
  partnerFeeBps: 2_000,
  /**
   * Share of each fee on a migrated (DAMM v2) pool that goes to the token's deployer (its
   * creator), into the deployer's aggregate vault; pre-migration (DBC) fees pay no deployer
   * share. The partner's and the deployer's shares come off the fee first; the claimers split
   * the rest by their basis points.
   */
  deployerFeeBps: 1_000,
  /** Virtual SOL reserve of a new pool (constant product on virtual + real SOL). */
  virtualSolLamports: 30_000_000_000n,
  /** Whole tokens minted to the pool at launch. */
  supplyTokens: 1_000_000_000n,
  /** A pre-migration pool migrates to DAMM v2 once its real SOL reserve reaches this. */
  migrationLamports: 5_000_000_000n,
  /** Default decimals of a created token. */
  decimals: 6,
  /** Slippage of an `auto` quote. */
  autoSlippageBps: 50
} as const

/**
 * The sandbox's Token-2022 quote mint: created on the ledger when the market starts, from keys
 * derived from the seed (the sandbox holds the mint, mint authority, transfer-fee-config and
 * withdraw-withheld authority keys), with a TransferFeeConfig extension and this initial
 * schedule: `basisPoints` of every transfer, at most `maximumFee` (raw units).
 *
 * @since 0.1.0
 * @category constants
 */
export const quoteMint2022 = {
  decimals: 6,
  basisPoints: 100,
  maximumFee: 5_000_000n,
  /** Seed labels of the mint's keypair and of its authority. */
  mintLabel: "quote-mint/token-2022/mint",
  authorityLabel: "quote-mint/token-2022/authority"
} as const

/**
 * Budgets of the transactions the market builds.
 *
 * @since 0.1.0
 * @category constants
 */
export const budgets = {
  swap: { computeUnitLimit: 150_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n },
  claimV0: { computeUnitLimit: 100_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n },
  claimV1: { computeUnitLimit: 100_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 5_000n },
  setup: { computeUnitLimit: 60_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n }
} as const satisfies Record<string, Budget>

interface Claimer {
  readonly wallet: string
  readonly bps: number
}

interface Config {
  admin: string
  partner: string | null
  claimers: ReadonlyArray<Claimer>
  /** A two-claimer custom fee vault (claimer A, then B) instead of the pool's own split. */
  customFeeVault: Address | null
}

/** A wallet's fees in one token: unclaimed by pool phase, and claimed in total. */
interface Share {
  dbc: bigint
  damm: bigint
  claimed: bigint
}

interface TokenState {
  readonly index: number
  readonly mint: KeyPairSigner
  readonly pool: KeyPairSigner
  readonly poolVault: Address
  readonly configKey: Address
  readonly dbcPool: Address
  readonly dammPool: Address
  /** The pool's DAMM v2 position after migration, as `dammPositionInfo` reports it. */
  readonly dammPosition: typeof Claims.DammPositionInfo.Type
  readonly creator: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  readonly flow: "dbc" | "damm_v2_direct"
  readonly supply: bigint
  launched: boolean
  migrated: boolean
  tokenReserve: bigint
  solReserve: bigint
  /** Fees held by the pool authority, not yet paid out (claimers' and partner's). */
  unpaidFees: bigint
  lifetimeFees: bigint
  partnerPending: bigint
  /** The deployer's share not yet moved into its aggregate vault. */
  deployerPending: bigint
  config: Config
  readonly shares: Map<string, Share>
}

/** A partner's or a deployer's aggregate vault (wrapped SOL, the only quote mint). */
interface AggregateVault {
  readonly signer: KeyPairSigner
  balance: bigint
  claimed: bigint
}

/** A quote mint: the asset a payout moves. */
interface Quote {
  readonly mint: Address
  readonly tokenProgram: Address
  readonly decimals: number
}

const wrappedSol: Quote = { mint: Programs.NATIVE_MINT, tokenProgram: Programs.TOKEN_PROGRAM, decimals: 9 }

/** Balances a token's holding-vault authority holds for claimers in one quote mint. */
interface Holding {
  readonly tokenMint: string
  readonly quote: Quote
  readonly authority: KeyPairSigner
  readonly balances: Map<string, { held: bigint; claimed: bigint }>
}

interface LookupTable {
  readonly address: Address
  readonly addresses: ReadonlyArray<Address>
  extended: boolean
  extendedSlot: bigint
}

interface Pending {
  readonly lastValidBlockHeight: bigint
  readonly apply: (landed: Ledger.Landed) => void
}

const reject = (status: 400 | 403 | 404 | 500, message: string) => new Rejection({ status, message })

const sum = (values: Iterable<bigint>): bigint => {
  let total = 0n
  for (const value of values) total += value
  return total
}

const display = (amount: bigint, decimals: number): number => Number(RawAmount.format(amount, decimals))

/**
 * A `Market` backed by the `Ledger`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Pick<Options, "seed">) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger.Ledger
    const seed = options.seed
    const tokens = new Map<string, TokenState>()
    const partnerVaults = new Map<string, AggregateVault>()
    const deployerVaults = new Map<string, AggregateVault>()
    const holdings = new Map<string, Holding>()
    const tables = new Map<string, LookupTable>()
    const pending = new Map<string, Pending>()
    let quotes = 0

    yield* ledger.onLanded((landed) =>
      Effect.sync(() => {
        const entry = pending.get(landed.messageSha256)
        if (entry === undefined) return
        pending.delete(landed.messageSha256)
        if (landed.err === null) entry.apply(landed)
      })
    )

    const signer = (label: string) => Effect.promise(() => deriveSigner(seed, label))
    const rentExempt = ledger.minimumBalance(0)

    // the Token-2022 quote mint, created now so that it is on the ledger from the start
    const extended = yield* Effect.gen(function*() {
      const mint = yield* signer(quoteMint2022.mintLabel)
      const authority = yield* signer(quoteMint2022.authorityLabel)
      yield* ledger.airdrop(authority.address, 10n * 1_000_000_000n)
      const size = Programs.TRANSFER_FEE_MINT_SIZE
      yield* ledger.submit([
        Programs.createAccount(authority.address, mint.address, ledger.minimumBalance(size), size, Programs.TOKEN_2022_PROGRAM),
        Programs.initializeTransferFeeConfig(
          mint.address,
          authority.address,
          authority.address,
          quoteMint2022.basisPoints,
          quoteMint2022.maximumFee
        ),
        Programs.initializeMint2(mint.address, quoteMint2022.decimals, authority.address, Programs.TOKEN_2022_PROGRAM)
      ], [authority, mint])
      const quote: Quote = { mint: mint.address, tokenProgram: Programs.TOKEN_2022_PROGRAM, decimals: quoteMint2022.decimals }
      return { quote, authority }
    }).pipe(Effect.orDie)

    const lifetime = Effect.map(ledger.clock, (clock) => ({
      blockhash: clock.blockhash,
      lastValidBlockHeight: clock.lastValidBlockHeight
    }))

    /** Builds and signs a transaction, and records what its landing does. */
    const prepare = (input: BuildInput, apply: ((landed: Ledger.Landed) => void) | undefined) =>
      Effect.gen(function*() {
        const built = yield* Effect.tryPromise({
          try: () => build(input),
          catch: (error) => reject(500, `could not build the transaction: ${error instanceof Error ? error.message : String(error)}`)
        })
        if (built.size.bytes > sizeLimit(input.format)) {
          return yield* reject(400, `the transaction would take ${built.size.bytes} bytes, over the ${sizeLimit(input.format)}-byte limit`)
        }
        if (apply !== undefined) {
          const clock = yield* ledger.clock
          for (const [hash, entry] of pending) if (entry.lastValidBlockHeight < clock.blockHeight) pending.delete(hash)
          pending.set(built.messageSha256, { lastValidBlockHeight: input.lifetime.lastValidBlockHeight, apply })
        }
        return built
      })

    const token = (mint: string) =>
      Effect.suspend(() => {
        const found = tokens.get(mint)
        return found === undefined
          ? Effect.fail(reject(404, `unknown token mint ${mint}; create it with the sandbox setup operation first`))
          : Effect.succeed(found)
      })

    /** The service answers 400 `token launch not found` for an unknown or unlaunched token here. */
    const launchFound = (mint: string) =>
      Effect.suspend(() => {
        const found = tokens.get(mint)
        return found === undefined || !found.launched
          ? Effect.fail(reject(400, `token launch not found: ${mint}`))
          : Effect.succeed(found)
      })

    const launched = (mint: string) =>
      Effect.flatMap(token(mint), (state) =>
        state.launched ? Effect.succeed(state) : Effect.fail(reject(400, `token ${mint} has not launched yet`)))

    const shareOf = (state: TokenState, wallet: string): Share => {
      let share = state.shares.get(wallet)
      if (share === undefined) {
        share = { dbc: 0n, damm: 0n, claimed: 0n }
        state.shares.set(wallet, share)
      }
      return share
    }

    /** Credits a swap fee: the partner's share, then the claimers by their basis points. */
    const accrue = (state: TokenState, fee: bigint) => {
      state.lifetimeFees += fee
      state.unpaidFees += fee
      const partnerShare = state.config.partner === null ? 0n : (fee * BigInt(economics.partnerFeeBps)) / 10_000n
      const deployerShare = state.migrated ? (fee * BigInt(economics.deployerFeeBps)) / 10_000n : 0n
      state.partnerPending += partnerShare
      state.deployerPending += deployerShare
      const parts = BasisPoints.split(fee - partnerShare - deployerShare, state.config.claimers.map((c) => c.bps))
      state.config.claimers.forEach((claimer, i) => {
        const share = shareOf(state, claimer.wallet)
        const part = parts[i] ?? 0n
        if (state.migrated) share.damm += part
        else share.dbc += part
      })
    }

    /** Set-up lamports from the ledger's faucet; a refusal is a 400 with the ledger's reason. */
    const fund = (address: string, amount: bigint) =>
      Effect.mapError(ledger.airdrop(address, amount), (error) => reject(400, error.message))

    /** Tops a sandbox-held account (`role`) up to the rent-exempt minimum; nothing when it has it. */
    const fundRent = (role: string, address: string): Effect.Effect<void, Rejection> =>
      Effect.flatMap(ledger.balance(address), (balance): Effect.Effect<void, Rejection> =>
        balance >= rentExempt ? Effect.void : Effect.mapError(
          Effect.asVoid(ledger.airdrop(address, rentExempt - balance)),
          (error) => reject(400, `could not fund the ${role} ${address} for rent: ${error.message}`)
        ))

    /**
     * The aggregate vault of a partner or a deployer (one per wallet and quote mint), funded
     * for rent. A new vault is not recorded: the caller records it once its whole set-up
     * succeeded.
     */
    const fundedVault = (kind: "partner" | "deployer", wallet: string) =>
      Effect.gen(function*() {
        const existing = (kind === "partner" ? partnerVaults : deployerVaults).get(wallet)
        if (existing !== undefined) return existing
        const vault: AggregateVault = { signer: yield* signer(`${kind}/${wallet}/${Programs.NATIVE_MINT}`), balance: 0n, claimed: 0n }
        yield* fundRent(`${kind} vault`, vault.signer.address)
        return vault
      })

    // ---- trading -------------------------------------------------------------------------

    interface Trade {
      readonly side: "buy" | "sell"
      readonly state: TokenState
      readonly amountIn: bigint
      readonly amountOut: bigint
      readonly fee: bigint
      /** SOL moved into (buy, net of fee) or out of (sell, gross) the reserve. */
      readonly reserveDelta: bigint
    }

    const price = (state: TokenState, side: "buy" | "sell", amountIn: bigint): Trade => {
      const sol = economics.virtualSolLamports + state.solReserve
      if (side === "buy") {
        const fee = (amountIn * BigInt(economics.feeBps)) / 10_000n
        const net = amountIn - fee
        const out = (state.tokenReserve * net) / (sol + net)
        return { side, state, amountIn, amountOut: out, fee, reserveDelta: net }
      }
      let gross = (sol * amountIn) / (state.tokenReserve + amountIn)
      if (gross > state.solReserve) gross = state.solReserve
      const fee = (gross * BigInt(economics.feeBps)) / 10_000n
      return { side, state, amountIn, amountOut: gross - fee, fee, reserveDelta: gross }
    }

    const applyTrade = (trade: Trade) => {
      const state = trade.state
      if (trade.side === "buy") {
        state.solReserve += trade.reserveDelta
        state.tokenReserve -= trade.amountOut
      } else {
        state.solReserve -= trade.reserveDelta
        state.tokenReserve += trade.amountIn
      }
      accrue(state, trade.fee)
      if (!state.migrated && state.solReserve >= economics.migrationLamports) state.migrated = true
    }

    const tradeInstructions = async (trade: Trade, user: Address): Promise<ReadonlyArray<Instruction>> => {
      const state = trade.state
      const userAta = await Programs.associatedTokenAddress(user, state.mint.address)
      return trade.side === "buy"
        ? [
          Programs.createAssociatedTokenIdempotent(user, userAta, user, state.mint.address),
          Programs.transferSol(user, state.pool.address, trade.amountIn),
          Programs.transferToken(state.poolVault, userAta, state.pool.address, trade.amountOut)
        ]
        : [
          Programs.transferToken(userAta, state.poolVault, user, trade.amountIn),
          Programs.transferSol(state.pool.address, user, trade.amountOut)
        ]
    }

    const resolvePair = (inputMint: string, outputMint: string) =>
      Effect.gen(function*() {
        if (inputMint === Programs.NATIVE_MINT && outputMint !== Programs.NATIVE_MINT) {
          return { side: "buy" as const, state: yield* launched(outputMint) }
        }
        if (outputMint === Programs.NATIVE_MINT && inputMint !== Programs.NATIVE_MINT) {
          return { side: "sell" as const, state: yield* launched(inputMint) }
        }
        return yield* reject(400, `one side of the pair must be wrapped SOL (${Programs.NATIVE_MINT}) and the other a launched token`)
      })

    const quote = Effect.fn("Market.quote")(function*(request: Trade.QuoteRequest) {
      const { side, state } = yield* resolvePair(request.inputMint, request.outputMint)
      if (request.amount === 0n) return yield* reject(400, "amount must be greater than 0")
      const trade = price(state, side, request.amount)
      if (trade.amountOut === 0n) return yield* reject(400, "amount is too small to trade")
      const slippageBps = request.slippageMode === "manual" ? (request.slippageBps ?? 0) : economics.autoSlippageBps
      const minOut = (trade.amountOut * BigInt(10_000 - slippageBps)) / 10_000n
      const clock = yield* ledger.clock
      const sol = economics.virtualSolLamports + state.solReserve
      const spot = side === "buy" ? Number(state.tokenReserve) / Number(sol) : Number(sol) / Number(state.tokenReserve)
      const executed = Number(trade.amountOut) / Number(side === "buy" ? trade.amountIn - trade.fee : trade.amountIn)
      const impact = Math.max(0, 1 - executed / spot)
      quotes += 1
      const inputDecimals = side === "buy" ? 9 : state.decimals
      const outputDecimals = side === "buy" ? state.decimals : 9
      const result: Trade.TradeQuote = {
        requestId: `sandbox-quote-${quotes}`,
        contextSlot: Number(clock.slot),
        inAmount: trade.amountIn,
        inputMint: request.inputMint,
        outAmount: trade.amountOut,
        outputMint: request.outputMint,
        minOutAmount: minOut,
        otherAmountThreshold: minOut,
        priceImpactPct: impact.toFixed(6),
        slippageBps,
        routePlan: [{
          venue: state.migrated ? "damm_v2" : "dbc",
          inAmount: trade.amountIn,
          outAmount: trade.amountOut,
          inputMint: request.inputMint,
          outputMint: request.outputMint,
          inputMintDecimals: inputDecimals,
          outputMintDecimals: outputDecimals,
          marketKey: state.migrated ? state.dammPool : state.dbcPool,
          data: ""
        }],
        platformFee: {
          amount: trade.fee,
          feeBps: economics.feeBps,
          feeAccount: state.pool.address,
          segmenterFeeAmount: 0n,
          segmenterFeePct: 0
        },
        outTransferFee: 0n,
        simulatedComputeUnits: 60_000
      }
      return result
    })

    const swap = Effect.fn("Market.swap")(function*(request: Trade.SwapRequest) {
      const q = request.quoteResponse
      const { side, state } = yield* resolvePair(q.inputMint, q.outputMint)
      const trade = price(state, side, q.inAmount)
      if (trade.amountOut === 0n) return yield* reject(400, "amount is too small to trade")
      if (trade.amountOut < q.minOutAmount) {
        return yield* reject(
          400,
          `the price moved: the swap would give ${trade.amountOut}, below minOutAmount ${q.minOutAmount}; ask for a new quote`
        )
      }
      const user = request.userPublicKey as Address
      const instructions = yield* Effect.promise(() => tradeInstructions(trade, user))
      const life = yield* lifetime
      const built = yield* prepare(
        { format: "v0", feePayer: user, instructions, lifetime: life, signers: [state.pool], budget: budgets.swap },
        () => applyTrade(trade)
      )
      const result: Trade.SwapResult = {
        swapTransaction: built.base58,
        computeUnitLimit: budgets.swap.computeUnitLimit,
        lastValidBlockHeight: Number(life.lastValidBlockHeight),
        prioritizationFeeLamports: Number(
          (BigInt(budgets.swap.computeUnitLimit) * budgets.swap.priorityFee + 999_999n) / 1_000_000n
        )
      }
      return result
    })

    // ---- launch --------------------------------------------------------------------------

    const launch = Effect.fn("Market.launch")(function*(request: Launch.LaunchRequest) {
      const state = yield* token(request.tokenMint)
      if (state.launched) return yield* reject(400, `token ${request.tokenMint} has already launched`)
      if (request.configKey !== state.configKey) {
        return yield* reject(400, `configKey ${request.configKey} is not the config key of token ${request.tokenMint}`)
      }
      // only the creator the token was set up for may launch it
      if (request.wallet !== state.creator) {
        return yield* reject(400, `wallet ${request.wallet} is not the creator of token ${request.tokenMint}`)
      }
      const wallet = request.wallet as Address
      const mint = state.mint.address
      const instructions: Array<Instruction> = [
        Programs.createAccount(wallet, mint, ledger.minimumBalance(Programs.MINT_SIZE), Programs.MINT_SIZE, Programs.TOKEN_PROGRAM),
        Programs.initializeMint2(mint, state.decimals, state.pool.address),
        Programs.createAssociatedTokenIdempotent(wallet, state.poolVault, state.pool.address, mint),
        Programs.mintTo(mint, state.poolVault, state.pool.address, state.supply),
        Programs.memo(`feeshare:launch ${request.ipfs}`, [wallet])
      ]
      const initialBuy = BigInt(request.initialBuyLamports ?? 0)
      const fresh: TokenState = { ...state, tokenReserve: state.supply, solReserve: 0n, migrated: state.flow === "damm_v2_direct" }
      const buy = initialBuy > 0n ? price(fresh, "buy", initialBuy) : undefined
      if (buy !== undefined) {
        if (buy.amountOut === 0n) return yield* reject(400, "initialBuyLamports is too small to buy any token")
        instructions.push(...(yield* Effect.promise(() => tradeInstructions(buy, wallet))))
      }
      if (request.tipWallet !== undefined && request.tipLamports !== undefined && request.tipLamports > 0) {
        instructions.push(Programs.transferSol(wallet, request.tipWallet as Address, BigInt(request.tipLamports)))
      }
      const built = yield* prepare(
        { format: "v0", feePayer: wallet, instructions, lifetime: yield* lifetime, signers: [state.mint, state.pool] },
        () => {
          state.launched = true
          state.tokenReserve = state.supply
          state.migrated = state.flow === "damm_v2_direct"
          if (buy !== undefined) applyTrade({ ...buy, state })
        }
      )
      return built.base58
    })

    // ---- fee sharing ---------------------------------------------------------------------

    const lookupTableContents = (addresses: ReadonlyArray<string>) =>
      Effect.forEach(addresses, (table) =>
        Effect.gen(function*() {
          const account = yield* ledger.account(table)
          const contents = Option.flatMap(
            Option.filter(account, (a) => a.owner === Programs.ALT_PROGRAM),
            (a) => Option.fromNullable(Programs.lookupTableAddresses(a.data))
          )
          if (Option.isNone(contents)) return yield* reject(400, `lookup table ${table} does not exist on the ledger`)
          return [table as Address, contents.value] as const
        })).pipe(Effect.map((entries) => {
          const out: { [table: Address]: ReadonlyArray<Address> } = {}
          for (const [table, addresses] of entries) out[table] = addresses
          return out as AddressesByLookupTableAddress
        }))

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
        Programs.memo(`feeshare:update-config ${request.baseMint}`, [admin]),
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

    const partnerTokens = (partner: string) => [...tokens.values()].filter((t) => t.config.partner === partner)

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
              instructions: [Programs.transferSol(state.pool.address, vault.signer.address, amount, [state.mint.address])],
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
              Programs.memo("feeshare:partner-claim", [partner])
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

    // ---- claims --------------------------------------------------------------------------

    const unclaimed = (share: Share | undefined) => (share === undefined ? 0n : share.dbc + share.damm)

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

    const deployerTokens = (deployer: string) => [...tokens.values()].filter((t) => t.creator === deployer)

    const vaultView = (kind: "partner" | "deployer", wallet: string, vault: AggregateVault, amount: bigint): Claims.AggregateVault => ({
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

    // ---- analytics -----------------------------------------------------------------------

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

    // ---- setup (sandbox-only) -------------------------------------------------------------

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
      const label = (name: string) => `token/${index}/${name}`
      const mint = yield* signer(label("mint"))
      const pool = yield* signer(label("pool"))
      const decimals = input.decimals ?? economics.decimals
      const supply = economics.supplyTokens * 10n ** BigInt(decimals)
      const state: TokenState = {
        index,
        mint,
        pool,
        poolVault: yield* Effect.promise(() => Programs.associatedTokenAddress(pool.address, mint.address)),
        configKey: (yield* signer(label("config"))).address,
        dbcPool: (yield* signer(label("dbc-pool"))).address,
        dammPool: (yield* signer(label("damm-pool"))).address,
        dammPosition: {
          position: (yield* signer(label("damm-position"))).address,
          pool: (yield* signer(label("damm-pool"))).address,
          positionNftAccount: (yield* signer(label("damm-position-nft"))).address,
          tokenAMint: mint.address,
          tokenBMint: Programs.NATIVE_MINT,
          tokenAVault: (yield* signer(label("damm-vault-a"))).address,
          tokenBVault: (yield* signer(label("damm-vault-b"))).address
        },
        creator: input.creator,
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
          customFeeVault: null
        },
        shares: new Map()
      }
      yield* fundRent("pool authority", pool.address)
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
        customFeeVault: input.customFeeVault === true ? (yield* signer(`token/${state.index}/custom-fee-vault`)).address : null
      }
      return configView(state)
    }, setupLock.withPermits(1))

    const createHolding = Effect.fn("Market.createHolding")(function*(input: typeof CreateHoldingInput.Type) {
      const state = yield* token(input.mint)
      if (input.lamports === 0n) return yield* reject(400, "lamports must be greater than 0")
      if (input.lamports > Ledger.maxAirdropLamports) {
        return yield* reject(400, `lamports must be at most ${Ledger.maxAirdropLamports} (1,000,000 SOL) per holding`)
      }
      const quote = yield* quoteOf(input.quoteMint)
      const key = `${state.mint.address}/${quote.mint}`
      const holding: Holding = holdings.get(key) ?? {
        tokenMint: state.mint.address,
        quote,
        // wrapped SOL keeps the authority it always had; another quote mint has its own
        authority: yield* signer(
          quote === wrappedSol ? `token/${state.index}/holding-authority` : `token/${state.index}/holding-authority/${quote.mint}`
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
        return yield* reject(400, `mint: ${input.mint} is not the sandbox's Token-2022 quote mint ${extended.quote.mint}`)
      }
      yield* submitAs2022Authority(
        `set the transfer fee of ${input.mint}`,
        [Programs.setTransferFee(extended.quote.mint, extended.authority.address, input.basisPoints, input.maximumFeeRaw)]
      )
      // Token-2022 applies the new schedule two epochs after the current one: those epochs pass now
      yield* ledger.advanceEpochs(2)
      return yield* quoteMintView(extended.quote)
    }, setupLock.withPermits(1))

    const airdrop = Effect.fn("Market.airdrop")(function*(input: typeof AirdropInput.Type) {
      if (input.lamports === 0n) return yield* reject(400, "lamports must be greater than 0")
      const signature = yield* fund(input.address, input.lamports)
      const result: typeof AirdropResult.Type = { signature, balance: yield* ledger.balance(input.address) }
      return result
    })

    const clockView = (clock: Ledger.ClockState): typeof ClockView.Type => ({
      slot: clock.slot,
      blockHeight: clock.blockHeight,
      blockhash: clock.blockhash
    })

    const advanceSlots = (input: typeof AdvanceSlotsInput.Type) => Effect.map(ledger.advance(input.slots), clockView)

    const state = Effect.map(Effect.zip(ledger.clock, quoteMints), ([clock, quoteMintViews]): typeof LedgerState.Type => ({
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
          claimers: t.config.claimers.map((c) => ({ wallet: c.wallet, bps: c.bps }))
        },
        shares: [...t.shares].map(([wallet, s]) => ({
          wallet,
          unclaimed: (s.dbc + s.damm).toString(),
          claimed: s.claimed.toString()
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
    }))

    const service: Market.Service = {
      createPlan,
      positions,
      vaults,
      updateConfig,
      partnerClaim,
      adminList,
      launch,
      quote,
      swap,
      lifetimeFees,
      claimStats,
      pools,
      createToken,
      createFeeShareConfig,
      createHolding,
      airdrop,
      advanceSlots,
      quoteMints,
      setTransferFee,
      state
    }
    return service
  })

/**
 * The market as a layer; it needs the `Ledger`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Pick<Options, "seed">): Layer.Layer<Market, never, Ledger.Ledger> =>
  Layer.effect(Market, make(options))

/**
 * The market with its own ledger: provides both `Market` and `Ledger` (mount `Rpc.router`
 * on the same `Ledger`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithLedger = (options: Options): Layer.Layer<Market | Ledger.Ledger> =>
  layer(options).pipe(Layer.provideMerge(Ledger.layer(options)))
