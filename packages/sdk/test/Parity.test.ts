// Facade parity: every method of the Promise facade returns what the Effect client returns,
// on a sandbox whose block clock is frozen (so that two calls build the same transactions).
import { Api } from "@feeshare/domain"
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import { FeeShare, InvalidRequest, NotFound, Redacted, type TradeQuote } from "feeshare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, SOL, start } from "./support/sandbox.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"

let sandbox: Running
let feeshare: FeeShare
let creator: KeyPairSigner
let claimer: KeyPairSigner
let partner: KeyPairSigner
let mint: string
let unlaunched: { readonly mint: string; readonly configKey: string }
let evm: { readonly holder: string; readonly tokens: ReadonlyArray<string> }

beforeAll(async () => {
  sandbox = await start({ slotMillis: 0, seed: "sdk-parity" })
  ;[creator, claimer, partner] = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner()
  ])
  for (const wallet of [creator, claimer, partner]) {
    await sandbox.setup((s) => s.airdrop({ payload: { address: wallet.address, lamports: 20n * SOL } }))
  }
  // the clock is frozen: nothing ever gets past `processed`
  feeshare = new FeeShare({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    signer: creator,
    commitment: "processed",
    rpcPollInterval: "5 millis"
  })
  const token = await sandbox.setup((s) => s.createToken({ payload: { creator: creator.address } }))
  mint = token.mint
  await sandbox.setup((s) =>
    s.createFeeShareConfig({
      payload: {
        mint,
        admin: creator.address,
        partner: partner.address,
        claimers: [{ wallet: creator.address, bps: 6_000 }, { wallet: claimer.address, bps: 4_000 }]
      }
    })
  )
  const launch = await feeshare.launch.createTransaction({
    ipfs: "ipfs://parity",
    initialBuyLamports: 0,
    tokenMint: mint,
    wallet: creator.address,
    configKey: token.configKey
  })
  await feeshare.signAndSend.launch(launch, { mint })
  const quote = await feeshare.trade.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: 2n * SOL })
  await feeshare.signAndSend.swap(await feeshare.trade.swap({ quoteResponse: quote, userPublicKey: creator.address }))
  unlaunched = await sandbox.setup((s) => s.createToken({ payload: { creator: creator.address } }))
  const fixtures = await sandbox.setup((s) => s.evmFixtures())
  evm = {
    holder: fixtures.holder,
    tokens: [...fixtures.indexTokens.map((t) => t.address), ...fixtures.plainTokens]
  }
})

afterAll(async () => {
  await feeshare?.close()
  await sandbox?.close()
})

interface Case {
  /** The operation, as `Api.operationName` names it. */
  readonly operation: string
  readonly facade: () => Promise<unknown>
  readonly effect: () => Promise<unknown>
}

