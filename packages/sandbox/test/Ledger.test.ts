import { assert, describe, it } from "@effect/vitest"
import { build } from "@feeshare/solana/StageBuilder"
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Duration, Effect, Exit, Option, TestClock } from "effect"
import { deriveSigner } from "../src/internal/model/keys.js"
import { transferSol } from "../src/internal/model/programs.js"
import * as Ledger from "../src/Ledger.js"
import * as Options from "../src/Options.js"

const options = (overrides: Partial<Options.Options> = {}) => Options.make({ slotMillis: 400, ...overrides })

const funded = (ledger: Ledger.Ledger.Service) =>
  Effect.gen(function*() {
    const payer = yield* Effect.promise(() => generateKeyPairSigner())
    yield* ledger.airdrop(payer.address, 10_000_000_000n)
    return payer
  })

const transfer = (
  ledger: Ledger.Ledger.Service,
  payer: KeyPairSigner,
  lamports: bigint,
  format: "legacy" | "v0" | "v1" = "v0"
) =>
  Effect.gen(function*() {
    const clock = yield* ledger.clock
    const destination = yield* Effect.promise(() => generateKeyPairSigner())
    const built = yield* Effect.promise(() =>
      build({
        format,
        feePayer: payer.address,
        instructions: [transferSol(payer.address, destination.address, lamports)],
        lifetime: { blockhash: clock.blockhash, lastValidBlockHeight: clock.lastValidBlockHeight },
        signers: [payer],
        budget: {
          computeUnitLimit: 10_000,
          loadedAccountsDataSizeLimit: 65_536,
          priorityFee: format === "v1" ? 3_000n : 1_000n
        }
      })
    )
    return { built, destination: destination.address }
  })

