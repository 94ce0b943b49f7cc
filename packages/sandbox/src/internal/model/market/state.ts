/**
 * The market's state: tokens, pools, shares, vaults, holdings, lookup tables and the
 * effects of built transactions pending by message hash (applied when the ledger reports
 * their message landed), and the helpers every area shares (keys, funding, building).
 */
import type { Claims } from "@feeshare/domain"
import * as BasisPoints from "@feeshare/domain/BasisPoints"
import * as FeeShare from "@feeshare/domain/FeeShare"
import * as RawAmount from "@feeshare/domain/RawAmount"
import * as Alt from "@feeshare/solana/LookupTable"
import { build, sizeLimit } from "@feeshare/solana/StageBuilder"
import type { BuildInput } from "@feeshare/solana/StageBuilder"
import type { Address, AddressesByLookupTableAddress, KeyPairSigner } from "@solana/kit"
import { Effect, Option } from "effect"
import { deriveSigner } from "../keys.js"
import type { Landed } from "../ledger/models.js"
import { Ledger } from "../ledger/service.js"
import type { Options } from "../options.js"
import * as Programs from "../programs.js"
import { economics, quoteMint2022 } from "./constants.js"
import { Rejection } from "./service.js"

export interface Claimer {
  readonly wallet: string
  readonly bps: number
}

export interface Config {
  admin: string
  partner: string | null
  claimers: ReadonlyArray<Claimer>
  /** A two-claimer custom fee vault (claimer A, then B) instead of the pool's own split. */
  customFeeVault: Address | null
  /**
   * The payer of a config made by config creation: it earns `FeeShare.deployerBps` of the gross
   * claimers pool, before the claimers' split (null for configs made otherwise).
   */
  deployer: string | null
}

/** A wallet's fees in one token: unclaimed by pool phase, and claimed in total. */
export interface Share {
  dbc: bigint
  damm: bigint
  claimed: bigint
}

export interface TokenState {
  readonly index: number
  readonly mint: KeyPairSigner
  readonly pool: KeyPairSigner
  readonly poolVault: Address
  readonly configKey: Address
  readonly dbcPool: Address
  readonly dammPool: Address
  /** The pool's DAMM v2 position after migration, as `dammPositionInfo` reports it. */
  readonly dammPosition: typeof Claims.DammPositionInfo.Type
  /**
   * The wallet that launches the token and is its deployer. A token made by token info has
   * none until its launch lands: then the launching wallet is recorded.
   */
  creator: string | null
  /** What the token-info operation stored (null for tokens of the set-up operation). */
  readonly info: StoredTokenInfo | null
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
  /** The config type of a config made by config creation, once its transactions landed; else null. */
  createdConfig: { readonly configType: string; readonly payer: string } | null
  readonly shares: Map<string, Share>
  /** Every landed claim of the token's fees, oldest first (the claim-events operation's source). */
  readonly claimEvents: Array<ClaimRecord>
}

/** A landed claim: who, whether the token's creator, how much (raw), its signature, when. */
export interface ClaimRecord {
  readonly wallet: string
  readonly isCreator: boolean
  readonly amount: bigint
  readonly signature: string
  /** Unix seconds. */
  readonly blockTime: number
}

/** The token info of a token made by the token-info operation, and its media. */
export interface StoredTokenInfo {
  readonly description: string
  /** The image as served at the sandbox's media URL, or null when an image URL was given. */
  readonly image: { readonly bytes: Uint8Array; readonly contentType: string } | null
  /** The image URL the metadata names: the given one, or the sandbox's media URL. */
  readonly imageUrl: string
  /** The metadata URL: the given one, or the sandbox's media URL. */
  readonly metadataUrl: string
  readonly telegram: string | null
  readonly social: string | null
  readonly website: string | null
  readonly createdAt: string
  updatedAt: string
  launchWallet: string | null
  launchSignature: string | null
}

