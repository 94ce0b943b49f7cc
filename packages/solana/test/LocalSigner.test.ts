import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Signer } from "@feeshare/domain"
import {
  createKeyPairSignerFromBytes,
  getPublicKeyFromAddress,
  type SignatureBytes,
  verifySignature
} from "@solana/kit"
import { Keypair } from "@solana/web3.js"
import { Effect, FastCheck, Redacted } from "effect"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as LocalSigner from "../src/LocalSigner.js"
import * as Signers from "../src/Signers.js"
import * as Web3 from "../src/web3.js"

const verifies = (signer: Signer.Signer.Service, message: Uint8Array) =>
  Effect.gen(function*() {
    const signature = yield* signer.signMessage(message)
    assert.strictEqual(signature.length, 64)
    return yield* Effect.promise(async () =>
      verifySignature(await getPublicKeyFromAddress(signer.publicKey as never), signature as SignatureBytes, message)
    )
  })

const dir = mkdtempSync(join(tmpdir(), "feeshare-solana-keys-"))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** Asserts the failure is `InvalidKey` with `reason` and that no key byte value leaks into it. */
const refused = <R>(
  effect: Effect.Effect<unknown, LocalSigner.InvalidKey, R>,
  reason: LocalSigner.InvalidKeyReason,
  secret: Uint8Array
) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(effect)
    assert.strictEqual(error._tag, "InvalidKey")
    assert.strictEqual(error.reason, reason)
    const shown = `${error.message} ${String(error)} ${JSON.stringify(error)}`
    assert.notInclude(shown, Array.from(secret.slice(0, 8)).join(","))
    assert.notInclude(shown, Buffer.from(secret).toString("hex").slice(0, 16))
  })