describe("Ledger", () => {
  it.effect("the block clock ticks with the Clock and rotates blockhashes valid for blockhashValidity blocks", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const start = yield* ledger.clock
      assert.strictEqual(start.lastValidBlockHeight, start.blockHeight + 150n)
      yield* TestClock.adjust(Duration.millis(400 * 5))
      const later = yield* ledger.clock
      assert.strictEqual(later.slot, start.slot + 5n)
      assert.strictEqual(later.blockHeight, start.blockHeight + 5n)
      assert.notStrictEqual(later.blockhash, start.blockhash)
      assert.strictEqual(later.lastValidBlockHeight, later.blockHeight + 150n)
      assert.isTrue(yield* ledger.isBlockhashValid(start.blockhash))
      const advanced = yield* ledger.advance(146)
      assert.strictEqual(advanced.slot, later.slot + 146n)
      assert.isFalse(yield* ledger.isBlockhashValid(start.blockhash))
      assert.isTrue(yield* ledger.isBlockhashValid(later.blockhash))
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("watch: the new slots of every move, ascending (the last 512 of a long one), until the scope closes", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const seen: Array<ReadonlyArray<bigint>> = []
      const landed: Array<string> = []
      // funded before watching: an airdrop is a transaction too
      const payer = yield* funded(ledger)
      const start = (yield* ledger.clock).slot
      yield* Effect.scoped(Effect.gen(function*() {
        yield* ledger.watch({
          slots: (slots) => Effect.sync(() => void seen.push(slots)),
          landed: (event) => Effect.sync(() => void landed.push(event.signature))
        })
        yield* ledger.advance(3)
        yield* ledger.advance(0)
        yield* TestClock.adjust(Duration.millis(400))
        yield* ledger.advance(1000)
        const { built } = yield* transfer(ledger, payer, 1_000_000n)
        assert.deepStrictEqual(landed, [yield* ledger.send(built.wire)])
      }))
      assert.deepStrictEqual(seen.slice(0, 2), [[start + 1n, start + 2n, start + 3n], [start + 4n]])
      assert.deepStrictEqual(seen[2], Array.from({ length: 512 }, (_, i) => start + 4n + 1000n - 511n + BigInt(i)))
      // the watcher is gone with its scope
      yield* ledger.advance(1)
      assert.lengthOf(seen, 3)
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("a transaction lands; its status goes processed → confirmed → finalized by slot lag", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const payer = yield* funded(ledger)
      const landed: Array<Ledger.Landed> = []
      yield* ledger.onLanded((event) => Effect.sync(() => void landed.push(event)))
      const before = yield* ledger.balance(payer.address)
      const { built, destination } = yield* transfer(ledger, payer, 1_000_000n)
      const signature = yield* ledger.send(built.wire)
      assert.strictEqual(yield* ledger.balance(destination), 1_000_000n)
      assert.deepStrictEqual(landed.map((event) => [event.signature, event.messageSha256, event.err]), [
        [signature, built.messageSha256, null]
      ])
      const record = Option.getOrThrow(yield* ledger.transaction(signature))
      assert.strictEqual(before - (yield* ledger.balance(payer.address)), 1_000_000n + record.fee)
      assert.strictEqual(record.fee, 5_000n + 10n) // 10k CU at 1000 µlamports
      const status = () => Effect.map(ledger.statuses([signature], false), ([s]) => s?.confirmationStatus)
      assert.strictEqual(yield* status(), "processed")
      yield* ledger.advance(1)
      assert.strictEqual(yield* status(), "confirmed")
      yield* ledger.advance(31)
      assert.strictEqual(yield* status(), "finalized")
      yield* ledger.advance(300)
      assert.strictEqual(yield* status(), undefined)
      const [searched] = yield* ledger.statuses([signature], true)
      assert.strictEqual(searched?.confirmationStatus, "finalized")
      // a rebroadcast of a landed transaction is accepted and changes nothing
      assert.strictEqual(yield* ledger.send(built.wire, { skipPreflight: true }), signature)
      assert.strictEqual(landed.length, 1)
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("an expired blockhash fails preflight, and never lands with skipPreflight", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const payer = yield* funded(ledger)
      const { built, destination } = yield* transfer(ledger, payer, 1_000_000n, "v1")
      yield* ledger.advance(11)
      const exit = yield* Effect.exit(ledger.send(built.wire))
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
        assert.strictEqual(error?.code, -32002)
        assert.match(error?.message ?? "", /BlockhashNotFound/)
      }
      const signature = yield* ledger.send(built.wire, { skipPreflight: true })
      assert.deepStrictEqual(yield* ledger.statuses([signature], true), [null])
      assert.strictEqual(yield* ledger.balance(destination), 0n)
    }).pipe(Effect.provide(Ledger.layer(options({ blockhashValidity: 10 })))))

  it.effect("a failing transaction: preflight reports the logs; skipPreflight lands it with its error", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const payer = yield* funded(ledger)
      const { built } = yield* transfer(ledger, payer, 50_000_000_000n, "legacy")
      const error = yield* Effect.flip(ledger.send(built.wire))
      assert.strictEqual(error.code, -32002)
      const data = error.data as { err: unknown; logs: ReadonlyArray<string> }
      assert.deepStrictEqual(data.err, { InstructionError: [2, { Custom: 1 }] })
      assert.isTrue(data.logs.some((line) => line.includes("insufficient lamports")))
      const signature = yield* ledger.send(built.wire, { skipPreflight: true })
      const [status] = yield* ledger.statuses([signature], false)
      assert.deepStrictEqual(status?.err, { InstructionError: [2, { Custom: 1 }] })
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("dropped transactions are accepted and never land; drops are deterministic from the seed", () =>
    Effect.gen(function*() {
      const run = Effect.gen(function*() {
        const ledger = yield* Ledger.Ledger
        const payer = yield* Effect.promise(() => deriveSigner("test", "payer"))
        yield* ledger.airdrop(payer.address, 10_000_000_000n)
        const outcomes: Array<boolean> = []
        for (let i = 0; i < 16; i++) {
          const clock = yield* ledger.clock
          const destination = yield* Effect.promise(() => deriveSigner("test", `destination-${i}`))
          const built = yield* Effect.promise(() =>
            build({
              format: "legacy",
              feePayer: payer.address,
              instructions: [transferSol(payer.address, destination.address, 1_000_000n)],
              lifetime: { blockhash: clock.blockhash, lastValidBlockHeight: clock.lastValidBlockHeight },
              signers: [payer]
            })
          )
          const signature = yield* ledger.send(built.wire)
          const [status] = yield* ledger.statuses([signature], true)
          outcomes.push(status !== null)
          assert.strictEqual(yield* ledger.balance(destination.address), status === null ? 0n : 1_000_000n)
        }
        return outcomes
      })
      const first = yield* run.pipe(Effect.provide(Ledger.layer(options({ seed: "drops", dropRate: 0.5 }))))
      const second = yield* run.pipe(Effect.provide(Ledger.layer(options({ seed: "drops", dropRate: 0.5 }))))
      assert.isTrue(first.includes(true) && first.includes(false))
      assert.deepStrictEqual(second, first)
    }))

  it.effect("airdrops: identical requests in one slot are distinct transactions, and the faucet never runs dry", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const start = yield* ledger.clock
      const target = yield* Effect.promise(() => generateKeyPairSigner())
      const signatures = yield* Effect.forEach(
        Array.from({ length: 100 }),
        () => ledger.airdrop(target.address, 1_000_000_000n),
        { concurrency: 10 }
      )
      assert.strictEqual((yield* ledger.clock).slot, start.slot, "all in one slot")
      assert.strictEqual(new Set(signatures).size, 100)
      assert.strictEqual(yield* ledger.balance(target.address), 100n * 1_000_000_000n)
      const statuses = yield* ledger.statuses(signatures, false)
      assert.isTrue(statuses.every((status) => status?.err === null && status.slot === start.slot))
      const record = Option.getOrThrow(yield* ledger.transaction(signatures[0] ?? ""))
      assert.isTrue(record.accountKeys.includes(target.address), "an airdrop is a real transfer in the history")

      // the faucet is refilled: 200 airdrops at the limit (200M SOL) all land
      const whale = yield* Effect.promise(() => generateKeyPairSigner())
      for (let i = 0; i < 200; i++) yield* ledger.airdrop(whale.address, Ledger.maxAirdropLamports)
      assert.strictEqual(yield* ledger.balance(whale.address), 200n * Ledger.maxAirdropLamports)
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("airdrops refused with code -32602 and a message naming the field; nothing is credited", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const target = yield* Effect.promise(() => generateKeyPairSigner())
      const refused = (address: string, lamports: bigint) => Effect.flip(ledger.airdrop(address, lamports))
      for (const lamports of [0n, Ledger.maxAirdropLamports + 1n, 2n ** 64n, 10n ** 30n]) {
        const error = yield* refused(target.address, lamports)
        assert.strictEqual(error.code, -32602)
        assert.strictEqual(
          error.message,
          `lamports must be between 1 and 1000000000000000 (1,000,000 SOL) per airdrop; got ${lamports}`
        )
      }
      const dust = yield* refused(target.address, 1n)
      assert.strictEqual(
        dust.message,
        `lamports: 1 would leave ${target.address} below the rent-exempt minimum of 890880 lamports`
      )
      assert.strictEqual(yield* ledger.balance(target.address), 0n)
      assert.match(
        (yield* refused("not-a-key", 1_000_000_000n)).message,
        /^address: not-a-key is not a base58 public key$/
      )
      assert.match(
        (yield* refused("SysvarC1ock11111111111111111111111111111111", 1_000_000_000n)).message,
        /^address: SysvarC1ock1+ is a reserved account/
      )
      assert.match(
        (yield* refused("11111111111111111111111111111111", 1_000_000_000n)).message,
        /^address: 1+ cannot receive lamports/
      )
      // a valid airdrop after the refusals still lands
      yield* ledger.airdrop(target.address, 1_000_000_000n)
      assert.strictEqual(yield* ledger.balance(target.address), 1_000_000_000n)
    }).pipe(Effect.provide(Ledger.layer(options()))))

  it.effect("dropRate 1 drops everything", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger.Ledger
      const payer = yield* funded(ledger)
      const { built, destination } = yield* transfer(ledger, payer, 1_000_000n)
      const signature = yield* ledger.send(built.wire)
      assert.deepStrictEqual(yield* ledger.statuses([signature], true), [null])
      assert.strictEqual(yield* ledger.balance(destination), 0n)
    }).pipe(Effect.provide(Ledger.layer(options({ dropRate: 1 })))))
})
