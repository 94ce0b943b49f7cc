/**
 * SPEC-shaped values for every operation (program-side types; the servers encode them with
 * the domain's schemas), and a real Ed25519 signer.
 */
import type {
  Analytics,
  ClaimEvents,
  Claims,
  ClaimTransactions,
  Evm,
  FeeShare,
  Identity,
  LaunchWallet,
  Plan,
  TokenInfo,
  Trade
} from "@feeshare/domain"
import { PublicKey, Signer } from "@feeshare/domain"
import { Effect } from "effect"
import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto"

/** A deterministic public key. */
export const key = (seed: number): string => PublicKey.fromBytes(new Uint8Array(32).fill(seed))

export const wallet = key(1)
export const tokenMint = key(2)
export const quoteMint = key(3)
export const otherWallet = key(4)
export const configKey = key(5)
export const blockhash = key(6)
export const tokenProgram = key(7)

/** Base58 text of some bytes (a stand-in serialized transaction). */
export const base58Transaction = PublicKey.base58.encode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))

const stage = (id: string, dependsOn: ReadonlyArray<string>): Plan.Stage => ({
  id,
  kind: id === "setup" ? "lookup_table_setup" : "claim",
  dependsOn,
  format: "v1",
  encoding: "base64",
  transaction: "AQIDBAU=",
  messageSha256: "ab".repeat(32),
  requiredSigners: [wallet],
  lifetime: { blockhash, lastValidBlockHeight: 123_456n },
  budget: {
    computeUnitLimit: 200_000,
    loadedAccountsDataSizeLimit: 65_536,
    priorityFee: { unit: "total_lamports", amount: 5_000n }
  },
  size: { bytes: 512, accounts: 12, signatures: 1 }
})

export const claimPlanRequest: Claims.ClaimPlanRequest = {
  feeClaimer: wallet,
  tokenMint,
  source: { kind: "pool", protocol: "damm_v2", pool: key(8) },
  transactionFormat: "v1",
  feeLimits: [{
    asset: { mint: quoteMint, tokenProgram },
    basisPoints: 250,
    maximumFeeRaw: 18_446_744_073_709_551_615n
  }]
}

export const plan: Plan.TransactionPlan = {
  contractVersion: 1,
  operation: { kind: "position_claim", baseMint: tokenMint, wallet },
  asset: { mint: quoteMint, tokenProgram, decimals: 9 },
  feeLimits: [{ asset: { mint: quoteMint, tokenProgram }, basisPoints: 250, maximumFeeRaw: 1_000n }],
  transactions: [stage("setup", []), stage("claim", ["setup"])],
  readiness: { status: "ready" }
}

export const positions: ReadonlyArray<Claims.ClaimablePosition> = [
  {
    isCustomFeeVault: true,
    baseMint: tokenMint,
    isMigrated: true,
    totalClaimableLamportsUserShare: 1_500_000,
    quoteMint,
    dammPoolAddress: key(9),
    dammPositionInfo: {
      position: key(10),
      pool: key(9),
      positionNftAccount: key(11),
      tokenAMint: tokenMint,
      tokenBMint: quoteMint,
      tokenAVault: key(12),
      tokenBVault: key(13)
    },
    user: null,
    customFeeVaultClaimerSide: "A"
  },
  { isCustomFeeVault: false, baseMint: key(14), isMigrated: false, totalClaimableLamportsUserShare: 0 }
]

export const vaults: typeof Claims.VaultClaimables.Type = {
  vaults: [{
    kind: "partner",
    wallet,
    quoteMint,
    quoteDecimals: 9,
    vaultAta: key(15),
    claimableAmount: 123_456_789_012n,
    claimableDisplayAmount: 123.456789012
  }]
}

export const updateConfigRequest: FeeShare.UpdateConfigRequest = {
  baseMint: tokenMint,
  basisPointsArray: [6000, 3000, 1000],
  claimersArray: [wallet, otherWallet, key(16)],
  payer: wallet
}

export const vaultClaim: ClaimTransactions.VaultClaim = {
  transaction: base58Transaction,
  claimable: vaults.vaults[0]!
}

export const deployerPositions: ClaimTransactions.DeployerPositions = {
  wallet,
  quoteMint,
  vault: key(16),
  vaultBalance: 12_000n,
  residual: 5n,
  tokens: [{ tokenMint, dbcPending: 0n, dammPending: 3_000n }]
}

export const deployerBatch: ClaimTransactions.DeployerClaimBatch = {
  transactions: [{ blockhash: { blockhash, lastValidBlockHeight: 1_000 }, transaction: base58Transaction }],
  deferredClaims: [],
  remainingTokenMints: []
}

