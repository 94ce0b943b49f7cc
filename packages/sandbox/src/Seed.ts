/**
 * Something to look at: a sandbox filled with launched tokens (one migrated to DAMM v2, one on
 * its bonding curve, one not launched yet), fee shares with several claimers and a partner,
 * trades that accrued fees, a deployer vault, a holding, and a demo wallet with claimable
 * positions whose key the caller can write out, so that `feeshare claims claim` works at once.
 *
 * Everything goes through the market and lands on the ledger as real transactions, signed by
 * keys derived from the seed: the same seed gives the same tokens and wallets.
 *
 * @since 0.1.0
 */
import { Launch } from "@feeshare/domain"
import {
  generateKeyPairSigner,
  getBase58Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction
} from "@solana/kit"
import { Effect, Redacted, Schema } from "effect"
import { rmSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { derivedSecret, deriveSigner } from "./internal/model/keys.js"
import { NATIVE_MINT } from "./internal/model/programs.js"
import { Ledger } from "./Ledger.js"
import { Market, type Rejection } from "./Market.js"

/**
 * Seeding failed: the step and why (a bug of the seeding, or a ledger refusal).
 *
 * @since 0.1.0
 * @category errors
 */
export class SeedFailed extends Schema.TaggedError<SeedFailed>()("SeedFailed", {
  step: Schema.String,
  message: Schema.String
}) {}

/**
 * A seeded token.
 *
 * @since 0.1.0
 * @category models
 */
export interface SeededToken {
  readonly symbol: string
  readonly mint: string
  readonly launched: boolean
  readonly migrated: boolean
}

/**
 * What seeding created.
 *
 * @since 0.1.0
 * @category models
 */
export interface Seeded {
  /** The demo wallet: a claimer of every launched token, and the creator of the migrated one. */
  readonly demoWallet: string
  /** Its solana-keygen file content (a JSON array of the 64 secret and public key bytes). */
  readonly demoKeygen: Redacted.Redacted<string>
  readonly tokens: ReadonlyArray<SeededToken>
}

const SOL = 1_000_000_000n

const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()
const base58 = getBase58Encoder()

/** Maps a market refusal to `SeedFailed` naming the step. */
const step = <A>(name: string, effect: Effect.Effect<A, Rejection | SeedFailed>) =>
  Effect.mapError(
    effect,
    (error) => error._tag === "SeedFailed" ? error : new SeedFailed({ step: name, message: error.message })
  )

/** Co-signs base58 wire text and lands it. */
const land = (name: string, text: string, signers: ReadonlyArray<KeyPairSigner>) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger
    const signed = yield* Effect.promise(() =>
      partiallySignTransaction(signers.map((s) => s.keyPair), transactionDecoder.decode(base58.encode(text)))
    )
    yield* Effect.mapError(
      ledger.send(new Uint8Array(transactionEncoder.encode(signed))),
      (error) => new SeedFailed({ step: name, message: error.message })
    )
  })

/** Buys `lamports` of SOL worth of `mint` for `trader`, through the market's quote and swap. */
const buy = (name: string, trader: KeyPairSigner, mint: string, lamports: bigint) =>
  Effect.gen(function*() {
    const market = yield* Market
    const quote = yield* step(name, market.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: lamports }))
    const swap = yield* step(name, market.swap({ quoteResponse: quote, userPublicKey: trader.address }))
    yield* land(name, swap.swapTransaction, [trader])
  })

/**
 * What `feeShareToken` sets up: a token, its fee share and its trades.
 *
 * @since 0.1.0
 * @category models
 */
export interface FeeShareTokenOptions {
  readonly symbol: string
  readonly name?: string
  /** Creates and launches the token (signs the launch); a fresh key, funded here, when absent. */
  readonly creator?: KeyPairSigner
  /** The fee-share admin; the creator when absent. */
  readonly admin?: string
  readonly partner?: string
  /** Basis points per claimer, summing to 10,000. */
  readonly claimers: ReadonlyArray<{ readonly wallet: string; readonly bps: number }>
  /** The creator's buy in the launch transaction, in lamports. */
  readonly initialBuyLamports?: number
  /** Buys after the launch, in order: each accrues fees to the claimers (the creator buys when no trader is named). */
  readonly buys?: ReadonlyArray<{ readonly lamports: bigint; readonly trader?: KeyPairSigner }>
}

/**
 * A launched token with its fee share, traded so that its claimers are owed: the seed's
 * tokens are made with it, and so are tests' own tokens. Every step is a real transaction.
 *
 * @since 0.1.0
 * @category constructors
 */
export const feeShareToken = Effect.fn("Seed.feeShareToken")(function*(options: FeeShareTokenOptions) {
  const market = yield* Market
  const { symbol } = options
  const creator = options.creator ?? (yield* Effect.promise(() => generateKeyPairSigner()))
  if (options.creator === undefined) {
    yield* step(`fund the creator of ${symbol}`, market.airdrop({ address: creator.address, lamports: 100n * SOL }))
  }
  const token = yield* step(
    `create ${symbol}`,
    market.createToken({ creator: creator.address, symbol, name: options.name ?? symbol })
  )
  yield* step(
    `fee share ${symbol}`,
    market.createFeeShareConfig({
      mint: token.mint,
      admin: options.admin ?? creator.address,
      claimers: options.claimers,
      ...(options.partner === undefined ? {} : { partner: options.partner })
    })
  )
  const request = Schema.decodeUnknownSync(Launch.LaunchRequest)({
    ipfs: `ipfs://feeshare-sandbox/${symbol.toLowerCase()}`,
    tokenMint: token.mint,
    wallet: creator.address,
    configKey: token.configKey,
    initialBuyLamports: options.initialBuyLamports ?? 0
  })
  yield* land(`launch ${symbol}`, yield* step(`launch ${symbol}`, market.launch(request)), [creator])
  for (const [i, { lamports, trader }] of (options.buys ?? []).entries()) {
    yield* buy(`buy ${symbol} ${i + 1}`, trader ?? creator, token.mint, lamports)
  }
  return token
})

