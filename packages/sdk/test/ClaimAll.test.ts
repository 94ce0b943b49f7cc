// The facade's claimAll on a sandbox: a partner's vault and a claimer's position, verified by a
// dry run (nothing signed), then claimed on the ledger; a second run has nothing to claim.
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { FeeShare } from "feeshare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, SOL, start } from "./support/sandbox.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"

let sandbox: Running
let creator: KeyPairSigner
let partner: KeyPairSigner
let mint: string

const facade = (signer: KeyPairSigner) =>
  new FeeShare({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    signer,
    commitment: "processed",
    rpcPollInterval: "5 millis"
  })

beforeAll(async () => {
  sandbox = await start({ slotMillis: 0, seed: "sdk-claim-all" })
  ;[creator, partner] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
  for (const wallet of [creator, partner]) {
    await sandbox.setup((s) => s.airdrop({ payload: { address: wallet.address, lamports: 20n * SOL } }))
  }
  const token = await sandbox.setup((s) => s.createToken({ payload: { creator: creator.address } }))
  mint = token.mint
  await sandbox.setup((s) =>
    s.createFeeShareConfig({
      payload: {
        mint,
        admin: creator.address,
        partner: partner.address,
        claimers: [{ wallet: creator.address, bps: 10_000 }]
      }
    })
  )
  const feeshare = facade(creator)
  const launch = await feeshare.launch.createTransaction({
    ipfs: "ipfs://claim-all",
    initialBuyLamports: 0,
    tokenMint: mint,
    wallet: creator.address,
    configKey: token.configKey
  })
  await feeshare.signAndSend.launch(launch, { mint })
  const quote = await feeshare.trade.quote({ inputMint: NATIVE_MINT, outputMint: mint, amount: 2n * SOL })
  await feeshare.signAndSend.swap(await feeshare.trade.swap({ quoteResponse: quote, userPublicKey: creator.address }))
  await feeshare.close()
})

afterAll(async () => {
  await sandbox?.close()
})

describe("FeeShare.claimAll", () => {
  it("a dry run verifies the partner vault; the run claims exactly what it owed; a second run has nothing", async () => {
    const feeshare = facade(partner)
    try {
      const owed = (await feeshare.claims.vaults({ wallet: partner.address })).vaults[0]?.claimableAmount ?? 0n
      expect(owed).toBeGreaterThan(0n)
      const dry = await feeshare.claimAll({ dryRun: true })
      expect(dry.items.map((item) => [item.kind, item.state])).toEqual([["vault", "verified"]])
      expect((await feeshare.claims.vaults({ wallet: partner.address })).vaults[0]?.claimableAmount).toBe(owed)

      const states: Array<string> = []
      const result = await feeshare.claimAll({ onItem: (item) => states.push(item.state) })
      expect(result.complete).toBe(true)
      expect(result.totals).toEqual([{ asset: NATIVE_MINT, decimals: 9, owed, claimed: owed }])
      // listed pending, updated as its transaction landed, then claimed
      expect(states[0]).toBe("pending")
      expect(states.at(-1)).toBe("claimed")
      expect(states.filter((state) => state === "claimed")).toHaveLength(1)

      const again = await feeshare.claimAll()
      expect(again.nothingToClaim).toBe(true)
      expect(again.items).toEqual([])
    } finally {
      await feeshare.close()
    }
  })

  it("--min: an item under the threshold of its asset is skipped and says so", async () => {
    const feeshare = facade(creator)
    try {
      const result = await feeshare.claimAll({ dryRun: true, min: { [NATIVE_MINT]: 10n ** 18n } })
      expect(result.items.length).toBeGreaterThan(0)
      expect(result.items.every((item) => item.state === "below-min")).toBe(true)
      expect(result.nothingToClaim).toBe(true)
      expect(result.totals).toEqual([])
    } finally {
      await feeshare.close()
    }
  })
})