const cases: ReadonlyArray<Case> = [
  {
    operation: "claims.createPlan",
    facade: () => feeshare.claims.createPlan({ feeClaimer: claimer.address, tokenMint: mint, transactionFormat: "v1" }),
    effect: () =>
      sandbox.effect((c) =>
        c.claims.createPlan({ feeClaimer: claimer.address, tokenMint: mint, transactionFormat: "v1" })
      )
  },
  {
    operation: "claims.positions",
    facade: () => feeshare.claims.positions({ wallet: claimer.address }),
    effect: () => sandbox.effect((c) => c.claims.positions({ wallet: claimer.address }))
  },
  {
    operation: "claims.vaults",
    facade: () => feeshare.claims.vaults({ wallet: partner.address }),
    effect: () => sandbox.effect((c) => c.claims.vaults({ wallet: partner.address }))
  },
  {
    operation: "claims.claimVault",
    facade: () => feeshare.claims.claimVault({ kind: "partner", wallet: partner.address, quoteMint: NATIVE_MINT }),
    effect: () =>
      sandbox.effect((c) => c.claims.claimVault({ kind: "partner", wallet: partner.address, quoteMint: NATIVE_MINT }))
  },
  {
    operation: "claims.deployerPositions",
    facade: () => feeshare.claims.deployerPositions({ wallet: creator.address }),
    effect: () => sandbox.effect((c) => c.claims.deployerPositions({ wallet: creator.address }))
  },
  {
    operation: "claims.deployerClaim",
    // the token is on its curve: nothing is owed to the deployer, and both say so alike
    facade: () => feeshare.claims.deployerClaim({ wallet: creator.address }).catch(failureOf),
    effect: () =>
      sandbox.effect((c) => Effect.flip(c.claims.deployerClaim({ wallet: creator.address }))).then(failureOf)
  },
  {
    operation: "claims.claimV3",
    facade: () => feeshare.claims.claimV3({ feeClaimer: claimer.address, tokenMint: mint }),
    effect: () => sandbox.effect((c) => c.claims.claimV3({ feeClaimer: claimer.address, tokenMint: mint }))
  },
  {
    operation: "feeShare.createConfig",
    facade: () =>
      feeshare.feeShare.createConfig({
        payer: creator.address,
        baseMint: unlaunched.mint,
        claimersArray: [creator.address, claimer.address],
        basisPointsArray: [7_000, 3_000]
      }),
    effect: () =>
      sandbox.effect((c) =>
        c.feeShare.createConfig({
          payer: creator.address,
          baseMint: unlaunched.mint,
          claimersArray: [creator.address, claimer.address],
          basisPointsArray: [7_000, 3_000]
        })
      )
  },
  {
    operation: "feeShare.updateConfig",
    facade: () =>
      feeshare.feeShare.updateConfig({
        baseMint: mint,
        payer: creator.address,
        claimersArray: [creator.address, claimer.address],
        basisPointsArray: [5_000, 5_000]
      }),
    effect: () =>
      sandbox.effect((c) =>
        c.feeShare.updateConfig({
          baseMint: mint,
          payer: creator.address,
          claimersArray: [creator.address, claimer.address],
          basisPointsArray: [5_000, 5_000]
        })
      )
  },
  {
    operation: "feeShare.partnerClaim",
    facade: () => feeshare.feeShare.partnerClaim({ partnerWallet: partner.address }),
    effect: () => sandbox.effect((c) => c.feeShare.partnerClaim({ partnerWallet: partner.address }))
  },
  {
    operation: "feeShare.adminList",
    facade: () => feeshare.feeShare.adminList({ wallet: creator.address }),
    effect: () => sandbox.effect((c) => c.feeShare.adminList({ wallet: creator.address }))
  },
  {
    operation: "launch.createTransaction",
    facade: () =>
      feeshare.launch.createTransaction({
        ipfs: "ipfs://parity-2",
        initialBuyLamports: 0,
        tokenMint: unlaunched.mint,
        wallet: creator.address,
        configKey: unlaunched.configKey
      }),
    effect: () =>
      sandbox.effect((c) =>
        c.launch.createTransaction({
          ipfs: "ipfs://parity-2",
          initialBuyLamports: 0,
          tokenMint: unlaunched.mint,
          wallet: creator.address,
          configKey: unlaunched.configKey
        })
      )
  },
  {
    operation: "launch.createTokenInfo",
    // each call makes a new mint at a new time: the same launch otherwise
    facade: () => feeshare.launch.createTokenInfo(tokenInfoInput).then(comparableTokenInfo),
    effect: () => sandbox.effect((c) => c.launch.createTokenInfo(tokenInfoInput)).then(comparableTokenInfo)
  },
  {
    operation: "launch.wallet",
    facade: () => feeshare.launch.wallet({ provider: "social", username: "@Sandbox_Alice", chain: "EVM" }),
    effect: () =>
      sandbox.effect((c) => c.launch.wallet({ provider: "social", username: "@Sandbox_Alice", chain: "EVM" }))
  },
  {
    operation: "launch.wallets",
    facade: () => feeshare.launch.wallets({ items: walletItems }),
    effect: () => sandbox.effect((c) => c.launch.wallets({ items: walletItems }))
  },
  {
    operation: "trade.quote",
    // every quote gets a new `requestId`; everything else is the same
    facade: () =>
      feeshare.trade.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: SOL }).then(withoutRequestId),
    effect: () =>
      sandbox.effect((c) => c.trade.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: SOL })).then(
        withoutRequestId
      )
  },
  {
    operation: "trade.swap",
    facade: async () => {
      const quote = await feeshare.trade.quote({ inputMint: mint, outputMint: NATIVE_MINT, amount: 1_000_000n })
      return feeshare.trade.swap({ quoteResponse: quote, userPublicKey: creator.address })
    },
    effect: () =>
      sandbox.effect((c) =>
        Effect.flatMap(
          c.trade.quote({ inputMint: mint, outputMint: NATIVE_MINT, amount: 1_000_000n }),
          (quote) => c.trade.swap({ quoteResponse: quote, userPublicKey: creator.address })
        )
      )
  },
  {
    operation: "analytics.lifetimeFees",
    facade: () => feeshare.analytics.lifetimeFees({ tokenMint: mint }),
    effect: () => sandbox.effect((c) => c.analytics.lifetimeFees({ tokenMint: mint }))
  },
  {
    operation: "analytics.claimStats",
    facade: () => feeshare.analytics.claimStats({ tokenMint: mint }),
    effect: () => sandbox.effect((c) => c.analytics.claimStats({ tokenMint: mint }))
  },
  {
    operation: "analytics.claimEvents",
    facade: async () => [
      await feeshare.analytics.claimEvents({ tokenMint: mint, limit: 5 }),
      await feeshare.analytics.claimEvents({ tokenMint: mint, mode: "time", from: 0, to: 4_102_444_800 })
    ],
    effect: async () => [
      await sandbox.effect((c) => c.analytics.claimEvents({ tokenMint: mint, limit: 5 })),
      await sandbox.effect((c) =>
        c.analytics.claimEvents({ tokenMint: mint, mode: "time", from: 0, to: 4_102_444_800 })
      )
    ]
  },
  {
    operation: "analytics.pools",
    facade: async () => [await feeshare.analytics.pools(), await feeshare.analytics.pools({ onlyMigrated: true })],
    effect: async () => [
      await sandbox.effect((c) => c.analytics.pools()),
      await sandbox.effect((c) => c.analytics.pools({ onlyMigrated: true }))
    ]
  },
  {
    operation: "evm.indexTokenStatus",
    facade: () => feeshare.evm.indexTokenStatus({ tokenAddresses: evm.tokens }),
    effect: () => sandbox.effect((c) => c.evm.indexTokenStatus({ tokenAddresses: evm.tokens }))
  },
  {
    operation: "evm.claimablePositions",
    facade: () => feeshare.evm.claimablePositions({ owner: evm.holder }),
    effect: () => sandbox.effect((c) => c.evm.claimablePositions({ owner: evm.holder }))
  },
  {
    operation: "evm.creationFee",
    facade: () => feeshare.evm.creationFee(),
    effect: () => sandbox.effect((c) => c.evm.creationFee())
  },
  {
    operation: "identity.me",
    facade: () => feeshare.identity.me(),
    effect: () => sandbox.effect((c) => c.identity.me())
  },
  {
    operation: "agentAuth.init",
    // a fresh challenge and nonce each time: the same shape, different values
    facade: () => feeshare.agentAuth.init({ address: creator.address }).then(Object.keys),
    effect: () => sandbox.effect((c) => c.agentAuth.init({ address: creator.address })).then(Object.keys)
  },
  {
    operation: "ping",
    facade: () => feeshare.ping(),
    effect: () => sandbox.effect((c) => c.ping())
  }
]