describe("LocalSigner", () => {
  const keypair = Keypair.generate()
  const secret = keypair.secretKey
  const message = new TextEncoder().encode("sign me")

  it.effect("64-byte secret key, 32-byte seed, Kit KeyPairSigner, CryptoKeyPair and web3.js Keypair agree", () =>
    Effect.gen(function*() {
      const expected = keypair.publicKey.toBase58()
      const fromSecret = yield* LocalSigner.fromSecretKey(Redacted.make(secret))
      const fromSeed = yield* LocalSigner.fromSeed(Redacted.make(secret.slice(0, 32)))
      const kit = yield* Effect.promise(() => createKeyPairSignerFromBytes(secret))
      const fromKit = LocalSigner.fromKeyPairSigner(kit)
      const fromPair = yield* LocalSigner.fromCryptoKeyPair(kit.keyPair)
      const fromWeb3 = yield* Web3.fromKeypair(keypair)
      for (const signer of [fromSecret, fromSeed, fromKit, fromPair, fromWeb3]) {
        assert.strictEqual(signer.publicKey, expected)
        assert.isTrue(yield* verifies(signer, message))
      }
      // Ed25519 is deterministic: every form gives the same signature
      const a = yield* fromSecret.signMessage(message)
      const b = yield* fromWeb3.signMessage(message)
      assert.deepStrictEqual([...a], [...b])
    }))

  it.effect("bad bytes: wrong length and a public half that does not match", () =>
    Effect.gen(function*() {
      yield* refused(LocalSigner.fromSecretKey(Redacted.make(secret.slice(0, 63))), "wrong_length", secret)
      yield* refused(LocalSigner.fromSeed(Redacted.make(secret)), "wrong_length", secret)
      const mismatched = Uint8Array.from(secret)
      mismatched.set(Keypair.generate().publicKey.toBytes(), 32)
      yield* refused(LocalSigner.fromSecretKey(Redacted.make(mismatched)), "mismatched_public_key", secret)
    }))

  it.effect("solana-keygen file: loads, and a missing file, bad JSON or wrong length are clear errors", () =>
    Effect.gen(function*() {
      const good = file("id.json", JSON.stringify(Array.from(secret)))
      const signer = yield* LocalSigner.fromKeygenFile(good)
      assert.strictEqual(signer.publicKey, keypair.publicKey.toBase58())
      yield* refused(LocalSigner.fromKeygenFile(join(dir, "absent.json")), "missing_file", secret)
      // truncated JSON that starts with the key bytes: the parser's message would quote them
      const truncated = file("bad.json", JSON.stringify(Array.from(secret)).slice(0, 120))
      yield* refused(LocalSigner.fromKeygenFile(truncated), "bad_json", secret)
      yield* refused(
        LocalSigner.fromKeygenFile(file("obj.json", `{"key":[${Array.from(secret).join(",")}]}`)),
        "bad_json",
        secret
      )
      yield* refused(
        LocalSigner.fromKeygenFile(file("range.json", JSON.stringify([...Array.from(secret.slice(0, 63)), 256]))),
        "bad_json",
        secret
      )
      yield* refused(
        LocalSigner.fromKeygenFile(file("short.json", JSON.stringify(Array.from(secret.slice(0, 32))))),
        "wrong_length",
        secret
      )
      const error = yield* Effect.flip(LocalSigner.fromKeygenFile(join(dir, "absent.json")))
      assert.include(error.message, "absent.json")
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect.prop(
    "a seed's secret key is the seed then its public key, and survives its keygen JSON",
    [FastCheck.uint8Array({ minLength: 32, maxLength: 32 })],
    ([seed]) =>
      Effect.gen(function*() {
        const secretKey = yield* LocalSigner.secretKeyOfSeed(Redacted.make(seed))
        const bytes = Redacted.value(secretKey)
        assert.deepStrictEqual([...bytes], [...Keypair.fromSeed(seed).secretKey])
        const parsed = yield* LocalSigner.parseKeygenJson(Redacted.value(LocalSigner.keygenJson(secretKey)), "json")
        assert.deepStrictEqual([...Redacted.value(parsed)], [...bytes])
      }),
    { fastCheck: { numRuns: 50 } }
  )

  it.effect("generateSecretKey and writeKeygenFile: a new file of mode 0600, never over an existing one", () =>
    Effect.gen(function*() {
      const secretKey = yield* LocalSigner.generateSecretKey
      const bytes = Redacted.value(secretKey)
      const path = join(dir, "new.json")
      const signer = yield* LocalSigner.writeKeygenFile(path, secretKey)
      assert.strictEqual(signer.publicKey, Keypair.fromSecretKey(bytes).publicKey.toBase58())
      assert.strictEqual(statSync(path).mode & 0o777, LocalSigner.keyFileMode)
      assert.strictEqual((yield* LocalSigner.fromKeygenFile(path)).publicKey, signer.publicKey)
      const before = readFileSync(path, "utf8")
      yield* refused(LocalSigner.writeKeygenFile(path, yield* LocalSigner.generateSecretKey), "file_exists", bytes)
      assert.strictEqual(readFileSync(path, "utf8"), before)
      yield* refused(LocalSigner.writeKeygenFile(join(dir, "absent", "k.json"), secretKey), "unwritable_file", bytes)
      yield* refused(
        LocalSigner.writeKeygenFile(join(dir, "short.json"), Redacted.make(bytes.slice(0, 40))),
        "wrong_length",
        bytes
      )
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("layers provide the Signer port; Signers keeps the primary first and drops duplicates", () =>
    Effect.gen(function*() {
      const primary = yield* Signer.Signer
      const second = yield* LocalSigner.generate
      const set = Signers.make(primary, second, primary)
      assert.deepStrictEqual(set.all.map((s) => s.publicKey), [primary.publicKey, second.publicKey])
      assert.deepStrictEqual(
        Signers.forTransaction(set, [second.publicKey]).map((s) => s.publicKey),
        [primary.publicKey, second.publicKey]
      )
      assert.deepStrictEqual(Signers.forTransaction(set, [primary.publicKey]).map((s) => s.publicKey), [
        primary.publicKey
      ])
      const fromLayer = yield* Effect.provide(Signers.Signers, Signers.fromSigner)
      assert.strictEqual(fromLayer.primary.publicKey, keypair.publicKey.toBase58())
    }).pipe(Effect.provide(LocalSigner.layerSecretKey(Redacted.make(secret)))))
})
