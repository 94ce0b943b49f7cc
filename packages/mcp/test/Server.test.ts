/**
 * `feeshare mcp` over stdio, driven by the official MCP TypeScript client against a seeded
 * sandbox: every read operation as a tool, a claim plan prepared and executed through
 * `setup_required` to landed, a swap within the cap, the refusals, and no secret in anything
 * the server wrote.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { assert, describe, layer } from "@effect/vitest"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as Totp from "@feeshare/sandbox/Totp"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect, Redacted } from "effect"
import * as WritePolicy from "../src/WritePolicy.js"
import {
  connect,
  keygenFile,
  policyFile,
  sandboxLayer,
  Seeded,
  solBalance,
  temporaryDirectory
} from "./support/fixture.js"

const reads = [
  "positions",
  "vault_claimables",
  "admin_list",
  "lifetime_fees",
  "claim_stats",
  "pools",
  "quote",
  "evm_index_status",
  "evm_positions",
  "evm_creation_fee",
  "me",
  "rate_limit_status"
]

const SOL = 1_000_000_000

describe("feeshare mcp", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp" }), { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.scoped("lists every read operation as a tool and answers reads with structured content", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const session = yield* connect(["--read-only"])
        const { tools } = yield* Effect.promise(() => session.client.listTools())
        const names = tools.map((tool) => tool.name)
        for (const name of reads) assert.include(names, name)
        // parameters come from the domain Schemas
        const positionsTool = tools.find((tool) => tool.name === "positions")
        assert.deepStrictEqual(positionsTool?.inputSchema.required, ["wallet"])

        const mint = seeded.tokens[0]!.mint
        const positions = yield* session.call("positions", { wallet: seeded.demoWallet })
        assert.isFalse(positions.isError)
        const list = positions.structured["positions"]
        assert.isTrue(Array.isArray(list) && list.length > 0)
        const fees = yield* session.call("lifetime_fees", { tokenMint: mint })
        assert.deepStrictEqual(Object.keys(fees.structured).sort(), ["lifetimeFeesLamports", "tokenMint"])
        const quote = yield* session.call("quote", {
          inputMint: WritePolicy.nativeMint,
          outputMint: mint,
          amount: "1000000"
        })
        assert.isFalse(quote.isError, quote.text)
        assert.strictEqual(quote.structured["inAmount"], "1000000")
        for (
          const [name, args] of [
            ["vault_claimables", { wallet: seeded.demoWallet }],
            ["admin_list", { wallet: seeded.demoWallet }],
            ["claim_stats", { tokenMint: mint }],
            ["pools", {}],
            ["evm_creation_fee", {}],
            ["me", {}]
          ] as const
        ) {
          const result = yield* session.call(name, args)
          assert.isFalse(result.isError, `${name}: ${result.text}`)
        }
        const limits = yield* session.call("rate_limit_status")
        assert.isNumber((limits.structured["rateLimit"] as { limit?: unknown }).limit)
        // a bad input is an error naming the field and its rule
        const bad = yield* session.call("positions", { wallet: "not-a-key" })
        assert.isTrue(bad.isError)
        assert.include(bad.text, "wallet")
        assert.include(bad.text, "must be a base58 public key")
      }))

    it.scoped("prepares and executes a claim through setup_required to landed, and a swap within the cap", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const mint = seeded.tokens[0]!.mint
        const policy = policyFile({ maxSwapLamports: SOL, maxSwapLamportsPerDay: 2 * SOL })
        const session = yield* connect(["--keypair", seeded.keygenPath, "--policy", policy])

        const prepared = yield* session.call("prepare_claim", { tokenMint: mint })
        assert.isFalse(prepared.isError, prepared.text)
        assert.strictEqual(prepared.structured["readiness"], "setup_required")
        assert.strictEqual(prepared.structured["wallet"], seeded.demoWallet)
        assert.isTrue((prepared.structured["verification"] as { verified: boolean }).verified)
        const previewId = prepared.structured["previewId"] as string

        const executed = yield* session.call("execute", { previewId })
        assert.isFalse(executed.isError, executed.text)
        const landed = executed.structured["landed"] as ReadonlyArray<{ kind: string; signature: string }>
        assert.includeMembers(landed.map((stage) => stage.kind), ["lookup_table_setup", "claim"])
        assert.isAtLeast(executed.structured["rebuilds"] as number, 1)

        // an id works once
        const again = yield* session.call("execute", { previewId })
        assert.isTrue(again.isError)
        assert.strictEqual(again.structured["error"], "PreviewUnavailable")

        // a swap within the cap lands
        const before = yield* solBalance(seeded.demoWallet)
        const swap = yield* session.call("prepare_swap", {
          inputMint: WritePolicy.nativeMint,
          outputMint: mint,
          amount: String(SOL / 10)
        })
        assert.isFalse(swap.isError, swap.text)
        assert.strictEqual(swap.structured["lamportsSpent"], String(SOL / 10))
        const swapped = yield* session.call("execute", { previewId: swap.structured["previewId"] })
        assert.isFalse(swapped.isError, swapped.text)
        assert.isBelow(Number(yield* solBalance(seeded.demoWallet)), Number(before) - SOL / 10)
      }))

    it.scoped("refuses: no prepare, over the cap, a mint off the allow-list, a write in read-only mode; no secret in any output", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const info = yield* SandboxInfo
        const [first, second] = seeded.tokens
        const policy = policyFile({ maxSwapLamports: SOL / 100, allowedMints: [second!.mint] })
        const session = yield* connect(["--keypair", seeded.keygenPath, "--policy", policy])
        const before = yield* solBalance(seeded.demoWallet)

        const unknown = yield* session.call("execute", { previewId: "pv_00000000000000000000000000000000" })
        assert.isTrue(unknown.isError)
        assert.strictEqual(unknown.structured["error"], "PreviewUnavailable")

        const over = yield* session.call("prepare_swap", {
          inputMint: WritePolicy.nativeMint,
          outputMint: second!.mint,
          amount: String(SOL)
        })
        assert.isTrue(over.isError)
        assert.deepStrictEqual([over.structured["error"], over.structured["rule"]], [
          "PolicyViolation",
          "maxSwapLamports"
        ])

        const offList = yield* session.call("prepare_claim", { tokenMint: first!.mint })
        assert.isTrue(offList.isError)
        assert.deepStrictEqual([offList.structured["error"], offList.structured["rule"]], [
          "PolicyViolation",
          "allowedMints"
        ])

        const readOnly = yield* connect(["--keypair", seeded.keygenPath, "--read-only"])
        const write = yield* readOnly.call("prepare_claim", { tokenMint: second!.mint })
        assert.isTrue(write.isError)
        assert.deepStrictEqual([write.structured["error"], write.structured["rule"]], ["PolicyViolation", "readOnly"])
        const { resources } = yield* Effect.promise(() => readOnly.client.listResources())
        assert.deepStrictEqual(resources.map((r) => r.uri).sort(), [
          "feeshare://docs/rate-limits",
          "feeshare://docs/signing-safety",
          "feeshare://policy"
        ])
        const safety = yield* Effect.promise(() =>
          readOnly.client.readResource({ uri: "feeshare://docs/signing-safety" })
        )
        assert.match(String((safety.contents[0] as { text?: unknown }).text), /^# /)
        const policyText = yield* Effect.promise(() => readOnly.client.readResource({ uri: "feeshare://policy" }))
        const policyJson = JSON.parse(String((policyText.contents[0] as { text?: unknown }).text))
        assert.strictEqual(policyJson.readOnly, true)
        assert.deepStrictEqual(policyJson.wallets, [])

        const status = yield* session.call("policy")
        assert.deepStrictEqual(status.structured["policy"], {
          readOnly: false,
          wallets: [seeded.demoWallet],
          allowedMints: [second!.mint],
          maxSwapLamports: SOL / 100,
          askHuman: false,
          previewTtlSeconds: 120,
          transactionFormat: "v0"
        })
        assert.deepStrictEqual(status.structured["remainingToday"], { swapLamports: null, networkFeesLamports: null })

        // nothing was signed
        assert.strictEqual(yield* solBalance(seeded.demoWallet), before)
        // neither the API key nor the key file's bytes appear in any result, resource or log line
        const everything = [
          ...session.seen,
          ...readOnly.seen,
          JSON.stringify(policyText),
          session.stderr(),
          readOnly.stderr()
        ].join("\n")
        assert.notInclude(everything, Redacted.value(info.demoApiKey))
        const keyBytes = JSON.parse(Redacted.value(seeded.demoKeygen)) as ReadonlyArray<number>
        assert.notInclude(everything, JSON.stringify(keyBytes))
        assert.notInclude(everything, keyBytes.slice(0, 32).join(","))
      }))

    it.scoped("without an API key, login signs the wallet's challenge and the session uses the new key, never shown", () =>
      Effect.gen(function*() {
        const wallet = keygenFile(temporaryDirectory("mcp-login-"), "wallet")
        const session = yield* connect(["--keypair", wallet.path], { apiKey: false })
        const before = yield* session.call("me")
        assert.isTrue(before.isError)
        assert.strictEqual(before.structured["error"], "Unauthorized")
        const login = yield* session.call("login", { keyName: "agent" })
        assert.isFalse(login.isError, login.text)
        assert.deepStrictEqual([login.structured["wallet"], login.structured["keyName"]], [wallet.publicKey, "agent"])
        const me = yield* session.call("me")
        assert.isFalse(me.isError, me.text)
        // once logged in, no second login
        const again = yield* session.call("login")
        assert.strictEqual(again.structured["error"], "AlreadyLoggedIn")
        assert.notMatch([...session.seen, session.stderr()].join("\n"), /fs_sbx_/)

        // with MFA on, the code is asked of the human (elicitation), never of the agent
        const info = yield* SandboxInfo
        const sandbox = yield* HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
        const { secret } = yield* sandbox.sandbox.enableMfa({ payload: { wallet: wallet.publicKey } })
        const asked: Array<string> = []
        const human = yield* connect(["--keypair", wallet.path], {
          apiKey: false,
          elicit: (message) => {
            asked.push(message)
            return { action: "accept", content: { code: Totp.generate(Totp.fromBase32(secret)!, Date.now()) } }
          }
        })
        const withCode = yield* human.call("login", { keyName: "agent-mfa" })
        assert.isFalse(withCode.isError, withCode.text)
        assert.include(asked[0], wallet.publicKey)
        const noHuman = yield* connect(["--keypair", wallet.path], { apiKey: false })
        const refused = yield* noHuman.call("login")
        assert.strictEqual(refused.structured["error"], "MfaRefused")
      }))

    it.scoped("askHuman: execute signs only what the human approves through elicitation", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const mint = seeded.tokens[1]!.mint
        const policy = policyFile({ askHuman: true })
        const asked: Array<string> = []
        let answer: "accept" | "decline" = "decline"
        const session = yield* connect(["--keypair", seeded.keygenPath, "--policy", policy], {
          elicit: (message) => {
            asked.push(message)
            return { action: "accept", content: { approve: answer === "accept" } }
          }
        })
        const swap = { inputMint: WritePolicy.nativeMint, outputMint: mint, amount: String(SOL / 100) }
        const before = yield* solBalance(seeded.demoWallet)

        const declined = yield* session.call("execute", {
          previewId: (yield* session.call("prepare_swap", swap)).structured["previewId"]
        })
        assert.deepStrictEqual([declined.structured["error"], declined.structured["rule"]], [
          "PolicyViolation",
          "askHuman"
        ])
        assert.strictEqual(yield* solBalance(seeded.demoWallet), before)
        assert.include(asked[0], `swap by ${seeded.demoWallet}`)
        assert.include(asked[0], `SOL spent ${SOL / 100} lamports`)

        answer = "accept"
        const approved = yield* session.call("execute", {
          previewId: (yield* session.call("prepare_swap", swap)).structured["previewId"]
        })
        assert.isFalse(approved.isError, approved.text)
        assert.strictEqual(asked.length, 2)

        // a client that cannot ask the human: every execute is refused
        const mute = yield* connect(["--keypair", seeded.keygenPath, "--policy", policy])
        const refused = yield* mute.call("execute", {
          previewId: (yield* mute.call("prepare_swap", swap)).structured["previewId"]
        })
        assert.strictEqual(refused.structured["rule"], "askHuman")
      }))

    it.scoped("prepares and executes a launch, a partner claim with a second wallet of the policy, and a fee-share update", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const info = yield* SandboxInfo
        const sandbox = yield* HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
        const created = yield* sandbox.sandbox.createToken({ payload: { creator: seeded.demoWallet } })
        const partner = keygenFile(temporaryDirectory("mcp-partner-"), "partner")
        yield* sandbox.sandbox.airdrop({ payload: { address: partner.publicKey, lamports: BigInt(SOL) } })
        yield* sandbox.sandbox.createFeeShareConfig({
          payload: {
            mint: created.mint,
            admin: seeded.demoWallet,
            partner: partner.publicKey,
            claimers: [{ wallet: seeded.demoWallet, bps: 10_000 }]
          }
        })
        // the partner's key is a second wallet the policy lets sign
        const session = yield* connect([
          "--keypair",
          seeded.keygenPath,
          "--policy",
          policyFile({ maxSwapLamports: SOL, wallets: [partner.path] })
        ])

        const launch = yield* session.call("prepare_launch", {
          ipfs: "ipfs://feeshare-mcp",
          tokenMint: created.mint,
          configKey: created.configKey,
          initialBuyLamports: SOL / 100
        })
        assert.isFalse(launch.isError, launch.text)
        assert.strictEqual(launch.structured["lamportsSpent"], String(SOL / 100))
        const launched = yield* session.call("execute", { previewId: launch.structured["previewId"] })
        assert.isFalse(launched.isError, launched.text)

        const claimer = (yield* LocalSigner.generate).publicKey
        const update = yield* session.call("prepare_fee_share_update", {
          baseMint: created.mint,
          claimersArray: [seeded.demoWallet, claimer],
          basisPointsArray: [6_000, 4_000]
        })
        assert.isFalse(update.isError, update.text)
        const updated = yield* session.call("execute", { previewId: update.structured["previewId"] })
        assert.isFalse(updated.isError, updated.text)
        // trading pays the partner; the partner claims with its own key (the `wallet` parameter)
        const swap = yield* session.call("prepare_swap", {
          inputMint: WritePolicy.nativeMint,
          outputMint: created.mint,
          amount: String(SOL / 2)
        })
        assert.isFalse((yield* session.call("execute", { previewId: swap.structured["previewId"] })).isError)
        const vaults = yield* session.call("vault_claimables", { wallet: partner.publicKey })
        assert.isAbove((vaults.structured["vaults"] as ReadonlyArray<unknown>).length, 0, vaults.text)
        const partnerClaim = yield* session.call("prepare_partner_claim", { wallet: partner.publicKey })
        assert.isFalse(partnerClaim.isError, partnerClaim.text)
        assert.strictEqual(partnerClaim.structured["wallet"], partner.publicKey)
        const claimed = yield* session.call("execute", { previewId: partnerClaim.structured["previewId"] })
        assert.isFalse(claimed.isError, claimed.text)
        assert.isAbove((claimed.structured["landed"] as ReadonlyArray<unknown>).length, 0)

        const stats = yield* session.call("claim_stats", { tokenMint: created.mint })
        const claimers = stats.structured["claimers"] as ReadonlyArray<{ wallet: string; royaltyBps: number }>
        assert.deepStrictEqual(
          claimers.map((c) => [c.wallet, c.royaltyBps]).sort(),
          [[seeded.demoWallet, 6_000], [claimer, 4_000]].sort()
        )
      }))
  })
})
