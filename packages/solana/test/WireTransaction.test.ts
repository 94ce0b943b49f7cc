import { assert, describe, it } from "@effect/vitest"
import type { Plan } from "@feeshare/domain"
import { Signer, WireTransaction as Wire } from "@feeshare/domain"
import {
  generateKeyPairSigner,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type KeyPairSigner,
  type SignatureBytes,
  verifySignature
} from "@solana/kit"
import { Effect, Either, Option } from "effect"
import * as LocalSigner from "../src/LocalSigner.js"
import * as WireTransaction from "../src/WireTransaction.js"
import {
  appendBytes,
  buildLegacy,
  buildStage,
  flipByte,
  randomBlockhash,
  requireSigner,
  sha256Hex,
  transfer
} from "./helpers/StageBuilder.js"

interface Fixture {
  readonly server: KeyPairSigner
  readonly caller: KeyPairSigner
  readonly other: KeyPairSigner
  readonly v0: Plan.Stage
  readonly v1: Plan.Stage
}

const fixture = Effect.promise(async (): Promise<Fixture> => {
  const [server, caller, other, dest] = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner()
  ])
  const lifetime = { blockhash: randomBlockhash(), lastValidBlockHeight: 500n }
  const budget = { computeUnitLimit: 50_000, loadedAccountsDataSizeLimit: 64 * 1024, priorityFee: 7n }
  const spec = { feePayer: server, instructions: [transfer(caller.address, dest.address, 1_000n)], lifetime, budget }
  return {
    server,
    caller,
    other,
    v0: await buildStage({ ...spec, id: "claim-v0", format: "v0" }),
    v1: await buildStage({ ...spec, id: "claim-v1", format: "v1" })
  }
})

/** A signer that counts its signatures. */
const counting = (signer: Signer.Signer.Service) => {
  let calls = 0
  const service: Signer.Signer.Service = {
    publicKey: signer.publicKey,
    signMessage: (message) =>
      Effect.suspend(() => {
        calls++
        return signer.signMessage(message)
      })
  }
  return { service, calls: () => calls }
}

/** Verify then sign; returns the refusal tag and how many signatures were made. */
const refusal = (stage: Plan.Stage, signer: Signer.Signer.Service) =>
  Effect.gen(function*() {
    const spy = counting(signer)
    const result = yield* WireTransaction.verifyStage(stage, [spy.service]).pipe(
      Effect.flatMap(WireTransaction.sign),
      Effect.either
    )
    assert.strictEqual(spy.calls(), 0, "no signature may be produced")
    if (Either.isRight(result)) return assert.fail("expected a refusal")
    const error = result.left
    assert.strictEqual(error._tag === "SignerError" ? "" : error.stage, stage.id)
    assert.include(error.message, stage.id)
    return error._tag
  })

const messageLength = (stage: Plan.Stage) =>
  getTransactionDecoder().decode(Wire.toBytes(stage.transaction, "base64")!).messageBytes.length

/** Index of the last instruction-data byte (the transfer amount's top byte) within the wire bytes. */
const lastMessageByte = (stage: Plan.Stage): number => {
  const total = Wire.toBytes(stage.transaction, "base64")!.length
  // v1: the message comes first and ends with the instruction data; v0: the message ends
  // with the instruction data and then the (empty) lookup-table count.
  return stage.format === "v1" ? messageLength(stage) - 1 : total - 2
}

const withTransaction = (stage: Plan.Stage, transaction: string, rehash: boolean): Plan.Stage => {
  if (!rehash) return { ...stage, transaction }
  const bytes = getTransactionDecoder().decode(Wire.toBytes(transaction, "base64")!).messageBytes
  return { ...stage, transaction, messageSha256: sha256Hex(new Uint8Array(bytes)) }
}

