/**
 * web3.js interop beyond the `Keypair`: a wallet adapter (`signTransaction` of a
 * `VersionedTransaction`, `signMessage`) as the `Signer` port, asked only after verification,
 * and `VersionedTransaction` in and out.
 */
import { assert, describe, it } from "@effect/vitest"
import { Signer, WireTransaction as Wire } from "@feeshare/domain"
import { generateKeyPairSigner, getPublicKeyFromAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { Keypair, VersionedTransaction } from "@solana/web3.js"
import { Effect, Either, Redacted } from "effect"
import * as LocalSigner from "../src/LocalSigner.js"
import * as TransactionSigning from "../src/TransactionSigning.js"
import * as TransactionVerification from "../src/TransactionVerification.js"
import * as Web3 from "../src/web3.js"
import { buildStage, flipByte, randomBlockhash, transfer } from "./helpers/StageBuilder.js"

/** A wallet adapter over a web3.js `Keypair`, counting what it was asked. */
const adapterOf = (keypair: Keypair) => {
  const asked = { transactions: 0, messages: 0 }
  const wallet: Web3.WalletAdapter = {
    publicKey: keypair.publicKey,
    signTransaction: async (transaction) => {
      asked.transactions++
      transaction.sign([keypair])
      return transaction
    },
    signMessage: (message) => {
      asked.messages++
      return Effect.runPromise(
        Effect.flatMap(
          LocalSigner.fromSecretKey(Redacted.make(keypair.secretKey)),
          (local) => local.signMessage(message)
        )
      )
    }
  }
  return { wallet, asked }
}

const stage = (format: "v0" | "v1", caller: string) =>
  Effect.promise(async () => {
    const server = await generateKeyPairSigner()
    const dest = await generateKeyPairSigner()
    return buildStage({
      id: "claim",
      format,
      feePayer: server,
      instructions: [transfer(caller, dest.address, 1_000n)],
      lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000n }
    })
  })

const verifies = (address: string, signature: Uint8Array, message: Uint8Array) =>
  Effect.promise(async () =>
    verifySignature(
      await getPublicKeyFromAddress(address as Parameters<typeof getPublicKeyFromAddress>[0]),
      signature as SignatureBytes,
      message
    )
  )

describe("web3.js wallet adapters and VersionedTransaction", () => {
  it.effect("v0: the adapter signs a VersionedTransaction of the verified stage; a tampered stage never reaches it", () =>
    Effect.gen(function*() {
      const keypair = Keypair.generate()
      const { asked, wallet } = adapterOf(keypair)
      const signer = Web3.fromWalletAdapter(wallet)
      const built = yield* stage("v0", signer.publicKey)
      const signed = yield* TransactionSigning.sign(yield* TransactionVerification.verifyStage(built, [signer]))
      assert.isTrue(TransactionSigning.isFullySigned(signed))
      const signature = signed.transaction.signatures[signer.publicKey as keyof typeof signed.transaction.signatures]
      assert.isTrue(
        yield* verifies(signer.publicKey, signature as Uint8Array, Uint8Array.from(signed.transaction.messageBytes))
      )
      assert.strictEqual(asked.transactions, 1)

      const tampered = { ...built, transaction: flipByte(built.transaction, -1) }
      assert.isTrue(Either.isLeft(yield* Effect.either(TransactionVerification.verifyStage(tampered, [signer]))))
      assert.strictEqual(asked.transactions, 1)
    }))

  it.effect("v1 cannot go through web3.js 1.x: SignerError says so; a login message goes to signMessage", () =>
    Effect.gen(function*() {
      const keypair = Keypair.generate()
      const { asked, wallet } = adapterOf(keypair)
      const signer = Web3.fromWalletAdapter(wallet)
      const built = yield* stage("v1", signer.publicKey)
      const verified = yield* TransactionVerification.verifyStage(built, [signer])
      const refused = yield* Effect.flip(TransactionSigning.sign(verified))
      assert.instanceOf(refused, Signer.SignerError)
      assert.include(refused.message, "v1")
      const message = new TextEncoder().encode("Sign in to feeshare")
      const signature = yield* signer.signMessage(message)
      assert.isTrue(yield* verifies(signer.publicKey, signature, message))
      assert.deepStrictEqual(asked, { transactions: 0, messages: 1 })
    }))

  it.effect("an adapter that answers with someone else's signature is refused", () =>
    Effect.gen(function*() {
      const keypair = Keypair.generate()
      const other = Keypair.generate()
      const signer = Web3.fromWalletAdapter({
        publicKey: keypair.publicKey,
        signTransaction: async (transaction) => {
          transaction.signatures[0] = Uint8Array.from(transaction.signatures[0] ?? new Uint8Array(64)).fill(7)
          return transaction
        },
        signMessage: async (message) => {
          const local = await Effect.runPromise(LocalSigner.fromSecretKey(Redacted.make(other.secretKey)))
          return Effect.runPromise(local.signMessage(message))
        }
      })
      const refused = yield* Effect.flip(signer.signMessage(new TextEncoder().encode("Sign in to feeshare")))
      assert.instanceOf(refused, Signer.SignerError)
      assert.include(refused.message, "does not verify")
      const built = yield* stage("v0", signer.publicKey)
      const verified = yield* TransactionVerification.verifyStage(built, [signer])
      assert.instanceOf(yield* Effect.flip(TransactionSigning.sign(verified)), Signer.SignerError)
    }))

  it.effect("VersionedTransaction in and out: the same bytes; v1 and garbage are MalformedTransaction", () =>
    Effect.gen(function*() {
      const caller = Keypair.generate().publicKey.toBase58()
      const v0 = yield* stage("v0", caller)
      const bytes = Wire.toBytes(v0.transaction, "base64") ?? new Uint8Array()
      const transaction = yield* Web3.toVersionedTransaction(bytes)
      assert.instanceOf(transaction, VersionedTransaction)
      assert.deepStrictEqual([...Web3.fromVersionedTransaction(transaction)], [...bytes])
      const v1 = yield* stage("v1", caller)
      const v1Bytes = Wire.toBytes(v1.transaction, "base64") ?? new Uint8Array()
      for (const input of [v1Bytes, Uint8Array.of(1, 2, 3)]) {
        const refused = yield* Effect.either(Web3.toVersionedTransaction(input))
        assert.isTrue(Either.isLeft(refused) && refused.left._tag === "MalformedTransaction")
      }
    }))
})