/** A partner's or a deployer's aggregate vault (wrapped SOL, the only quote mint). */
export interface AggregateVault {
  readonly signer: KeyPairSigner
  balance: bigint
  claimed: bigint
}

/** A quote mint: the asset a payout moves. */
export interface Quote {
  readonly mint: Address
  readonly tokenProgram: Address
  readonly decimals: number
}

export const wrappedSol: Quote = { mint: Programs.NATIVE_MINT, tokenProgram: Programs.TOKEN_PROGRAM, decimals: 9 }

/** Balances a token's holding-vault authority holds for claimers in one quote mint. */
export interface Holding {
  readonly tokenMint: string
  readonly quote: Quote
  readonly authority: KeyPairSigner
  readonly balances: Map<string, { held: bigint; claimed: bigint }>
}

export interface LookupTable {
  readonly address: Address
  readonly addresses: ReadonlyArray<Address>
  extended: boolean
  extendedSlot: bigint
}

export interface Pending {
  readonly lastValidBlockHeight: bigint
  readonly apply: (landed: Landed) => void
}

/** Records a landed claim of `amount` by `wallet` among the token's claim events. */
export const recordClaim = (state: TokenState, wallet: string, amount: bigint, landed: Landed) => {
  state.claimEvents.push({
    wallet,
    isCreator: state.creator === wallet,
    amount,
    signature: landed.signature,
    blockTime: landed.blockTime
  })
}

export const reject = (status: 400 | 403 | 404 | 500, message: string) => new Rejection({ status, message })

export const sum = (values: Iterable<bigint>): bigint => {
  let total = 0n
  for (const value of values) total += value
  return total
}

export const display = (amount: bigint, decimals: number): number => Number(RawAmount.format(amount, decimals))

