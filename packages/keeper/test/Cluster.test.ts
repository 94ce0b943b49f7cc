/**
 * The keeper on a cluster: runner processes (`feeshare keeper run --postgres-url`, built from the
 * sources) share 30 wallets through a real PostgreSQL server started for the test. One runner
 * stops at its first claim send (the keeper's hook) and is killed with SIGKILL: its wallets and
 * unfinished claims move to the others, which settle the journal with the chain first. Then
 * the whole cluster is killed and restarted: nothing is claimed twice. Every `sendTransaction`
 * goes through a recording proxy in front of the sandbox's /rpc.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  keyFile,
  ledgerFates,
  NATIVE_MINT,
  owed,
  partnerOwed,
  partnerVault,
  positions,
  recordingProxy,
  sandboxLayer,
  temporaryDirectory,
  wsolBalance
} from "./support/fixture.js"
import { kill, postgres, query, startRunner, until } from "./support/runners.js"

describe("Keeper cluster (PostgreSQL, 3 runner processes, kill -9)", () => {
  layer(
    sandboxLayer({ port: 0, slotMillis: 20, blockhashValidity: 100_000, seed: "keeper-cluster", rateLimit: 1_000_000 }),
    {
      excludeTestServices: true,
      timeout: "300 seconds"
    }
  )((it) => {
    it.effect("30 wallets claimed exactly once across 3 runners, one killed mid-run; a restarted cluster claims nothing twice", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const { client, server } = yield* postgres
        const proxy = yield* recordingProxy
        const dir = temporaryDirectory("keeper-cluster-")
        const wallets = yield* Effect.forEach(Array.from({ length: 30 }, (_, i) => i), (i) => keyFile(dir, `w${i}`))
        // every wallet claims from two of six tokens
        yield* positions({ wallets, tokens: 6, claimersPerToken: 10, buySol: (t) => BigInt(t + 1) })
        const before = yield* owed(wallets)
        const positionsOwed = [...before.values()].flatMap((byMint) => [...byMint.values()].filter((n) => n > 0)).length
        assert.strictEqual(positionsOwed, 60)
        // wallet 0 is also a token's partner: its vault is swept on the cluster too
        yield* partnerVault(wallets[0]!.signer.publicKey)
        const vaultOwed = yield* partnerOwed(wallets[0]!.signer.publicKey)
        assert.isAbove(Number(vaultOwed), 0)
        const balances = yield* Effect.forEach(wallets, (w) => wsolBalance(w.signer.publicKey))

        const config = join(dir, "keeper.json")
        writeFileSync(
          config,
          JSON.stringify({
            wallets: wallets.map((w) => ({ keypair: w.path })),
            transactionFormat: "v1",
            intervalSeconds: 1,
            concurrency: 4
          })
        )
        const environment = {
          config,
          postgresUrl: server.url,
          baseUrl: info.baseUrl,
          apiKey: Redacted.value(info.demoApiKey),
          rpcUrl: proxy.url
        }

        // runner A, alone, stops after sending its first claim stages; then B and C join and A is killed
        const a = yield* startRunner({ ...environment, hook: "after-send:claim" })
        yield* Effect.promise(() => a.printed(/keeper-hook after-send claim/))
        const ownedByA =
          (yield* query<{ wallet: string }>(client, "SELECT wallet FROM keeper_owners WHERE runner = $1", [a.name]))
            .map((row) => row.wallet)
        assert.isAbove(ownedByA.length, 0, "runner A owned wallets when it was killed")
        const b = yield* startRunner(environment)
        const c = yield* startRunner(environment)
        yield* Effect.promise(() => Promise.all([b.printed(/Listening on/), c.printed(/Listening on/)]))
        yield* kill(a)

        // every position claimed (the killed runner's claims finished by the others)
        const claimedRuns = query<{ wallet: string; mint: string; runner: string }>(
          client,
          "SELECT wallet, mint, runner FROM keeper_runs WHERE outcome = 'claimed' AND mint NOT LIKE 'vault:%'"
        )
        const sweptRuns = query<{ wallet: string; mint: string; lamports: string }>(
          client,
          "SELECT wallet, mint, lamports FROM keeper_runs WHERE outcome = 'claimed' AND mint LIKE 'vault:%'"
        )
        yield* until("60 claims", Effect.map(claimedRuns, (rows) => rows.length >= 60))
        yield* until("the partner vault's sweep", Effect.map(sweptRuns, (rows) => rows.length >= 1))
        assert.deepStrictEqual(
          (yield* sweptRuns).map((r) => [r.wallet, r.mint, r.lamports]),
          [[wallets[0]!.signer.publicKey, `vault:partner:${NATIVE_MINT}`, String(vaultOwed)]]
        )
        const runs = yield* claimedRuns
        assert.strictEqual(runs.length, 60, "one claimed run per position")
        assert.strictEqual(new Set(runs.map((r) => `${r.wallet}/${r.mint}`)).size, 60)
        assert.isTrue(
          runs.every((r) => r.runner === b.name || r.runner === c.name),
          "the survivors recorded every claim"
        )

        // the killed runner's wallets moved: each has passed since on B or C
        yield* until(
          "A's wallets to pass elsewhere",
          Effect.map(
            query<{ wallet: string; runner: string; finished_at: string | null }>(
              client,
              "SELECT * FROM keeper_owners"
            ),
            (rows) =>
              ownedByA.every((wallet) =>
                rows.some((r) => r.wallet === wallet && r.runner !== a.name && r.finished_at !== null)
              )
          )
        )

        // balances rose by exactly what was owed; nothing is owed now
        for (const [i, wallet] of wallets.entries()) {
          const owedTotal = [...(before.get(wallet.signer.publicKey)?.values() ?? [])].reduce(
            (s, n) => s + BigInt(n),
            0n
          )
          assert.strictEqual(
            (yield* wsolBalance(wallet.signer.publicKey)) - balances[i]!,
            owedTotal + (i === 0 ? vaultOwed : 0n),
            `wallet ${i}`
          )
        }
        const after = yield* owed(wallets)
        assert.isTrue([...after.values()].every((byMint) => [...byMint.values()].every((n) => n === 0)), "nothing owed")
        assert.strictEqual(yield* partnerOwed(wallets[0]!.signer.publicKey), 0n)

        // no wallet worked on by two runners at once: its runs never overlap in time
        const timed = yield* query<{ wallet: string; runner: string; started_at: string; at: string }>(
          client,
          "SELECT wallet, runner, started_at, at FROM keeper_runs ORDER BY wallet, started_at"
        )
        for (let i = 1; i < timed.length; i++) {
          const [previous, next] = [timed[i - 1]!, timed[i]!]
          if (previous.wallet !== next.wallet) continue
          assert.isAtMost(
            Number(previous.at),
            Number(next.started_at),
            `wallet ${next.wallet}: ${previous.runner} then ${next.runner}`
          )
        }

        // the send log: every transaction sent was journaled first, and no stage of any run has
        // two different signed transactions that landed
        const stages = yield* query<{ key: string; round: number; stage: string; signature: string; status: string }>(
          client,
          "SELECT key, round, stage, signature, status FROM keeper_stages"
        )
        const fates = yield* ledgerFates(proxy.sent)
        const journaled = new Set(stages.map((s) => s.signature))
        for (const fate of fates) {
          assert.isTrue(journaled.has(fate.signature), `sent but not journaled: ${fate.signature}`)
        }
        const landedPerStage = new Map<string, number>()
        for (const fate of fates.filter((f) => f.landed)) {
          const row = stages.find((s) => s.signature === fate.signature)!
          const id = `${row.key}/${row.stage}`
          landedPerStage.set(id, (landedPerStage.get(id) ?? 0) + 1)
        }
        assert.isTrue([...landedPerStage.values()].every((n) => n === 1), "one landed transaction per stage")
        assert.strictEqual([...landedPerStage.keys()].filter((id) => id.endsWith("/claim")).length, 60)

        // the whole cluster dies and comes back: nothing new is claimed or sent
        yield* kill(b)
        yield* kill(c)
        const sentBefore = proxy.sent.length
        const restart = Date.now()
        const restarted = yield* Effect.forEach([0, 1, 2], () => startRunner(environment))
        yield* until(
          "every wallet to pass after the restart",
          Effect.map(
            query<{ started_at: string; finished_at: string | null }>(
              client,
              "SELECT started_at, finished_at FROM keeper_owners"
            ),
            (rows) => rows.length === 30 && rows.every((r) => Number(r.started_at) > restart && r.finished_at !== null)
          )
        )
        yield* Effect.forEach(restarted, kill)
        assert.strictEqual(proxy.sent.length, sentBefore, "nothing sent after the restart")
        assert.strictEqual((yield* claimedRuns).length, 60, "nothing claimed twice")
        assert.strictEqual((yield* sweptRuns).length, 1, "nothing swept twice")
      }).pipe(Effect.scoped))
  })
})
