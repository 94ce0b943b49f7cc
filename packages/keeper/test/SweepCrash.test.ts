/**
 * Crash safety of a vault sweep, with the keeper as a separate OS process (`feeshare keeper
 * once` from the sources, as in `Crash.test.ts`): it stops after the sweep's signed bytes were
 * journaled (nothing sent yet), or after they were sent (not yet confirmed), and is killed with
 * SIGKILL; a second process finishes. Every `sendTransaction` goes through a recording proxy in
 * front of the sandbox's /rpc. Blockhashes stay valid for the whole test, so a second sweep,
 * had the restart asked the service for one, could land too: the test shows there is none.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Item from "../src/Item.js"
import * as Journal from "../src/Journal.js"
import * as Keeper from "../src/Keeper.js"
import {
  type KeyFile,
  keyFile,
  ledgerFates,
  NATIVE_MINT,
  partnerOwed,
  partnerVault,
  recordingProxy,
  sandboxApi,
  sandboxLayer,
  SOL,
  solBalance,
  temporaryDirectory,
  wsolBalance
} from "./support/fixture.js"
import { keeperProcess } from "./support/keeperProcess.js"

/** The part of `keeper once --json`'s report this test reads. */
interface SweepReport {
  readonly reconciled: { readonly landed: number; readonly rebroadcast: number; readonly dead: number }
  readonly wallets: ReadonlyArray<{
    readonly positions: ReadonlyArray<unknown>
    readonly sweeps: ReadonlyArray<{ readonly kind: string; readonly outcome: string; readonly amount: string }>
  }>
}

const scenario = (wallet: KeyFile, hook: string) =>
  Effect.gen(function*() {
    const proxy = yield* recordingProxy
    const dir = temporaryDirectory("keeper-sweep-crash-")
    const config = join(dir, "keeper.json")
    writeFileSync(
      config,
      JSON.stringify({ wallets: [{ keypair: wallet.path }], kinds: ["vault"], database: "keeper.db" })
    )
    const owner = wallet.signer.publicKey
    const owed = yield* partnerOwed(owner)
    assert.isTrue(owed > 0n)
    const wsolBefore = yield* wsolBalance(owner)
    const solBefore = yield* solBalance(owner)

    const crashed = yield* keeperProcess({ config, rpcUrl: proxy.url, hook })
    assert.strictEqual(crashed.signal, "SIGKILL", crashed.stderr)
    assert.include(crashed.stderr, `keeper-hook ${hook.replace(":", " ")}`)
    const sentBeforeCrash = proxy.sent.length

    const resumed = yield* keeperProcess({ config, rpcUrl: proxy.url })
    assert.strictEqual(resumed.code, 0, resumed.stderr)
    const report = JSON.parse(resumed.stdout) as SweepReport
    // the restart reports the interrupted sweep claimed (its workflow's outcome), and nothing else
    const sweeps = report.wallets.flatMap((w) => w.sweeps)
    assert.deepStrictEqual(sweeps.map((s) => [s.kind, s.outcome]), [["vault", "claimed"]])
    assert.deepStrictEqual(report.wallets.flatMap((w) => w.positions), [])

    // paid once: the wallet's wrapped-SOL account rose by exactly what the vault owed; it owes nothing now
    assert.strictEqual((yield* wsolBalance(owner)) - wsolBefore, owed)
    assert.strictEqual(yield* partnerOwed(owner), 0n)
    // gas-sponsored: the wallet paid no fee and no rent
    assert.strictEqual(yield* solBalance(owner), solBefore)

    // one signed sweep in all: the proxy saw one distinct transaction, and it landed without error
    const fates = yield* ledgerFates(proxy.sent)
    assert.strictEqual(fates.length, 1, `distinct transactions sent: ${fates.map((f) => f.signature).join(", ")}`)
    assert.deepStrictEqual([fates[0]?.landed, fates[0]?.err], [true, null])
    // and the journal holds no other signed sweep (none that was never sent and could still land)
    const { runs, stages } = yield* Effect.gen(function*() {
      const journal = yield* Journal.Journal
      const key = `${owner}/${Item.vaultSubject("partner", NATIVE_MINT)}/0`
      return { stages: yield* journal.stagesOf(key), runs: yield* journal.runs }
    }).pipe(Effect.provide(Keeper.layerJournal(join(dir, "keeper.db"))))
    assert.deepStrictEqual(stages.map((s) => [s.stage, s.signature, s.status]), [[
      "sweep",
      fates[0]?.signature,
      "landed"
    ]])
    assert.deepStrictEqual(runs.map((r) => [r.mint, r.outcome, r.lamports]), [[
      Item.vaultSubject("partner", NATIVE_MINT),
      "claimed",
      owed
    ]])
    return { report, sentBeforeCrash, sent: proxy.sent }
  }).pipe(Effect.scoped)

describe("Keeper vault sweep crash safety (spawned processes, kill -9)", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, blockhashValidity: 100_000, seed: "keeper-sweep-crash" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })(
    (it) => {
      it.effect("killed after the sweep was journaled (not sent), or after it was sent: the restart lands the same bytes, asks for no second sweep, pays once", () =>
        Effect.gen(function*() {
          const dir = temporaryDirectory("keeper-sweep-crash-keys-")
          const wallets = yield* Effect.forEach([0, 1], (i) => keyFile(dir, `p${i}`))
          const sandbox = yield* sandboxApi
          for (const wallet of wallets) {
            yield* sandbox.sandbox.airdrop({ payload: { address: wallet.signer.publicKey, lamports: 1n * SOL } })
            yield* partnerVault(wallet.signer.publicKey)
          }

          // killed after the signed sweep was journaled, before it was sent: the restart sends the same bytes
          const journaled = yield* scenario(wallets[0]!, "after-journal:sweep")
          assert.strictEqual(journaled.sentBeforeCrash, 0)
          assert.isAtLeast(journaled.report.reconciled.rebroadcast, 1)

          // killed after the sweep was sent, before it was confirmed: the restart finds it landed
          const sent = yield* scenario(wallets[1]!, "after-send:sweep")
          assert.strictEqual(sent.sentBeforeCrash, 1)
          assert.strictEqual(sent.report.reconciled.rebroadcast, 0)
        }))
    }
  )
})
