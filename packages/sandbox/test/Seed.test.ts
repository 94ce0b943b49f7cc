import { assert, describe, it } from "@effect/vitest"
import { createKeyPairSignerFromBytes } from "@solana/kit"
import { Effect, Redacted } from "effect"
import { existsSync, readFileSync, statSync } from "node:fs"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import * as Seed from "../src/Seed.js"

const options = Options.make({ slotMillis: 0, seed: "seed-test" })

describe("Seed", () => {
  it.effect("fills the market: a migrated token, one on its curve, one not launched; the demo wallet has claimable fees", () =>
    Effect.gen(function*() {
      const market = yield* Market
      const seeded = yield* Seed.make(options.seed)
      assert.deepStrictEqual(seeded.tokens.map((t) => [t.symbol, t.launched, t.migrated]), [
        ["DEMO", true, true],
        ["ALPHA", true, false],
        ["BETA", false, false]
      ])
      // the keygen file is the demo wallet's key: 64 bytes, the public half its address
      const bytes = new Uint8Array(JSON.parse(Redacted.value(seeded.demoKeygen)) as Array<number>)
      assert.strictEqual(bytes.length, 64)
      const signer = yield* Effect.promise(() => createKeyPairSignerFromBytes(bytes))
      assert.strictEqual(signer.address, seeded.demoWallet)
      assert.notInclude(String(seeded.demoKeygen), "[")

      const positions = yield* market.positions(seeded.demoWallet)
      assert.deepStrictEqual(
        positions.map((p) => p.baseMint).sort(),
        seeded.tokens.filter((t) => t.launched).map((t) => t.mint).sort()
      )
      assert.isTrue(positions.every((p) => p.totalClaimableLamportsUserShare > 0))
      assert.isNotNull(positions.find((p) => p.isMigrated)?.dammPositionInfo ?? null)
      const vaults = yield* market.vaults(seeded.demoWallet)
      assert.isAbove(vaults.vaults.length, 0, "the deployer vault of the migrated token")
      assert.strictEqual((yield* market.pools(false)).length, 2)
      // a claim plan for the demo wallet can be built at once
      const plan = yield* market.createPlan({
        feeClaimer: seeded.demoWallet,
        tokenMint: seeded.tokens[1]!.mint,
        transactionFormat: "v1"
      })
      assert.strictEqual(plan.readiness.status, "ready")
    }).pipe(Effect.provide(MarketLive.layerWithLedger(options))))

  it.effect("the same seed gives the same tokens and wallet", () =>
    Effect.gen(function*() {
      const first = yield* Seed.make(options.seed).pipe(Effect.provide(MarketLive.layerWithLedger(options)))
      const second = yield* Seed.make(options.seed).pipe(Effect.provide(MarketLive.layerWithLedger(options)))
      assert.deepStrictEqual(second.tokens, first.tokens)
      assert.strictEqual(second.demoWallet, first.demoWallet)
    }))

  it.effect("the demo keygen file: mode 0600, the wallet's key, removed with its scope", () =>
    Effect.gen(function*() {
      const seeded = yield* Effect.scoped(Effect.gen(function*() {
        const seeded = yield* Seed.makeWithKeygenFile(options.seed)
        assert.strictEqual(statSync(seeded.keygenPath).mode & 0o777, 0o600)
        const bytes = new Uint8Array(JSON.parse(readFileSync(seeded.keygenPath, "utf8")) as Array<number>)
        const signer = yield* Effect.promise(() => createKeyPairSignerFromBytes(bytes))
        assert.strictEqual(signer.address, seeded.demoWallet)
        return seeded
      }))
      assert.isFalse(existsSync(seeded.keygenPath))
    }).pipe(Effect.provide(MarketLive.layerWithLedger(options))))
})
