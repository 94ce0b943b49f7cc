// `feeshare.launch.token(...)` for real: the facade launches a token from nothing on the
// sandbox (token info, the handle's wallet, config, launch), reporting progress through its
// callback; a rerun resumes from the record; bad inputs reject with `InvalidRequest`.
import { generateKeyPairSigner } from "@solana/kit"
import { FeeShare, InvalidRequest, type LaunchEvent, type LaunchTokenRequest } from "feeshare"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, SOL, start } from "./support/sandbox.js"

const png = new Uint8Array(readFileSync(new URL("../../cli/assets/demo-token.png", import.meta.url)))

let sandbox: Running

beforeAll(async () => {
  sandbox = await start({ slotMillis: 20, blockhashValidity: 100_000, seed: "sdk-launch-token" })
})

afterAll(async () => {
  await sandbox?.close()
})

const setup = async () => {
  const signer = await generateKeyPairSigner()
  await sandbox.setup((s) => s.airdrop({ payload: { address: signer.address, lamports: 20n * SOL } }))
  const feeshare = new FeeShare({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    rpcUrl: sandbox.rpcUrl,
    signer,
    rpcPollInterval: "20 millis"
  })
  const request: LaunchTokenRequest = {
    name: `Facade ${signer.address.slice(0, 6)}`,
    symbol: "FCD",
    description: "launched by the facade",
    image: { bytes: png },
    shares: [{ provider: "social", username: "sandbox_bob", bps: 2_500 }, { wallet: signer.address, bps: 7_500 }],
    initialBuyLamports: 0
  }
  return { feeshare, request, signer }
}

describe("feeshare.launch.token", () => {
  it("launches from nothing with progress callbacks; a second call resumes and makes nothing new", async () => {
    const { feeshare, request, signer } = await setup()
    await using _ = feeshare
    const events: Array<LaunchEvent> = []
    const result = await feeshare.launch.token(request, { onEvent: (event) => events.push(event) })
    expect(result.signature).toBeTypeOf("string")
    expect(result.shares.map((s) => [s.label, s.bps])).toEqual([["social:sandbox_bob", 2_500], [signer.address, 7_500]])
    expect(result.deployer).toBe(signer.address)
    expect(events.filter((e) => e._tag === "Done").map((e) => e.step)).toEqual([
      "handles",
      "token-info",
      "config",
      "launch"
    ])
    const token = (await sandbox.setup((s) => s.state())).tokens.find((t) => t.mint === result.mint)
    expect(token?.launched).toBe(true)

    const again = await feeshare.launch.token(request)
    expect(again.reused).toEqual(["token-info", "config", "launch"])
    expect(again.signature).toBe(result.signature)
  })

  it("bad inputs reject with InvalidRequest naming the field, before anything is sent", async () => {
    const { feeshare, request } = await setup()
    await using _ = feeshare
    const error = await feeshare.launch.token({ ...request, symbol: "ELEVENCHARS" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequest)
    expect((error as InvalidRequest).field).toBe("symbol")
    const unknown = await feeshare.launch.token({
      ...request,
      shares: [{ provider: "social", username: "no_such_handle_here", bps: 10_000 }]
    }).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(InvalidRequest)
    expect((unknown as InvalidRequest).field).toBe("shares[0]")
    const tokens = (await sandbox.setup((s) => s.state())).tokens.filter((t) => t["name"] === request.name)
    expect(tokens).toHaveLength(0)
  })
})
