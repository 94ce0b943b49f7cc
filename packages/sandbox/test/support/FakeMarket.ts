/**
 * A small in-memory `Market` for the HTTP-level tests: canned answers that decode with the
 * domain's schemas, and a few wallets and mints that trigger each refusal.
 */
import type { Claims, Plan, Trade } from "@feeshare/domain"
import { fromBytes } from "@feeshare/domain/PublicKey"
import { Effect, Layer } from "effect"
import { Market, Rejection } from "../../src/Market.js"

export const key = (n: number): string => fromBytes(new Uint8Array(32).fill(n))

export const keys = {
  wallet: key(1),
  mint: key(2),
  quoteMint: key(3),
  config: key(4),
  partner: key(5),
  /** Nothing to claim: createPlan answers 400. */
  empty: key(6),
  /** Not the admin: updateConfig answers 403. */
  stranger: key(7),
  /** Unknown token: 404. */
  unknown: key(8),
  /** The market dies (a defect): 500. */
  boom: key(9),
  blockhash: key(10)
} as const

const base64Tx = Buffer.from(new Uint8Array(200).fill(7)).toString("base64")
const base58Tx = "5".repeat(120)

const stage = (id: string, dependsOn: ReadonlyArray<string>): Plan.Stage => ({
  id,
  kind: "claim",
  dependsOn,
  format: "v0",
  encoding: "base64",
  transaction: base64Tx,
  messageSha256: "ab".repeat(32),
  requiredSigners: [keys.wallet],
  lifetime: { blockhash: keys.blockhash, lastValidBlockHeight: 1150n },
  budget: {
    computeUnitLimit: 200_000,
    loadedAccountsDataSizeLimit: 65_536,
    priorityFee: { unit: "micro_lamports_per_compute_unit", amount: 1000n }
  },
  size: { bytes: 200, accounts: 5, signatures: 1 }
})

export const plan: Plan.TransactionPlan = {
  contractVersion: 1,
  operation: { kind: "position_claim", baseMint: keys.mint, wallet: keys.wallet },
  asset: { mint: keys.quoteMint, tokenProgram: key(11), decimals: 9 },
  feeLimits: [],
  transactions: [stage("claim-1", []), stage("claim-2", ["claim-1"])],
  readiness: { status: "ready" }
}

export const quote: Trade.TradeQuote = {
  requestId: "q-1",
  contextSlot: 42,
  inAmount: 1_000_000n,
  inputMint: keys.quoteMint,
  outAmount: 990_000n,
  outputMint: keys.mint,
  minOutAmount: 985_000n,
  otherAmountThreshold: 985_000n,
  priceImpactPct: "0.01",
  slippageBps: 50,
  routePlan: [],
  platformFee: null
}

/** Lifetime fees above 2^53, to check that the amount survives as a decimal string. */
export const lifetimeFees = 2n ** 60n + 7n

const refuse = (status: 400 | 403 | 404 | 500, message: string) => Effect.fail(new Rejection({ status, message }))

const tokenCheck = (mint: string): Effect.Effect<void, Rejection> =>
  mint === keys.unknown
    ? refuse(404, `Token ${mint} not found`)
    : mint === keys.boom
    ? Effect.die(new Error("ledger exploded: secret internals"))
    : Effect.void

const entries = {
  transactions: [{ blockhash: { blockhash: keys.blockhash, lastValidBlockHeight: 1150 }, transaction: base58Tx }]
}

const position: Claims.ClaimablePosition = {
  isCustomFeeVault: false,
  baseMint: keys.mint,
  isMigrated: false,
  totalClaimableLamportsUserShare: 1_500_000,
  quoteMint: keys.quoteMint,
  userBps: 5000
}

const notHere = () => refuse(404, "the fake market has no token info or handles")

