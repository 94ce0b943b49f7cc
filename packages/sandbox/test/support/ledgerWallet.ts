/** Test helpers: plain Kit signers that co-sign what the market returns and land it on the ledger. */
import { assert } from "@effect/vitest"
import { Plan as PlanModule } from "@feeshare/domain"
import type { Plan } from "@feeshare/domain"
import {
  type Address,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
  verifySignature
} from "@solana/kit"
import { Effect, Exit, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { tokenAmount } from "../../src/internal/model/programs.js"
import * as Ledger from "../../src/Ledger.js"
import type { Rejection } from "../../src/Market.js"

/** Lamports per SOL. */
export const SOL = 1_000_000_000n

/** A fresh Kit signer, funded on the ledger. */
export const wallet = (lamports = 100n * SOL) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger.Ledger
    const signer = yield* Effect.promise(() => generateKeyPairSigner())
    if (lamports > 0n) yield* ledger.airdrop(signer.address, lamports)
    return signer
  })

/** The `Rejection` an effect fails with (the test fails if it succeeds). */
export const rejection = <A>(effect: Effect.Effect<A, Rejection>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    assert.isTrue(Exit.isFailure(exit), "expected a rejection")
    if (Exit.isFailure(exit) && exit.cause._tag === "Fail") return exit.cause.error
    throw new Error("expected a Rejection failure")
  })

const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

/** Decodes base58 or base64 wire text. */
export const wireBytes = (text: string, encoding: "base58" | "base64"): Uint8Array =>
  new Uint8Array(encoding === "base58" ? getBase58Encoder().encode(text) : getBase64Encoder().encode(text))

/** Adds the signatures of `signers` (keeping the ones present) and sends it to the ledger. */
export const signAndSend = (
  text: string,
  encoding: "base58" | "base64",
  signers: ReadonlyArray<KeyPairSigner>,
  options: Ledger.SendOptions = {}
) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger.Ledger
    const transaction = transactionDecoder.decode(wireBytes(text, encoding))
    const signed = yield* Effect.promise(() => partiallySignTransaction(signers.map((s) => s.keyPair), transaction))
    return yield* ledger.send(new Uint8Array(transactionEncoder.encode(signed)), options)
  })

/** The landed status of a signature (fails the test when it did not land cleanly). */
export const assertLanded = (signature: string) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger.Ledger
    const [status] = yield* ledger.statuses([signature], true)
    assert.isNotNull(status, `${signature} did not land`)
    assert.isNull(status?.err ?? null, `${signature} failed: ${JSON.stringify(status?.err)}`)
  })

/** Wrapped-SOL (or any token) amount held by a token account; 0 when it does not exist. */
export const tokenBalance = (account: Address) =>
  Effect.map(Ledger.Ledger, (ledger) => ledger).pipe(
    Effect.flatMap((ledger) => ledger.account(account)),
    Effect.map((found) => Option.match(found, { onNone: () => 0n, onSome: (a) => tokenAmount(a.data) ?? 0n }))
  )

/**
 * Recomputes every piece of a stage's metadata from its bytes: SHA-256 of the message,
 * signers of the header, lifetime, size, budget, and the validity of every present signature.
 */
export const verifyStage = (stage: Plan.Stage) =>
  Effect.gen(function*() {
    Schema.decodeUnknownSync(PlanModule.Stage)(Schema.encodeSync(PlanModule.Stage)(stage))
    const wire = wireBytes(stage.transaction, "base64")
    const transaction = transactionDecoder.decode(wire)
    assert.deepStrictEqual(new Uint8Array(transactionEncoder.encode(transaction)), wire, "canonical encoding")
    const [compiled, end] = messageDecoder.read(transaction.messageBytes, 0)
    assert.strictEqual(end, transaction.messageBytes.length)
    assert.strictEqual(
      createHash("sha256").update(new Uint8Array(transaction.messageBytes)).digest("hex"),
      stage.messageSha256
    )
    const signers = compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts)
    assert.deepStrictEqual([...stage.requiredSigners], signers)
    assert.strictEqual(compiled.lifetimeToken, stage.lifetime.blockhash)
    let lookups = 0
    if (compiled.version === 0) {
      for (const table of compiled.addressTableLookups ?? []) {
        lookups += table.readonlyIndexes.length + table.writableIndexes.length
      }
    }
    assert.deepStrictEqual(stage.size, {
      bytes: wire.length,
      accounts: compiled.staticAccounts.length + lookups,
      signatures: compiled.header.numSignerAccounts
    })
    assert.strictEqual(compiled.version, stage.format === "v1" ? 1 : 0)
    const view = new DataView(transaction.messageBytes.buffer, transaction.messageBytes.byteOffset)
    if (compiled.version === 1) {
      // mask: priority fee (bits 0+1), compute-unit limit (bit 2), loaded-data limit (bit 3)
      const mask = view.getUint32(4, true)
      assert.strictEqual(mask & 0b1111, 0b1111)
      const values = 42 + 32 * compiled.staticAccounts.length
      assert.strictEqual(view.getBigUint64(values, true), stage.budget.priorityFee.amount)
      assert.strictEqual(view.getUint32(values + 8, true), stage.budget.computeUnitLimit)
      assert.strictEqual(view.getUint32(values + 12, true), stage.budget.loadedAccountsDataSizeLimit)
      assert.strictEqual(stage.budget.priorityFee.unit, "total_lamports")
    } else {
      const budgetProgram = compiled.staticAccounts.indexOf("ComputeBudget111111111111111111111111111111" as Address)
      const found = new Map<number, Uint8Array>()
      for (const instruction of compiled.instructions) {
        if (instruction.programAddressIndex === budgetProgram && instruction.data !== undefined) {
          found.set(instruction.data[0] ?? -1, new Uint8Array(instruction.data))
        }
      }
      const read = (tag: number) => {
        const data = found.get(tag)
        assert.isDefined(data, `compute-budget instruction ${tag}`)
        return new DataView((data ?? new Uint8Array(9)).buffer)
      }
      assert.strictEqual(read(2).getUint32(1, true), stage.budget.computeUnitLimit)
      assert.strictEqual(read(3).getBigUint64(1, true), stage.budget.priorityFee.amount)
      assert.strictEqual(read(4).getUint32(1, true), stage.budget.loadedAccountsDataSizeLimit)
      assert.strictEqual(stage.budget.priorityFee.unit, "micro_lamports_per_compute_unit")
    }
    const present: Array<string> = []
    for (const [signer, signature] of Object.entries(transaction.signatures)) {
      if (signature === null) continue
      present.push(signer)
      const key = yield* Effect.promise(() => getPublicKeyFromAddress(signer as Address))
      assert.isTrue(
        yield* Effect.promise(() => verifySignature(key, signature, transaction.messageBytes)),
        `signature of ${signer} verifies`
      )
    }
    return { present, signers, compiled }
  })
