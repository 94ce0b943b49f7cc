/**
 * Crash safety when the journaled transactions can no longer land: the keeper process is
 * killed (SIGKILL) after both stages of a claim were signed and journaled, before any was
 * sent; while it is down the ledger moves past their blockhash's last valid height. The
 * restart must find the journaled bytes dead (never landed, never able to), and only then
 * build the stages again: the position is claimed once, and of every signed transaction the
 * recording proxy saw, only the rebuilt ones landed.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ledger } from "@feeshare/sandbox/Ledger"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  keyFile,
  ledgerFates,
  owed,
  positions,
  recordingProxy,
  sandboxLayer,
  temporaryDirectory,
  wsolBalance
} from "./support/fixture.js"
import { keeperProcess, type Report } from "./support/keeperProcess.js"

/** Blocks a blockhash stays valid: long enough for the first process to reach its hook. */
const validity = 600

describe("Keeper crash safety: journaled stages that expired while the keeper was down", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 50, blockhashValidity: validity, seed: "keeper-crash-expiry" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("the restart settles the dead bytes as expired, rebuilds, and claims once", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-expiry-")
        const wallets = yield* Effect.forEach([0, 1], (i) => keyFile(dir, `w${i}`))
        yield* positions({ wallets, tokens: 1, claimersPerToken: 2, buySol: () => 2n })
        const wallet = wallets[0]!
        const owner = wallet.signer.publicKey
        const [before] = [...(yield* owed([wallet])).values()]
        const amount = [...(before?.values() ?? [])].reduce((s, n) => s + BigInt(n), 0n)
        assert.isTrue(amount > 0n)
        const wsolBefore = yield* wsolBalance(owner)

        const proxy = yield* recordingProxy
        const config = join(dir, "keeper.json")
        writeFileSync(
          config,
          JSON.stringify({ wallets: [{ keypair: wallet.path }], transactionFormat: "v1", database: "keeper.db" })
        )

        const crashed = yield* keeperProcess({ config, rpcUrl: proxy.url, hook: "after-journal:claim" })
        assert.strictEqual(crashed.signal, "SIGKILL", crashed.stderr)
        assert.strictEqual(proxy.sent.length, 0)

        // while the keeper is down, the journaled stages' blockhash stops being valid
        const ledger = yield* Ledger
        yield* ledger.advance(validity + 10)

        const resumed = yield* keeperProcess({ config, rpcUrl: proxy.url })
        assert.strictEqual(resumed.code, 0, resumed.stderr)
        const report = JSON.parse(resumed.stdout) as Report
        const outcomes = report.wallets.flatMap((w) => w.positions).map((p) => p.outcome)
        assert.isTrue(outcomes.every((o) => o === "claimed"), outcomes.join(","))

        // claimed once: the balance rose by exactly what was owed, and nothing is owed now
        assert.strictEqual((yield* wsolBalance(owner)) - wsolBefore, amount)
        const [after] = [...(yield* owed([wallet])).values()]
        assert.isTrue([...(after?.values() ?? [])].every((n) => Number(n) === 0))

        // the restart found the journaled bytes and tried them first (same signatures) ...
        const journaled = new Set(
          resumed.stderr.split("\n").filter((line) => line.includes("rebroadcasting a journaled transaction"))
            .map((line) => (JSON.parse(line) as { signature: string }).signature)
        )
        assert.isAbove(journaled.size, 0, resumed.stderr.slice(-2000))
        // ... which could no longer land, so none went out: what was sent is the two rebuilt
        // stages, both landed without error, none of them a journaled signature
        const fates = yield* ledgerFates(proxy.sent)
        assert.strictEqual(fates.length, 2, fates.map((f) => `${f.signature}:${f.landed}`).join(", "))
        for (const fate of fates) {
          assert.deepStrictEqual([fate.landed, fate.err], [true, null], fate.signature)
          assert.isFalse(journaled.has(fate.signature), fate.signature)
        }
      }).pipe(Effect.scoped))
  })
})