export const layer = Layer.succeed(Market, {
  createTokenInfo: notHere,
  tokenMetadata: notHere,
  tokenImage: notHere,
  lookupWallet: notHere,
  lookupWallets: notHere,
  registerHandle: notHere,
  claimVault: () => refuse(400, "Nothing to claim"),
  deployerPositions: notHere,
  deployerClaim: () => refuse(400, "Nothing to claim"),
  claimV3: () => refuse(400, "Nothing to claim"),
  createPlan: (request) =>
    request.feeClaimer === keys.empty
      ? refuse(400, "Nothing to claim")
      : Effect.as(tokenCheck(request.tokenMint), plan),
  positions: () => Effect.succeed([position]),
  vaults: (wallet) =>
    Effect.succeed({
      vaults: [{
        kind: "partner" as const,
        wallet,
        quoteMint: keys.quoteMint,
        quoteDecimals: 9,
        vaultAta: key(12),
        claimableAmount: 5_000n,
        claimableDisplayAmount: 0.000005
      }]
    }),
  createConfig: (request) =>
    Effect.as(tokenCheck(request.baseMint), {
      needsCreation: true,
      feeShareAuthority: keys.partner,
      meteoraConfigKey: keys.config,
      transactions: entries.transactions,
      bundles: null
    }),
  updateConfig: (request) =>
    request.payer === keys.stranger
      ? refuse(403, "Only the fee-share admin can update the config")
      : Effect.as(tokenCheck(request.baseMint), entries),
  partnerClaim: () => Effect.succeed(entries),
  adminList: () => Effect.succeed({ tokenMints: [keys.mint] }),
  launch: (request) => Effect.as(tokenCheck(request.tokenMint), base58Tx),
  quote: (request) => Effect.as(tokenCheck(request.outputMint), quote),
  swap: () =>
    Effect.succeed({
      swapTransaction: base58Tx,
      computeUnitLimit: 200_000,
      lastValidBlockHeight: 1150,
      prioritizationFeeLamports: 5000
    }),
  lifetimeFees: (mint) => Effect.as(tokenCheck(mint), lifetimeFees),
  claimStats: (mint) =>
    Effect.as(tokenCheck(mint), [{
      username: "",
      pfp: "",
      royaltyBps: 10_000,
      isCreator: true,
      wallet: keys.wallet,
      totalClaimed: 12_345n,
      isAdmin: true,
      provider: null
    }]),
  claimEvents: (query) => Effect.as(tokenCheck(query.tokenMint), { events: [] }),
  pools: (onlyMigrated) =>
    Effect.succeed(
      [
        { tokenMint: keys.mint, dbcConfigKey: keys.config, dbcPoolKey: key(13), dammV2PoolKey: null },
        { tokenMint: key(14), dbcConfigKey: null, dbcPoolKey: null, dammV2PoolKey: key(15) }
      ].filter((pool) => !onlyMigrated || pool.dammV2PoolKey !== null)
    ),
  createToken: (input) =>
    Effect.succeed({
      mint: keys.mint,
      configKey: keys.config,
      quoteMint: input.quoteMint ?? keys.quoteMint,
      decimals: 9
    }),
  createFeeShareConfig: (input) =>
    Effect.succeed({
      mint: input.mint,
      admin: input.admin,
      partner: input.partner ?? null,
      claimers: input.claimers,
      customFeeVault: null
    }),
  createHolding: (input) =>
    Effect.succeed({
      mint: input.mint,
      claimer: input.claimer,
      authority: key(16),
      quoteMint: keys.quoteMint,
      held: input.lamports
    }),
  relayBundle: (input) =>
    Effect.succeed({
      landed: true,
      signatures: input.transactions.map((_, i) => `bundle-${i}`),
      slot: 1,
      failed: null
    }),
  airdrop: (input) => Effect.succeed({ signature: "airdrop-1", balance: input.lamports }),
  advanceSlots: (input) =>
    Effect.succeed({ slot: BigInt(input.slots), blockHeight: BigInt(input.slots), blockhash: keys.blockhash }),
  quoteMints: Effect.succeed([]),
  setTransferFee: (input) =>
    Effect.succeed({
      mint: input.mint,
      tokenProgram: keys.quoteMint,
      decimals: 6,
      authority: null,
      epoch: 2n,
      transferFee: { basisPoints: input.basisPoints, maximumFeeRaw: input.maximumFeeRaw, epoch: 2n },
      scheduledTransferFee: null,
      withheldInMint: 0n
    }),
  state: Effect.succeed({
    clock: { slot: 1n, blockHeight: 1n, blockhash: keys.blockhash },
    tokens: []
  })
})
