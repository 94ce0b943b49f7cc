/**
 * Crash safety, with the keeper as a separate OS process (`feeshare keeper once` from the
 * sources): it stops at a hook (after a stage was journaled, or after it was sent and before
 * it was confirmed), prints a line, and is killed with SIGKILL; a second process finishes.
 * Every `sendTransaction` goes through a recording proxy in front of the sandbox's /rpc.
 * Blockhashes stay valid for the whole test (a restart of a keeper process outlives the default
 * 150 blocks of 20 ms), so the journaled bytes can always still land: no stage may be rebuilt.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { address, createSolanaRpc } from "@solana/kit"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  type KeyFile,
  keyFile,
  ledgerFates,
  owed,
  positions,
  recordingProxy,
  sandboxLayer,
  solBalance,
  temporaryDirectory,
  wsolAccount,
  wsolBalance
} from "./support/fixture.js"
import { keeperProcess, type Report } from "./support/keeperProcess.js"

/**
 * The restart's pass reports the run the crash cut short as one claim of what was owed (from
 * the journal: the restarted process saw nothing of the first one's pass).
 */
const assertClaimedOnce = (report: Report, amount: bigint) => {
  const positions = report.wallets.flatMap((w) => w.positions)
  assert.deepStrictEqual(positions.map((p) => [p.outcome, String(p.lamports)]), [["claimed", String(amount)]])
}

const scenario = (wallet: KeyFile, hook: string) =>
  Effect.gen(function*() {
    const proxy = yield* recordingProxy
    const dir = temporaryDirectory("keeper-crash-")
    const config = join(dir, "keeper.json")
    writeFileSync(
      config,
      JSON.stringify({ wallets: [{ keypair: wallet.path }], transactionFormat: "v1", database: "keeper.db" })
    )
    const owner = wallet.signer.publicKey
    const [before] = [...(yield* owed([wallet])).values()]
    const amount = [...(before?.values() ?? [])].reduce((s, n) => s + BigInt(n), 0n)
    assert.isTrue(amount > 0n)
    const wsolBefore = yield* wsolBalance(owner)
    const solBefore = yield* solBalance(owner)

    const crashed = yield* keeperProcess({ config, rpcUrl: proxy.url, hook })
    assert.strictEqual(crashed.signal, "SIGKILL", crashed.stderr)
    assert.include(crashed.stderr, `keeper-hook ${hook.replace(":", " ")}`)
    const sentBeforeCrash = proxy.sent.length

    const resumed = yield* keeperProcess({ config, rpcUrl: proxy.url })
    assert.strictEqual(resumed.code, 0, resumed.stderr)
    const report = JSON.parse(resumed.stdout) as Report
    // with --json the log lines on stderr are JSON objects too
    const logLines = resumed.stderr.split("\n").filter((line) => line.trim() !== "")
    assert.isAbove(logLines.length, 0)
    for (const line of logLines) assert.include(Object.keys(JSON.parse(line) as object), "level", line)

    // every position claimed once: the balance rose by exactly what was owed; nothing is owed now
    assert.strictEqual((yield* wsolBalance(owner)) - wsolBefore, amount)
    const [after] = [...(yield* owed([wallet])).values()]
    assert.deepStrictEqual([...(after?.values() ?? [])], [...(after?.values() ?? [])].map(() => 0))

    // the proxy's record: two stages (payout account, claim), each one signed transaction, both landed
    const fates = yield* ledgerFates(proxy.sent)
    assert.strictEqual(fates.length, 2, `distinct transactions sent: ${fates.map((f) => f.signature).join(", ")}`)
    for (const fate of fates) assert.deepStrictEqual([fate.landed, fate.err], [true, null], fate.signature)

    // fees paid = fees of the landed transactions (the rest went to rent: the receipt and the WSOL account)
    const info = yield* SandboxInfo
    const rpc = createSolanaRpc(info.rpcUrl)
    const receiptRent = yield* Effect.promise(() => rpc.getMinimumBalanceForRentExemption(0n).send())
    const ata = yield* wsolAccount(owner)
    const ataLamports = (yield* Effect.promise(() => rpc.getBalance(address(ata)).send())).value
    const ataRent = ataLamports - (yield* wsolBalance(owner))
    const fees = fates.reduce((s, f) => s + f.fee, 0n)
    assert.strictEqual(solBefore - (yield* solBalance(owner)), fees + receiptRent + ataRent)
    return { amount, report, sentBeforeCrash, sent: proxy.sent, fates }
  }).pipe(Effect.scoped)

describe("Keeper crash safety (spawned processes, kill -9)", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, blockhashValidity: 100_000, seed: "keeper-crash" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })(
    (it) => {
      it.effect("killed after the claim stage was sent, before it was confirmed: the restart finds it landed, sends nothing new", () =>
        Effect.gen(function*() {
          const dir = temporaryDirectory("keeper-crash-keys-")
          const wallets = yield* Effect.forEach([0, 1], (i) => keyFile(dir, `w${i}`))
          yield* positions({ wallets, tokens: 1, claimersPerToken: 2, buySol: () => 2n })

          const { amount, report, sent, sentBeforeCrash } = yield* scenario(wallets[0]!, "after-send:claim")
          // both stages went out before the kill; the restart sent nothing
          assert.strictEqual(sentBeforeCrash, 2)
          assert.strictEqual(sent.length, 2)
          assert.strictEqual(report.reconciled.rebroadcast, 0)
          assertClaimedOnce(report, amount)

          // killed after both stages were journaled, before any was sent: the restart sends the same bytes
          const second = yield* scenario(wallets[1]!, "after-journal:claim")
          assert.strictEqual(second.sentBeforeCrash, 0)
          // the pass settles the journal first: the same bytes went out again
          assert.isAtLeast(second.report.reconciled.rebroadcast, 1)
          assert.isAtLeast(second.sent.length, 2)
          assertClaimedOnce(second.report, second.amount)
          assert.isTrue(second.sent.every((s) => s.accepted))
        }))
    }
  )
})