export const v3Claim: ClaimTransactions.V3ClaimTransactions = [
  { tx: base58Transaction, blockhash: { blockhash, lastValidBlockHeight: 1_000 } }
]

export const transactionEntries: FeeShare.TransactionEntries = {
  transactions: [
    { blockhash: { blockhash, lastValidBlockHeight: 1_000 }, transaction: base58Transaction },
    { blockhash: { blockhash, lastValidBlockHeight: 1_000 }, transaction: base58Transaction }
  ]
}

export const createConfigRequest: FeeShare.CreateConfigRequest = {
  payer: wallet,
  baseMint: tokenMint,
  claimersArray: [wallet, otherWallet, key(16)],
  basisPointsArray: [6000, 3000, 1000]
}

export const createConfigAnswer: FeeShare.CreateConfigAnswer = {
  needsCreation: true,
  feeShareAuthority: key(18),
  meteoraConfigKey: key(19),
  transactions: transactionEntries.transactions,
  bundles: null
}

export const adminTokens: typeof FeeShare.AdminTokens.Type = { tokenMints: [tokenMint, key(17)] }

export const launchRequest = {
  ipfs: "ipfs://bafy-token-metadata",
  tokenMint,
  wallet,
  initialBuyLamports: 10_000_000,
  configKey,
  tipWallet: otherWallet,
  tipLamports: 5_000
}

export const quoteRequest: Trade.QuoteRequest = {
  inputMint: quoteMint,
  outputMint: tokenMint,
  amount: 1_000_000_000n,
  slippageMode: "manual",
  slippageBps: 50
}

export const quote: Trade.TradeQuote = {
  requestId: "req-1",
  contextSlot: 321,
  inAmount: 1_000_000_000n,
  inputMint: quoteMint,
  outAmount: 987_654_321n,
  outputMint: tokenMint,
  minOutAmount: 982_716_049n,
  otherAmountThreshold: 982_716_049n,
  priceImpactPct: "0.0012",
  slippageBps: 50,
  routePlan: [{
    venue: "damm_v2",
    inAmount: 1_000_000_000n,
    outAmount: 987_654_321n,
    inputMint: quoteMint,
    outputMint: tokenMint,
    inputMintDecimals: 9,
    outputMintDecimals: 6,
    marketKey: key(18),
    data: "opaque"
  }],
  platformFee: null,
  // a field the client does not know: it must travel back to swap unchanged
  routeHint: { hops: 1, cached: true }
}

export const swapResult: Trade.SwapResult = {
  swapTransaction: base58Transaction,
  computeUnitLimit: 250_000,
  lastValidBlockHeight: 1_150,
  prioritizationFeeLamports: 10_000
}

/** More than 2^53 lamports: only a bigint keeps it exact. */
export const lifetimeFees = 2n ** 60n + 7n

export const claimStats: ReadonlyArray<Analytics.ClaimStatistics> = [{
  username: "alice",
  pfp: "https://example.invalid/a.png",
  royaltyBps: 6000,
  isCreator: true,
  wallet,
  totalClaimed: 42_000_000n,
  provider: "social",
  providerUsername: "alice",
  socialUsername: "alice",
  isAdmin: true
}]

export const claimEvents: ClaimEvents.ClaimEvents = {
  events: [{
    wallet,
    isCreator: true,
    amount: 2n ** 60n + 3n,
    signature: "5".repeat(88),
    timestamp: new Date("2026-11-27T08:00:00.000Z")
  }]
}

export const pools: ReadonlyArray<Analytics.PoolEntry> = [
  { tokenMint, dbcConfigKey: configKey, dbcPoolKey: key(19), dammV2PoolKey: key(20) },
  { tokenMint: key(21), dbcConfigKey: null, dbcPoolKey: null, dammV2PoolKey: key(22) }
]

export const evmToken = "0x52908400098527886e0f7030069857d2e4169ee7"
export const evmBasket = "0xde709f2102306220921060314715629080e2fb77"
/** The same token twice (lower and upper case) and a basket token. */
export const evmAddresses = [evmToken, evmToken.replace(/[a-f]/g, (c) => c.toUpperCase()), evmBasket]

export const indexStatuses: ReadonlyArray<Evm.IndexTokenStatus> = [
  { tokenAddress: "0x52908400098527886E0F7030069857D2E4169EE7", isIndexToken: true, tokens: [evmBasket] },
  { tokenAddress: "0xde709f2102306220921060314715629080e2fb77", isIndexToken: false, tokens: [] }
]