/**
 * Fills the market (see the module description). Run it once, on a fresh sandbox.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.fn("Seed.make")(function*(seed: string) {
  const market = yield* Market
  const key = (label: string) => Effect.promise(() => deriveSigner(seed, `seed/${label}`))

  const demo = yield* key("demo-wallet")
  const [creator, claimerB, claimerC, partner, trader1, trader2] = yield* Effect.all([
    key("creator"),
    key("claimer-b"),
    key("claimer-c"),
    key("partner"),
    key("trader-1"),
    key("trader-2")
  ])
  for (
    const [name, wallet, lamports] of [
      ["demo", demo, 20n * SOL],
      ["creator", creator, 20n * SOL],
      ["trader-1", trader1, 100n * SOL],
      ["trader-2", trader2, 100n * SOL]
    ] as const
  ) {
    yield* step(`airdrop ${name}`, market.airdrop({ address: wallet.address, lamports }))
  }

  // DEMO: created by the demo wallet, three claimers and a partner, traded past migration
  const demoToken = yield* feeShareToken({
    symbol: "DEMO",
    name: "Demo Token",
    creator: demo,
    partner: partner.address,
    claimers: [
      { wallet: demo.address, bps: 5_000 },
      { wallet: claimerB.address, bps: 3_000 },
      { wallet: claimerC.address, bps: 2_000 }
    ],
    initialBuyLamports: Number(SOL),
    buys: [
      { trader: trader1, lamports: 3n * SOL },
      { trader: trader2, lamports: 2n * SOL },
      // past migration
      { trader: trader1, lamports: 2n * SOL }
    ]
  })

  // ALPHA: another creator, the demo wallet holds 40%, on its bonding curve
  const alpha = yield* feeShareToken({
    symbol: "ALPHA",
    name: "Alpha",
    creator,
    claimers: [{ wallet: creator.address, bps: 6_000 }, { wallet: demo.address, bps: 4_000 }],
    buys: [{ trader: trader2, lamports: SOL }, { trader: trader1, lamports: SOL / 2n }]
  })
  yield* step("holding ALPHA", market.createHolding({ mint: alpha.mint, claimer: demo.address, lamports: SOL / 4n }))

  // BETA: set up, not launched
  const beta = yield* step(
    "create BETA",
    market.createToken({ creator: creator.address, symbol: "BETA", name: "Beta" })
  )

  const state = yield* market.state
  const view = (symbol: string, mint: string): SeededToken => {
    const found = state.tokens.find((token) => token.mint === mint)
    return { symbol, mint, launched: found?.launched === true, migrated: found?.migrated === true }
  }
  const seeded: Seeded = {
    demoWallet: demo.address,
    demoKeygen: Redacted.make(
      JSON.stringify([...derivedSecret(seed, "seed/demo-wallet"), ...base58.encode(demo.address)])
    ),
    tokens: [view("DEMO", demoToken.mint), view("ALPHA", alpha.mint), view("BETA", beta.mint)]
  }
  return seeded
})

/** Signals whose default action ends the process: the keygen file goes with it. */
const endingSignals = ["SIGHUP", "SIGINT", "SIGTERM", "SIGQUIT"] as const

/**
 * Removes `path` when the process exits, however it exits: a normal exit (even one that skips
 * the scope's release), or a signal (SIGHUP too, which no runtime handles). A signal nobody
 * else listens to is raised again once the directory is gone, so the process still ends as
 * that signal ends it. The hooks go when the scope closes.
 */
const removedOnExit = (path: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const remove = () => rmSync(path, { recursive: true, force: true })
      const detach = () => {
        process.off("exit", remove)
        for (const signal of endingSignals) process.off(signal, onSignal)
      }
      const onSignal = (signal: NodeJS.Signals) => {
        remove()
        detach()
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
      }
      process.once("exit", remove)
      for (const signal of endingSignals) process.once(signal, onSignal)
      return detach
    }),
    (detach) => Effect.sync(detach)
  )

/**
 * Seeds the market and writes the demo wallet's keygen file (mode 0600) into a new temporary
 * directory, removed when the scope closes; answers what was seeded and the file's path.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeWithKeygenFile = Effect.fn("Seed.makeWithKeygenFile")(function*(seed: string) {
  const seeded = yield* make(seed)
  const failed = (step: string) => (error: unknown) =>
    new SeedFailed({ step, message: error instanceof Error ? error.message : String(error) })
  const directory = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => mkdtemp(join(tmpdir(), "feeshare-sandbox-")),
      catch: failed("create a temporary directory")
    }).pipe(Effect.tap((path) => removedOnExit(path))),
    (path) => Effect.promise(() => rm(path, { recursive: true, force: true }))
  )
  const path = join(directory, "demo-wallet.json")
  yield* Effect.tryPromise({
    try: () => writeFile(path, `${Redacted.value(seeded.demoKeygen)}\n`, { mode: 0o600, flag: "wx" }),
    catch: failed("write the demo keygen file")
  })
  return { ...seeded, keygenPath: path }
})