describe("WireTransaction.verifyStage", () => {
  for (const format of ["v0", "v1"] as const) {
    it.effect(`${format}: verifies, co-signs, keeps the service's signature and the base64 encoding`, () =>
      Effect.gen(function*() {
        const f = yield* fixture
        const stage = f[format]
        const signer = LocalSigner.fromKeyPairSigner(f.caller)
        const verified = yield* WireTransaction.verifyStage(stage, [signer])
        assert.strictEqual(verified.decoded.version, format === "v1" ? 1 : 0)
        const signed = yield* WireTransaction.sign(verified)
        assert.isTrue(WireTransaction.isFullySigned(signed))
        const before = getTransactionDecoder().decode(Wire.toBytes(stage.transaction, "base64")!)
        const after = getTransactionDecoder().decode(Wire.toBytes(signed.text, "base64")!)
        assert.deepStrictEqual([...after.messageBytes], [...before.messageBytes])
        assert.deepStrictEqual(after.signatures[f.server.address], before.signatures[f.server.address])
        assert.strictEqual(signed.text.length, stage.transaction.length)
        const callerSignature = after.signatures[f.caller.address]
        assert.isTrue(callerSignature !== null && callerSignature !== undefined)
        const ok = yield* Effect.promise(async () =>
          verifySignature(
            await getPublicKeyFromAddress(f.caller.address),
            callerSignature as SignatureBytes,
            after.messageBytes
          )
        )
        assert.isTrue(ok)
        assert.deepStrictEqual(signed.lastValidBlockHeight, Option.some(500n))
      }))

    it.effect(`${format}: every refusal has its own tag and produces no signature`, () =>
      Effect.gen(function*() {
        const f = yield* fixture
        const stage = f[format]
        const signer = LocalSigner.fromKeyPairSigner(f.caller)
        const stranger = yield* LocalSigner.generate
        const flipped = flipByte(stage.transaction, lastMessageByte(stage))
        const forged = flipByte(stage.transaction, format === "v1" ? -64 * 2 + 3 : 1 + 3)
        const cases: ReadonlyArray<readonly [string, Plan.Stage, Signer.Signer.Service, string]> = [
          ["flipped message byte", { ...stage, transaction: flipped }, signer, "MessageHashMismatch"],
          ["flipped byte, hash restated", withTransaction(stage, flipped, true), signer, "InvalidSignature"],
          [
            "appended bytes",
            { ...stage, transaction: appendBytes(stage.transaction, [1, 2, 3]) },
            signer,
            "NonCanonicalTransaction"
          ],
          ["not base64", { ...stage, transaction: "@@@@" }, signer, "MalformedTransaction"],
          ["wrong hash", { ...stage, messageSha256: "0".repeat(64) }, signer, "MessageHashMismatch"],
          [
            "extra signer in the message",
            { ...stage, requiredSigners: [f.server.address] },
            signer,
            "UnexpectedSigner"
          ],
          [
            "missing signer in the message",
            { ...stage, requiredSigners: [...stage.requiredSigners, f.other.address] },
            signer,
            "MissingSigner"
          ],
          ["forged existing signature", { ...stage, transaction: forged }, signer, "InvalidSignature"],
          [
            "mismatched lifetime",
            { ...stage, lifetime: { ...stage.lifetime, blockhash: randomBlockhash() } },
            signer,
            "LifetimeMismatch"
          ],
          [
            "mismatched compute-unit limit",
            { ...stage, budget: { ...stage.budget, computeUnitLimit: 50_001 } },
            signer,
            "BudgetMismatch"
          ],
          [
            "mismatched loaded-data limit",
            { ...stage, budget: { ...stage.budget, loadedAccountsDataSizeLimit: 1 } },
            signer,
            "BudgetMismatch"
          ],
          [
            "mismatched priority fee",
            { ...stage, budget: { ...stage.budget, priorityFee: { ...stage.budget.priorityFee, amount: 8n } } },
            signer,
            "BudgetMismatch"
          ],
          [
            "mismatched size",
            { ...stage, size: { ...stage.size, bytes: stage.size.bytes + 1 } },
            signer,
            "SizeMismatch"
          ],
          [
            "mismatched account count",
            { ...stage, size: { ...stage.size, accounts: stage.size.accounts + 1 } },
            signer,
            "SizeMismatch"
          ],
          ["mismatched format", { ...stage, format: format === "v1" ? "v0" : "v1" }, signer, "FormatMismatch"],
          ["a signer not in requiredSigners", stage, stranger, "SignerNotRequired"]
        ]
        for (const [name, input, local, tag] of cases) {
          assert.strictEqual(yield* refusal(input, local), tag, name)
        }
      }))
  }

  it.effect("v1 without limits is refused", () =>
    Effect.gen(function*() {
      const f = yield* fixture
      const stage = yield* Effect.promise(() =>
        buildStage({
          id: "no-limits",
          format: "v1",
          feePayer: f.server,
          instructions: [transfer(f.caller.address, f.other.address, 1n)],
          lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 9n },
          omitV1Limits: true
        })
      )
      assert.strictEqual(yield* refusal(stage, LocalSigner.fromKeyPairSigner(f.caller)), "MissingV1Limits")
    }))

  it.effect("a required signature that nobody local can give is refused", () =>
    Effect.gen(function*() {
      const f = yield* fixture
      const stage = yield* Effect.promise(() =>
        buildStage({
          id: "needs-other",
          format: "v0",
          feePayer: f.server,
          instructions: [transfer(f.caller.address, f.server.address, 1n), requireSigner(f.other.address)],
          lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 9n }
        })
      )
      assert.strictEqual(yield* refusal(stage, LocalSigner.fromKeyPairSigner(f.caller)), "SignatureUnavailable")
      // with both keys it verifies and signs both
      const verified = yield* WireTransaction.verifyStage(stage, [
        LocalSigner.fromKeyPairSigner(f.caller),
        LocalSigner.fromKeyPairSigner(f.other)
      ])
      assert.isTrue(WireTransaction.isFullySigned(yield* WireTransaction.sign(verified)))
    }))
})

