/**
 * Kit signers as the `Signer` port, tested with Kit's own implementation (`generateKeyPairSigner`,
 * which is both a transaction and a message signer) seen through one interface at a time, as a
 * wallet-standard wallet is: stages of both formats are signed only after verification, the
 * wallet sees a transaction with every required signer's slot, a login message goes to
 * `signMessages`, and a wallet that answers badly is refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { Signer } from "@feeshare/domain"
import {
  generateKeyPairSigner,
  getPublicKeyFromAddress,
  type KeyPairSigner,
  type MessagePartialSigner,
  type SignatureBytes,
  signBytes,
  type TransactionPartialSigner,
  verifySignature
} from "@solana/kit"
import { Effect, Either } from "effect"
import * as KitSigner from "../src/KitSigner.js"
import * as TransactionSigning from "../src/TransactionSigning.js"
import * as TransactionVerification from "../src/TransactionVerification.js"
import { buildStage, flipByte, randomBlockhash, transfer } from "./helpers/StageBuilder.js"

const keys = Effect.promise(async () => ({
  server: await generateKeyPairSigner(),
  caller: await generateKeyPairSigner(),
  dest: await generateKeyPairSigner()
}))

const stageFor = (format: "v0" | "v1", server: KeyPairSigner, caller: KeyPairSigner, dest: KeyPairSigner) =>
  Effect.promise(() =>
    buildStage({
      id: "claim",
      format,
      feePayer: server,
      instructions: [transfer(caller.address, dest.address, 1_000n)],
      lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000n }
    })
  )

/** The key's transaction-signing face alone, counting what it was asked to sign. */
const transactionsOnly = (key: KeyPairSigner) => {
  const seen: Array<{ readonly slots: ReadonlyArray<string> }> = []
  const signer: TransactionPartialSigner = {
    address: key.address,
    signTransactions: (transactions, config) => {
      for (const transaction of transactions) seen.push({ slots: Object.keys(transaction.signatures) })
      return key.signTransactions(transactions, config)
    }
  }
  return { signer, seen }
}

/** The key's message-signing face alone. */
const messagesOnly = (key: KeyPairSigner) => {
  let asked = 0
  const signer: MessagePartialSigner = {
    address: key.address,
    signMessages: (messages, config) => {
      asked += messages.length
      return key.signMessages(messages, config)
    }
  }
  return { signer, asked: () => asked }
}

const signatureOf = (signed: TransactionSigning.Signed, address: string) =>
  signed.transaction.signatures[address as keyof typeof signed.transaction.signatures]

describe("KitSigner", () => {
  for (const format of ["v0", "v1"] as const) {
    it.effect(`${format}: a transaction signer and a message signer each sign a verified stage; the signature verifies`, () =>
      Effect.gen(function*() {
        const { caller, dest, server } = yield* keys
        const stage = yield* stageFor(format, server, caller, dest)
        const wallet = transactionsOnly(caller)
        const messages = messagesOnly(caller)
        for (const signer of [KitSigner.fromKitSigner(wallet.signer), KitSigner.fromKitSigner(messages.signer)]) {
          const verified = yield* TransactionVerification.verifyStage(stage, [signer])
          const signed = yield* TransactionSigning.sign(verified)
          const signature = signatureOf(signed, caller.address)
          assert.isTrue(signature !== null && signature !== undefined)
          const key = yield* Effect.promise(() => getPublicKeyFromAddress(caller.address))
          assert.isTrue(
            yield* Effect.promise(() =>
              verifySignature(key, signature as SignatureBytes, signed.transaction.messageBytes)
            )
          )
          assert.isTrue(TransactionSigning.isFullySigned(signed))
        }
        // the wallet saw one transaction with a slot for the fee payer and one for itself
        assert.deepStrictEqual(wallet.seen.map((t) => [...t.slots].sort()), [[caller.address, server.address].sort()])
        assert.strictEqual(messages.asked(), 1)
      }))
  }

  it.effect("a tampered stage is refused before the wallet is asked", () =>
    Effect.gen(function*() {
      const { caller, dest, server } = yield* keys
      const stage = yield* stageFor("v1", server, caller, dest)
      const wallet = transactionsOnly(caller)
      const tampered = { ...stage, transaction: flipByte(stage.transaction, -1) }
      const refused = yield* Effect.either(
        TransactionVerification.verifyStage(tampered, [KitSigner.fromKitSigner(wallet.signer)])
      )
      assert.isTrue(Either.isLeft(refused))
      assert.strictEqual(wallet.seen.length, 0)
    }))

  it.effect("a login message goes to signMessages; a transaction-only wallet refuses it with SignerError", () =>
    Effect.gen(function*() {
      const { caller } = yield* keys
      const message = new TextEncoder().encode("Sign in to feeshare\nnonce: 6b1f0c")
      const signature = yield* KitSigner.fromKitSigner(messagesOnly(caller).signer).signMessage(message)
      const key = yield* Effect.promise(() => getPublicKeyFromAddress(caller.address))
      assert.isTrue(yield* Effect.promise(() => verifySignature(key, signature as SignatureBytes, message)))
      const refused = yield* Effect.flip(KitSigner.fromKitSigner(transactionsOnly(caller).signer).signMessage(message))
      assert.instanceOf(refused, Signer.SignerError)
      assert.include(refused.message, "signs only transactions")
    }))

  it.effect("a wallet that answers with another key's signature, or throws, is refused with SignerError", () =>
    Effect.gen(function*() {
      const { caller, dest } = yield* keys
      const message = new TextEncoder().encode("Sign in to feeshare")
      const lying: MessagePartialSigner = {
        address: caller.address,
        signMessages: async (messages) =>
          Promise.all(
            messages.map(async (m) => ({ [caller.address]: await signBytes(dest.keyPair.privateKey, m.content) }))
          )
      }
      const wrong = yield* Effect.flip(KitSigner.fromKitSigner(lying).signMessage(message))
      assert.include(wrong.message, "does not verify")
      const throwing: MessagePartialSigner = {
        address: caller.address,
        signMessages: () => Promise.reject(new Error("User rejected the request"))
      }
      const rejected = yield* Effect.flip(KitSigner.fromKitSigner(throwing).signMessage(message))
      assert.include(rejected.message, "User rejected the request")
    }))
})