/** A rejection's tag, status and message (the facade's error and the Effect failure alike). */
const failureOf = (error: unknown) => ({
  tag: Reflect.get(Object(error), "_tag"),
  status: Reflect.get(Object(error), "status"),
  message: Reflect.get(Object(error), "message")
})

const tokenInfoInput = {
  name: "Parity",
  symbol: "$par",
  description: "Made through both the facade and the Effect client",
  image: { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
  website: "https://parity.example"
}

const walletItems = [
  { provider: "social" as const, username: "sandbox_bob" },
  { provider: "social" as const, username: "nobody_parity" },
  { provider: "email" as const, username: "Carol@Sandbox.test" }
]

function comparableTokenInfo(info: { readonly tokenMint: string; readonly tokenLaunch: Record<string, unknown> }) {
  const { createdAt: _c, image, tokenMint, updatedAt: _u, uri, ...launch } = info.tokenLaunch
  expect(tokenMint).toBe(info.tokenMint)
  expect(String(image)).toContain(info.tokenMint)
  expect(String(uri)).toContain(info.tokenMint)
  return launch
}

function withoutRequestId(quote: TradeQuote) {
  const { requestId, ...rest } = quote
  expect(requestId).toMatch(/^sandbox-quote-\d+$/)
  return rest
}

describe("Facade parity", () => {
  it("runs on a sandbox with something to compare: positions, a partner vault, fees", async () => {
    expect(await feeshare.claims.positions({ wallet: claimer.address })).toHaveLength(1)
    expect((await feeshare.claims.vaults({ wallet: partner.address })).vaults).toHaveLength(1)
    expect(await feeshare.analytics.lifetimeFees({ tokenMint: mint })).toBeGreaterThan(0n)
  })

  it.each(cases)("$operation returns what the Effect client returns", async ({ effect, facade }) => {
    const fromFacade = await facade()
    expect(fromFacade).toEqual(await effect())
  })

  it("covers every operation of the contract, and each group has exactly the client's methods", () => {
    const operations: Array<string> = []
    for (const group of Object.values(Api.Api.groups)) {
      for (const endpoint of Object.keys(group.endpoints)) {
        operations.push(Api.operationName(group.identifier, endpoint))
      }
    }
    const covered = new Set([...cases.map((c) => c.operation), "agentAuth.callback"])
    expect(operations.filter((operation) => !covered.has(operation))).toEqual([])
    for (const group of Object.values(Api.Api.groups)) {
      if (!Api.isUnderBaseUrl(group.identifier)) continue
      const methods: unknown = Reflect.get(feeshare, group.identifier)
      // besides the operations: the flows over several of them (agentAuth.login, launch.token)
      expect(Object.keys(methods ?? {}).filter((name) => name !== "login" && name !== "token").sort()).toEqual(
        Object.keys(group.endpoints).sort()
      )
    }
  })

  it("launch: token info as JPEG bytes and the handle lookups; a miss rejects with NotFound and the service's message", async () => {
    const info = await feeshare.launch.createTokenInfo(tokenInfoInput)
    expect(info.tokenLaunch).toMatchObject({ symbol: "PAR", status: "PRE_LAUNCH", website: "https://parity.example" })
    const image = await fetch(info.tokenLaunch.image)
    expect(image.headers.get("content-type")).toBe("image/jpeg")
    const found = await feeshare.launch.wallets({ items: walletItems })
    expect(found.map((entry) => entry.wallet === null)).toEqual([false, true, false])
    const miss = await feeshare.launch.wallet({ provider: "social", username: "nobody_parity" }).catch((e: unknown) =>
      e
    )
    expect(miss).toBeInstanceOf(NotFound)
    expect(miss).toMatchObject({ message: "platform data or wallet not found", status: 404 })
    const invalid = await feeshare.launch.createTokenInfo({
      ...tokenInfoInput,
      image: { bytes: new Uint8Array([1, 2]) }
    })
      .catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(InvalidRequest)
    expect(invalid).toMatchObject({ field: "image.bytes" })
  })

  it("login (init + signature + callback) returns a working key, as the Effect client's login does", async () => {
    const wallet = await generateKeyPairSigner()
    const credential = await feeshare.login(wallet, "parity")
    expect(credential.isSignup).toBe(true)
    await using mine = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: credential.apiKey })
    expect(await mine.identity.me()).toEqual(
      await sandbox.effect((c) => c.identity.me(), Redacted.value(credential.apiKey))
    )
    // the same wallet through the facade's agentAuth group: a second key, not a signup
    const second = await feeshare.agentAuth.login(wallet, "parity-2")
    expect(second.isSignup).toBe(false)
    expect(second.keyId).not.toBe(credential.keyId)
  })

  it("rateLimit() is undefined before any answer, then the headers of the latest one", async () => {
    await using fresh = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey })
    expect(await fresh.rateLimit()).toBeUndefined()
    await fresh.ping()
    const info = await fresh.rateLimit()
    expect(info?.limit).toBe(5000)
    expect(info?.remaining).toBeLessThan(5000)
  })
})
