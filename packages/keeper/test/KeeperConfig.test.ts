import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Claims } from "@feeshare/domain"
import { Effect, Either } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as KeeperConfig from "../src/KeeperConfig.js"

const MINT = "So11111111111111111111111111111111111111112"
const TOKEN = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
const OTHER = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
const TABLE = "4zvwRjXUKGfvwnParsHAS3HuSVzV5cA4McphgmoCtajS"

const feeLimit = (mint: string) => ({
  asset: { mint, tokenProgram: Claims.tokenPrograms.token },
  basisPoints: 100,
  maximumFeeRaw: "1000"
})

describe("Policy", () => {
  it.effect("decodes a minimal JSON config with the defaults", () =>
    Effect.gen(function*() {
      const config = yield* KeeperConfig.parse(JSON.stringify({ wallets: [{ keypair: "a.json" }] }), "keeper.json")
      assert.strictEqual(config.transactionFormat, "v0")
      assert.strictEqual(config.commitment, "confirmed")
      assert.isFalse(config.dryRun)
      assert.strictEqual(config.database, "feeshare-keeper.db")
    }))

  it.effect("reads YAML by extension", () =>
    Effect.gen(function*() {
      const config = yield* KeeperConfig.parse(
        [
          "wallets:",
          "  - directory: keys",
          "    minClaimableLamports: 5000",
          `    deny: [${MINT}]`,
          "maxFeesPerHourLamports: 100000",
          "dryRun: true"
        ].join("\n"),
        "keeper.yaml"
      )
      assert.deepStrictEqual(config.wallets[0], { directory: "keys", minClaimableLamports: 5000, deny: [MINT] })
      assert.strictEqual(config.maxFeesPerHourLamports, 100000)
      assert.isTrue(config.dryRun)
    }))

  it.effect("names every bad field by its path", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(KeeperConfig.parse(
        JSON.stringify({
          wallets: [{ keypair: "a.json" }, { keypair: "b.json", minClaimableLamports: -1 }],
          transactionFormat: "v2",
          maxFeesPerHourLamports: 1.5
        }),
        "keeper.json"
      ))
      assert.strictEqual(error._tag, "ConfigInvalid")
      const paths = error.issues.map((issue) => issue.path)
      assert.include(paths, "transactionFormat")
      assert.include(paths, "maxFeesPerHourLamports")
      assert.isTrue(paths.some((path) => path.startsWith("wallets.1")), paths.join(","))
      assert.include(error.message, "keeper.json")
      // lamports follow the domain's rule (RawAmount.LamportsNumber), written once
      assert.strictEqual(
        error.issues.find((issue) => issue.path === "maxFeesPerHourLamports")?.message,
        "must be a non-negative whole number of lamports"
      )
    }))

  it.effect("refuses unknown fields, an empty wallet list, and bad JSON", () =>
    Effect.gen(function*() {
      const unknown = yield* Effect.flip(
        KeeperConfig.parse(JSON.stringify({ wallets: [{ keypair: "a" }], dryrun: true }), "k.json")
      )
      assert.include(unknown.issues.map((i) => i.path), "dryrun")
      const empty = yield* Effect.flip(KeeperConfig.parse(JSON.stringify({ wallets: [] }), "k.json"))
      assert.include(empty.issues.map((i) => i.path), "wallets")
      const bad = yield* Effect.flip(KeeperConfig.parse("{", "k.json"))
      assert.strictEqual(bad.issues[0]?.message, "not valid JSON")
    }))

  it.effect("plan options per wallet and per token: checked with the domain's rules, errors naming the field", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(KeeperConfig.parse(
        JSON.stringify({
          wallets: [
            { keypair: "a.json" },
            { keypair: "b.json", plan: { lookupTables: [TABLE, TABLE] } }
          ],
          tokens: { [TOKEN]: { quoteMint: TOKEN } },
          plan: { quoteMint: MINT, feeLimits: [feeLimit(OTHER)] },
          maxCostFraction: 1.5
        }),
        "keeper.json"
      ))
      const byPath = new Map(error.issues.map((issue) => [issue.path, issue.message]))
      assert.strictEqual(byPath.get("maxCostFraction"), "Expected a number less than or equal to 1, actual 1.5")
      // decoded fine field by field: the rules between the fields are the domain's (Claims.planRules)
      const rules = yield* Effect.flip(KeeperConfig.parse(
        JSON.stringify({
          wallets: [
            { keypair: "a.json" },
            { keypair: "b.json", plan: { lookupTables: [TABLE, TABLE] } }
          ],
          tokens: { [TOKEN]: { quoteMint: TOKEN } },
          plan: { quoteMint: MINT, feeLimits: [feeLimit(OTHER)] }
        }),
        "keeper.json"
      ))
      const messages = new Map(rules.issues.map((issue) => [issue.path, issue.message]))
      assert.strictEqual(messages.get("plan.feeLimits.0.asset.mint"), Claims.planRules.feeLimitAsset)
      assert.strictEqual(messages.get(`tokens.${TOKEN}.quoteMint`), Claims.planRules.quoteMint)
      assert.strictEqual(messages.get("wallets.1.plan.lookupTables.1"), Claims.planRules.duplicateLookupTable)
      // lookup tables and v1 transactions do not go together
      const v1 = yield* Effect.flip(KeeperConfig.parse(
        JSON.stringify({ wallets: [{ keypair: "a.json" }], transactionFormat: "v1", plan: { lookupTables: [TABLE] } }),
        "keeper.json"
      ))
      assert.deepStrictEqual(v1.issues.map((i) => [i.path, i.message]), [[
        "plan.lookupTables",
        Claims.planRules.lookupTablesFormat
      ]])
    }))

  it.effect("plan options merge field by field: a wallet's token, the config's token, the wallet's plan, the config's plan", () =>
    Effect.gen(function*() {
      const config = yield* KeeperConfig.parse(
        JSON.stringify({
          wallets: [{
            keypair: "a.json",
            plan: { source: { kind: "position" } },
            tokens: { [TOKEN]: { feeLimits: [feeLimit(MINT)] } },
            kinds: ["vault"],
            maxCostFraction: 0.25
          }],
          plan: { quoteMint: MINT, source: { kind: "pair" }, lookupTables: [TABLE] },
          tokens: { [TOKEN]: { lookupTables: [] } },
          maxCostFraction: 0.5
        }),
        "keeper.json"
      )
      const [entry] = config.wallets
      assert.deepStrictEqual(KeeperConfig.planOptionsOf(config, entry!, TOKEN), {
        quoteMint: MINT,
        source: { kind: "position" },
        lookupTables: [],
        feeLimits: [{ ...feeLimit(MINT), maximumFeeRaw: 1000n }]
      })
      assert.deepStrictEqual(KeeperConfig.planOptionsOf(config, entry!, OTHER), {
        quoteMint: MINT,
        source: { kind: "position" },
        lookupTables: [TABLE]
      })
      assert.strictEqual(entry?.maxCostFraction, 0.25)
      assert.deepStrictEqual(entry?.kinds, ["vault"])
    }))

  it("selects by threshold, allow and deny lists", () => {
    const rules = { minClaimableLamports: 100, allow: undefined, deny: ["D"] }
    assert.isTrue(KeeperConfig.selects(rules, "A", 100))
    assert.isFalse(KeeperConfig.selects(rules, "A", 99))
    assert.isFalse(KeeperConfig.selects(rules, "D", 1000))
    assert.isFalse(KeeperConfig.selects({ ...rules, allow: ["B"] }, "A", 1000))
    assert.isFalse(KeeperConfig.selects({ ...rules, minClaimableLamports: 0 }, "A", 0))
  })

  it.effect("loads wallets from files, a directory and the environment; errors never show the key", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "keeper-policy-"))
      const secret = (n: number) => JSON.stringify(Array.from({ length: 64 }, (_, i) => (i * 7 + n) % 256))
      // real keygen files: the 32-byte seed followed by the public key
      const files = yield* Effect.forEach([0, 1, 2], (n) =>
        Effect.promise(async () => {
          const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])
          const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey))
          const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))
          const bytes = [...pkcs8.slice(-32), ...raw]
          return { n, text: JSON.stringify(bytes) }
        }))
      mkdirSync(join(dir, "many"))
      writeFileSync(join(dir, "one.json"), files[0]!.text)
      writeFileSync(join(dir, "many", "a.json"), files[1]!.text)
      writeFileSync(join(dir, "many", "b.json"), files[0]!.text) // the same key again: one wallet
      process.env.KEEPER_TEST_KEY = files[2]!.text
      const config = yield* KeeperConfig.decode({
        wallets: [{ keypair: "one.json", minClaimableLamports: 7 }, { directory: "many" }, { env: "KEEPER_TEST_KEY" }],
        minClaimableLamports: 3
      })
      const wallets = yield* KeeperConfig.wallets(config, dir)
      assert.strictEqual(wallets.length, 3)
      assert.strictEqual(wallets[0]?.rules.minClaimableLamports, 7)
      assert.strictEqual(wallets[1]?.rules.minClaimableLamports, 3)
      assert.strictEqual(wallets[2]?.source, "env:KEEPER_TEST_KEY")

      process.env.KEEPER_TEST_KEY = secret(1).replace("]", ",1]")
      const bad = yield* Effect.either(
        KeeperConfig.wallets(yield* KeeperConfig.decode({ wallets: [{ env: "KEEPER_TEST_KEY" }] }), dir)
      )
      assert.isTrue(Either.isLeft(bad))
      if (Either.isLeft(bad)) {
        assert.strictEqual(bad.left._tag, "WalletUnavailable")
        assert.notInclude(bad.left.message, process.env.KEEPER_TEST_KEY.slice(1, 20))
      }
      delete process.env.KEEPER_TEST_KEY
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