describe("WireTransaction: launch, swap and entries (base58)", () => {
  it.effect("launch: the mint's signature present and valid; the wallet the fee payer and its slot the only empty one", () =>
    Effect.gen(function*() {
      const [wallet, mint, other] = yield* Effect.promise(() =>
        Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()])
      )
      const blockhash = randomBlockhash()
      const instructions = [transfer(wallet.address, other.address, 1n), requireSigner(mint.address)]
      const text = yield* Effect.promise(() =>
        buildLegacy({ feePayer: wallet.address, signNow: [mint], instructions, blockhash })
      )
      const walletSigner = LocalSigner.fromKeyPairSigner(wallet)
      const signed = yield* WireTransaction.verifyLaunch(text, { mint: mint.address, signers: [walletSigner] }).pipe(
        Effect.flatMap(WireTransaction.sign)
      )
      assert.isTrue(WireTransaction.isFullySigned(signed))
      assert.isTrue(Wire.toBytes(signed.text, "base58") !== undefined)
      assert.notInclude(signed.text, "+")

      const unsignedByMint = yield* Effect.promise(() =>
        buildLegacy({ feePayer: wallet.address, signNow: [], instructions, blockhash })
      )
      const tag = (input: string, mintKey: string, signer: Signer.Signer.Service) =>
        WireTransaction.verifyLaunch(input, { mint: mintKey, signers: [signer] }).pipe(
          Effect.flip,
          Effect.map((e) => e._tag)
        )
      assert.strictEqual(yield* tag(unsignedByMint, mint.address, walletSigner), "SignatureUnavailable")
      assert.strictEqual(yield* tag(text, other.address, walletSigner), "MissingSigner")
      // a wallet that is not the fee payer does not sign
      assert.strictEqual(yield* tag(text, mint.address, LocalSigner.fromKeyPairSigner(other)), "FeePayerMismatch")
      // another empty slot is refused, even when a local signer could fill it
      const third = yield* Effect.promise(() =>
        buildLegacy({
          feePayer: wallet.address,
          signNow: [mint],
          instructions: [...instructions, requireSigner(other.address)],
          blockhash
        })
      )
      const refused = yield* WireTransaction.verifyLaunch(third, {
        mint: mint.address,
        signers: [walletSigner, LocalSigner.fromKeyPairSigner(other)]
      }).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "SignatureUnavailable")
      const bytes = Wire.toBytes(text, "base58")!
      bytes[1 + 64 + 5] = bytes[1 + 64 + 5]! ^ 1 // the mint's signature (second slot)
      assert.strictEqual(yield* tag(Wire.fromBytes(bytes, "base58"), mint.address, walletSigner), "InvalidSignature")
    }))

  it.effect("entries: the blockhash must be the entry's; swap: a stated compute-unit limit must match", () =>
    Effect.gen(function*() {
      const [wallet, other] = yield* Effect.promise(() =>
        Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
      )
      const blockhash = randomBlockhash()
      const text = yield* Effect.promise(() =>
        buildLegacy({
          feePayer: wallet.address,
          signNow: [],
          instructions: [transfer(wallet.address, other.address, 1n)],
          blockhash,
          computeUnitLimit: 90_000
        })
      )
      const signer = LocalSigner.fromKeyPairSigner(wallet)
      const entry = { blockhash: { blockhash, lastValidBlockHeight: 77 }, transaction: text }
      const verified = yield* WireTransaction.verifyEntry(entry, [signer], "entry 0")
      assert.deepStrictEqual(verified.lastValidBlockHeight, Option.some(77n))
      const wrong = yield* WireTransaction.verifyEntry(
        { ...entry, blockhash: { ...entry.blockhash, blockhash: randomBlockhash() } },
        [signer],
        "entry 0"
      ).pipe(Effect.flip)
      assert.strictEqual(wrong._tag, "LifetimeMismatch")
      assert.strictEqual(wrong.stage, "entry 0")

      const swap = { swapTransaction: text, computeUnitLimit: 90_000, lastValidBlockHeight: 88 }
      assert.isTrue(WireTransaction.isFullySigned(
        yield* WireTransaction.verifySwap(swap, [signer]).pipe(Effect.flatMap(WireTransaction.sign))
      ))
      const badBudget = yield* WireTransaction.verifySwap({ ...swap, computeUnitLimit: 1 }, [signer]).pipe(Effect.flip)
      assert.strictEqual(badBudget._tag, "BudgetMismatch")
    }))
})