export const evmOwner = "0x8617e340b3d01fa5f11f306f4090fd50e238070d"

const evmQuote = {
  address: "0x4200000000000000000000000000000000000006",
  symbol: "WETH",
  decimals: 18,
  isNative: false
}

export const evmPositions: typeof Evm.EvmPositions.Type = {
  positions: [{
    token: {
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      name: "Token",
      symbol: "TKN",
      metadataURI: "ipfs://meta",
      metadata: null,
      curve: "0x0000000000000000000000000000000000000001",
      feeShare: "0x0000000000000000000000000000000000000002",
      poolId: "0xpool",
      creator: evmOwner,
      partner: null,
      partnerFeeBps: 0,
      createdAtBlock: 100,
      createdAtTimestamp: 1_700_000_000,
      txHash: "0xhash",
      migrated: false,
      migratedAtBlock: null,
      migratedAtTimestamp: null,
      quote: evmQuote,
      fees: { buyFeeBps: 100, sellFeeBps: 100, protocolBuyFeeBps: 10, protocolSellFeeBps: 10 }
    },
    feeShare: "0x0000000000000000000000000000000000000002",
    version: "v3",
    claimableWei: 10n ** 18n,
    pendingWei: 5n,
    actionableWei: 10n ** 18n + 5n,
    claimedWei: 0n,
    lifetimeWei: 10n ** 18n,
    isClaimer: true,
    isPartner: false,
    userBps: 10_000,
    quote: evmQuote
  }],
  truncated: false
}

export const creationFee: typeof Evm.CreationFee.Type = { creationFeeWei: 3n * 10n ** 15n }

export const me: typeof Identity.Me.Type = {
  user: {
    uuid: "user-1",
    type: "developer",
    membership: { tier: "pro" },
    ticker: "ALICE",
    username: "alice",
    status: "active",
    pref_name: "Alice",
    picture: "https://example.invalid/alice.png",
    social_userID: "1234",
    registered_at: "2025-01-01T00:00:00Z",
    profile_views: 12,
    invites: 3,
    invited_by: null,
    social_data: {
      verified: true,
      followers_count: 10,
      following_count: 2,
      created_at: "2020-05-01T00:00:00Z",
      url: null
    },
    points: 40,
    rank: 7,
    referral_count: 1
  }
}

// ---------------------------------------------------------------------------
// a real Ed25519 wallet
// ---------------------------------------------------------------------------

const spkiPrefix = Buffer.from("302a300506032b6570032100", "hex")

/** A fresh Ed25519 wallet as the domain's `Signer` port, counting its signatures. */
export const makeSigner = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(spkiPrefix.length)
  let signatures = 0
  const service: Signer.Signer.Service = {
    publicKey: PublicKey.fromBytes(new Uint8Array(raw)),
    signMessage: (message) =>
      Effect.sync(() => {
        signatures++
        return new Uint8Array(sign(null, message, privateKey))
      })
  }
  return { service, signatures: () => signatures }
}

/** Verifies an Ed25519 signature by a base58 public key. */
export const verifySignature = (address: string, message: Uint8Array, signature: Uint8Array): boolean =>
  verify(
    null,
    message,
    createPublicKey({
      key: Buffer.concat([spkiPrefix, Buffer.from(PublicKey.toBytes(address))]),
      format: "der",
      type: "spki"
    }),
    signature
  )

export const tokenInfo: typeof TokenInfo.TokenInfo.Type = {
  tokenMint,
  tokenMetadata: "https://metadata.example/token.json",
  tokenLaunch: {
    name: "Fixture",
    symbol: "FIX",
    description: "A fixture token",
    image: "https://metadata.example/token.png",
    tokenMint,
    status: "PRE_LAUNCH",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    userId: null,
    telegram: null,
    social: null,
    website: null,
    launchWallet: null,
    launchSignature: null,
    uri: null
  }
}

const platformData = {
  id: "1",
  username: "fixture",
  display_name: "Fixture",
  avatar_url: "https://metadata.example/a.png"
}

export const launchWallet: typeof LaunchWallet.LaunchWallet.Type = {
  provider: "social",
  platformData,
  wallet: key(21),
  chain: "SOL"
}

export const bulkLaunchWallets = (items: ReadonlyArray<LaunchWallet.Lookup>): LaunchWallet.BulkLaunchWallets =>
  items.map((item) => ({
    username: item.username,
    provider: item.provider,
    platformData: null,
    wallet: null,
    chain: item.chain ?? "SOL"
  }))