/** The state of one market and its shared helpers, over the `Ledger`. */
export const make = (options: Pick<Options, "seed">) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger
    const seed = options.seed
    const tokens = new Map<string, TokenState>()
    const partnerVaults = new Map<string, AggregateVault>()
    const deployerVaults = new Map<string, AggregateVault>()
    const holdings = new Map<string, Holding>()
    const tables = new Map<string, LookupTable>()
    const pending = new Map<string, Pending>()

    yield* ledger.onLanded((landed) =>
      Effect.sync(() => {
        const entry = pending.get(landed.messageSha256)
        if (entry === undefined) return
        pending.delete(landed.messageSha256)
        if (landed.err === null) entry.apply(landed)
      })
    )

    const signer = (label: string) => Effect.promise(() => deriveSigner(seed, label))

    /** The keys of the token with this index (the mint's keypair stays with the sandbox). */
    const tokenKeys = (index: number) =>
      Effect.gen(function*() {
        const label = (name: string) => `token/${index}/${name}`
        const mint = yield* signer(label("mint"))
        const pool = yield* signer(label("pool"))
        return {
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
          }
        }
      })
    const rentExempt = ledger.minimumBalance(0)

    // the Token-2022 quote mint, created now so that it is on the ledger from the start
    const extended = yield* Effect.gen(function*() {
      const mint = yield* signer(quoteMint2022.mintLabel)
      const authority = yield* signer(quoteMint2022.authorityLabel)
      yield* ledger.airdrop(authority.address, 10n * 1_000_000_000n)
      const size = Programs.TRANSFER_FEE_MINT_SIZE
      yield* ledger.submit([
        Programs.createAccount(
          authority.address,
          mint.address,
          ledger.minimumBalance(size),
          size,
          Programs.TOKEN_2022_PROGRAM
        ),
        Programs.initializeTransferFeeConfig(
          mint.address,
          authority.address,
          authority.address,
          quoteMint2022.basisPoints,
          quoteMint2022.maximumFee
        ),
        Programs.initializeMint2(mint.address, quoteMint2022.decimals, authority.address, Programs.TOKEN_2022_PROGRAM)
      ], [authority, mint])
      const quote: Quote = {
        mint: mint.address,
        tokenProgram: Programs.TOKEN_2022_PROGRAM,
        decimals: quoteMint2022.decimals
      }
      return { quote, authority }
    }).pipe(Effect.orDie)

    const lifetime = Effect.map(ledger.clock, (clock) => ({
      blockhash: clock.blockhash,
      lastValidBlockHeight: clock.lastValidBlockHeight
    }))

    /** Builds and signs a transaction, and records what its landing does. */
    const prepare = (input: BuildInput, apply: ((landed: Landed) => void) | undefined) =>
      Effect.gen(function*() {
        const built = yield* Effect.tryPromise({
          try: () => build(input),
          catch: (error) =>
            reject(500, `could not build the transaction: ${error instanceof Error ? error.message : String(error)}`)
        })
        if (built.size.bytes > sizeLimit(input.format)) {
          return yield* reject(
            400,
            `the transaction would take ${built.size.bytes} bytes, over the ${sizeLimit(input.format)}-byte limit`
          )
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
      const pool = fee - partnerShare - deployerShare
      const configDeployer = state.config.deployer
      const configDeployerShare = configDeployer === null ? 0n : (pool * BigInt(FeeShare.deployerBps)) / 10_000n
      if (configDeployer !== null) {
        const share = shareOf(state, configDeployer)
        if (state.migrated) {
          share.damm += configDeployerShare
        } else share.dbc += configDeployerShare
      }
      const parts = BasisPoints.split(
        pool - configDeployerShare,
        state.config.claimers.map((c) =>
          c.bps
        )
      )
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
          (error) =>
            reject(400, `could not fund the ${role} ${address} for rent: ${error.message}`)
        ))

    /**
     * The aggregate vault of a partner or a deployer (one per wallet and quote mint), funded
     * for rent. A new vault is not recorded: the caller records it once its whole set-up
     * succeeded.
     */
    const fundedVault = (kind: "partner" | "deployer", wallet: string) =>
      Effect.gen(function*() {
        const existing = (kind === "partner" ? partnerVaults : deployerVaults).get(wallet)
        if (existing !== undefined) {
          return existing
        }
        const vault: AggregateVault = {
          signer: yield* signer(`${kind}/${wallet}/${Programs.NATIVE_MINT}`),
          balance: 0n,
          claimed: 0n
        }
        yield* fundRent(`${kind} vault`, vault.signer.address)
        return vault
      })

    const lookupTableContents = (addresses: ReadonlyArray<string>) =>
      Effect.forEach(addresses, (table) =>
        Effect.gen(function*() {
          const account = yield* ledger.account(table)
          const contents = Option.flatMap(
            Option.filter(account, (a) =>
              a.owner === Alt.programAddress),
            (a) => Option.fromNullable(Alt.addressesOf(a.data))
          )
          if (Option.isNone(contents)) return yield* reject(400, `lookup table ${table} does not exist on the ledger`)
          return [table as Address, contents.value] as const
        })).pipe(Effect.map((entries) => {
          const out: { [table: Address]: ReadonlyArray<Address> } = {}
          for (const [table, addresses] of entries) out[table] = addresses
          return out as AddressesByLookupTableAddress
        }))

    const partnerTokens = (partner: string) => [...tokens.values()].filter((t) => t.config.partner === partner)

    const unclaimed = (share: Share | undefined) => (share === undefined ? 0n : share.dbc + share.damm)

    const deployerTokens = (deployer: string) => [...tokens.values()].filter((t) => t.creator === deployer)

    return {
      ledger,
      seed,
      tokens,
      partnerVaults,
      deployerVaults,
      holdings,
      tables,
      signer,
      tokenKeys,
      rentExempt,
      extended,
      lifetime,
      prepare,
      token,
      launchFound,
      launched,
      shareOf,
      accrue,
      fund,
      fundRent,
      fundedVault,
      lookupTableContents,
      partnerTokens,
      unclaimed,
      deployerTokens
    }
  })

/** The state of one market. */
export type MarketState = Effect.Effect.Success<ReturnType<typeof make>>
