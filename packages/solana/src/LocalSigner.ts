/**
 * Local Ed25519 keys as the domain's `Signer` port: from secret-key or seed bytes (carried as
 * `Redacted`), from a solana-keygen JSON file, from a Kit `KeyPairSigner` or a WebCrypto
 * `CryptoKeyPair`. The private key is imported non-extractable and never leaves WebCrypto.
 * Also new wallets: a random secret key (`generateSecretKey`) and its solana-keygen file
 * (`writeKeygenFile`, mode 0600, never over an existing file).
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { Signer } from "@feeshare/domain"
import {
  createKeyPairFromBytes,
  createKeyPairFromPrivateKeyBytes,
  getAddressFromPublicKey,
  signBytes
} from "@solana/kit"
import type { KeyPairSigner } from "@solana/kit"
import { Effect, Layer, Redacted, Schema } from "effect"
import { copy } from "./internal/bytes.js"

/**
 * Why a key could not be loaded.
 *
 * @since 0.1.0
 * @category models
 */
export const InvalidKeyReason = Schema.Literal(
  "missing_file",
  "unreadable_file",
  "bad_json",
  "wrong_length",
  "mismatched_public_key",
  "unusable_key",
  "file_exists",
  "unwritable_file"
)

/**
 * @since 0.1.0
 * @category models
 */
export type InvalidKeyReason = typeof InvalidKeyReason.Type

/**
 * A key could not be loaded, or its file could not be written (`file_exists`: the path is
 * taken and is never overwritten; `unwritable_file`). `source` names where it came from or
 * was going (a file path, or `"secret key bytes"`); the message never contains key material.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidKey extends Schema.TaggedError<InvalidKey>()("InvalidKey", {
  source: Schema.String,
  reason: InvalidKeyReason,
  message: Schema.String
}) {}

/**
 * Length of a solana-keygen secret key: 32 seed bytes then 32 public-key bytes.
 *
 * @since 0.1.0
 * @category constants
 */
export const secretKeyLength = 64

/**
 * Length of an Ed25519 seed (the private half of a secret key).
 *
 * @since 0.1.0
 * @category constants
 */
export const seedLength = 32

/**
 * The `Signer` service over a WebCrypto key pair.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromCryptoKeyPair = (
  keyPair: CryptoKeyPair,
  source = "key pair"
): Effect.Effect<Signer.Signer.Service, InvalidKey> =>
  Effect.tryPromise({
    try: () => getAddressFromPublicKey(keyPair.publicKey),
    catch: () => new InvalidKey({ source, reason: "unusable_key", message: `${source}: the public key cannot be read` })
  }).pipe(Effect.map((publicKey) => make(publicKey, keyPair.privateKey)))

const make = (publicKey: string, privateKey: CryptoKey): Signer.Signer.Service => ({
  publicKey,
  signMessage: (message) =>
    Effect.tryPromise({
      try: () => signBytes(privateKey, message),
      catch: () => new Signer.SignerError({ publicKey, message: "the key could not sign" })
    })
})

/**
 * The `Signer` service over a Kit `KeyPairSigner`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeyPairSigner = (signer: KeyPairSigner): Signer.Signer.Service =>
  make(signer.address, signer.keyPair.privateKey)

const fromBytes = (
  bytes: Uint8Array,
  expected: number,
  source: string,
  importKey: (bytes: Uint8Array) => Promise<CryptoKeyPair>
): Effect.Effect<Signer.Signer.Service, InvalidKey> =>
  bytes.length !== expected
    ? Effect.fail(
      new InvalidKey({
        source,
        reason: "wrong_length",
        message: `${source}: expected ${expected} bytes, got ${bytes.length}`
      })
    )
    : Effect.tryPromise({
      try: () => importKey(copy(bytes)),
      catch: () =>
        new InvalidKey({
          source,
          reason: expected === secretKeyLength ? "mismatched_public_key" : "unusable_key",
          message: expected === secretKeyLength
            ? `${source}: the last 32 bytes are not the public key of the first 32`
            : `${source}: not a usable Ed25519 seed`
        })
    }).pipe(Effect.flatMap((keyPair) => fromCryptoKeyPair(keyPair, source)))

/**
 * From a 64-byte secret key (seed followed by public key, as solana-keygen and web3.js
 * hold it). The public half must match the seed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSecretKey = (
  secretKey: Redacted.Redacted<Uint8Array>,
  source = "secret key bytes"
): Effect.Effect<Signer.Signer.Service, InvalidKey> =>
  fromBytes(Redacted.value(secretKey), secretKeyLength, source, (bytes) => createKeyPairFromBytes(bytes))

/**
 * From a 32-byte Ed25519 seed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSeed = (
  seed: Redacted.Redacted<Uint8Array>,
  source = "seed bytes"
): Effect.Effect<Signer.Signer.Service, InvalidKey> =>
  fromBytes(Redacted.value(seed), seedLength, source, (bytes) => createKeyPairFromPrivateKeyBytes(bytes))

/**
 * Parses the text of a solana-keygen file (a JSON array of 64 byte values). Parser
 * messages are not kept, since they can quote the file's content.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseKeygenJson = (
  text: string,
  source: string
): Effect.Effect<Redacted.Redacted<Uint8Array>, InvalidKey> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Effect.fail(new InvalidKey({ source, reason: "bad_json", message: `${source}: not valid JSON` }))
  }
  if (
    !Array.isArray(parsed) ||
    !parsed.every((n): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 255)
  ) {
    return Effect.fail(
      new InvalidKey({ source, reason: "bad_json", message: `${source}: expected a JSON array of byte values (0-255)` })
    )
  }
  if (parsed.length !== secretKeyLength) {
    return Effect.fail(
      new InvalidKey({
        source,
        reason: "wrong_length",
        message: `${source}: expected ${secretKeyLength} bytes, got ${parsed.length}`
      })
    )
  }
  return Effect.succeed(Redacted.make(Uint8Array.from(parsed)))
}

/**
 * The secret key of a solana-keygen JSON file. A missing file, unreadable file, bad JSON or
 * wrong length each give `InvalidKey` naming the path and the reason.
 *
 * @since 0.1.0
 * @category parsing
 */
export const readKeygenFile = Effect.fn("LocalSigner.readKeygenFile")(function*(path: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(
    Effect.mapError((error) =>
      error._tag === "SystemError" && error.reason === "NotFound"
        ? new InvalidKey({ source: path, reason: "missing_file", message: `${path}: no such key file` })
        : new InvalidKey({ source: path, reason: "unreadable_file", message: `${path}: the key file cannot be read` })
    )
  )
  return yield* parseKeygenJson(text, path)
})

/**
 * From a solana-keygen JSON file. A missing file, unreadable file, bad JSON or wrong length
 * each give `InvalidKey` naming the path and the reason.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeygenFile = Effect.fn("LocalSigner.fromKeygenFile")(function*(path: string) {
  const secretKey = yield* readKeygenFile(path)
  return yield* fromSecretKey(secretKey, path)
})

/**
 * The 64-byte secret key of a 32-byte Ed25519 seed: the seed then its public key, as
 * solana-keygen and web3.js hold it. Any other length is `wrong_length`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const secretKeyOfSeed = (
  seed: Redacted.Redacted<Uint8Array>,
  source = "seed bytes"
): Effect.Effect<Redacted.Redacted<Uint8Array>, InvalidKey> => {
  const bytes = Redacted.value(seed)
  if (bytes.length !== seedLength) {
    return Effect.fail(
      new InvalidKey({
        source,
        reason: "wrong_length",
        message: `${source}: expected ${seedLength} bytes, got ${bytes.length}`
      })
    )
  }
  return Effect.tryPromise({
    try: async () => {
      const keyPair = await createKeyPairFromPrivateKeyBytes(copy(bytes))
      const publicKey = new Uint8Array(await globalThis.crypto.subtle.exportKey("raw", keyPair.publicKey))
      const secretKey = new Uint8Array(secretKeyLength)
      secretKey.set(bytes)
      secretKey.set(publicKey, seedLength)
      return Redacted.make(secretKey)
    },
    catch: () => new InvalidKey({ source, reason: "unusable_key", message: `${source}: not a usable Ed25519 seed` })
  })
}

/**
 * A new random wallet's 64-byte secret key: a fresh Ed25519 seed (WebCrypto's randomness) then
 * its public key (`fromSecretKey` signs with it, `writeKeygenFile` saves it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateSecretKey: Effect.Effect<Redacted.Redacted<Uint8Array>> = Effect.suspend(() => {
  const seed = globalThis.crypto.getRandomValues(new Uint8Array(seedLength))
  return secretKeyOfSeed(Redacted.make(seed), "generated seed").pipe(
    Effect.ensuring(Effect.sync(() => seed.fill(0))),
    Effect.orDie
  )
})

/**
 * The text of a solana-keygen file holding `secretKey` (a JSON array of its 64 byte values).
 *
 * @since 0.1.0
 * @category formatting
 */
export const keygenJson = (secretKey: Redacted.Redacted<Uint8Array>): Redacted.Redacted<string> =>
  Redacted.make(`${JSON.stringify(Array.from(Redacted.value(secretKey)))}\n`)

/**
 * The mode of a key file `writeKeygenFile` writes: read and write for its owner only.
 *
 * @since 0.1.0
 * @category constants
 */
export const keyFileMode = 0o600

/**
 * Writes `secretKey` to a new solana-keygen file at `path`, readable by its owner only (mode
 * 0600), and returns its signer. The key is checked first (`wrong_length`,
 * `mismatched_public_key`); an existing file is never overwritten (`file_exists`); any other
 * write failure is `unwritable_file`. Messages name the path, never the key.
 *
 * @since 0.1.0
 * @category constructors
 */
export const writeKeygenFile = Effect.fn("LocalSigner.writeKeygenFile")(
  function*(path: string, secretKey: Redacted.Redacted<Uint8Array>) {
    const signer = yield* fromSecretKey(secretKey, path)
    const fs = yield* FileSystem.FileSystem
    yield* fs.writeFileString(path, Redacted.value(keygenJson(secretKey)), { flag: "wx", mode: keyFileMode }).pipe(
      Effect.mapError((error) =>
        error._tag === "SystemError" && error.reason === "AlreadyExists"
          ? new InvalidKey({
            source: path,
            reason: "file_exists",
            message: `${path}: a file is already there; a key file is never overwritten`
          })
          : new InvalidKey({
            source: path,
            reason: "unwritable_file",
            message: `${path}: the key file cannot be written`
          })
      )
    )
    return signer
  }
)

/**
 * A fresh random key (tests, throwaway payers).
 *
 * @since 0.1.0
 * @category constructors
 */
export const generate: Effect.Effect<Signer.Signer.Service> = Effect.promise(() =>
  globalThis.crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])
).pipe(
  Effect.flatMap((keyPair) => fromCryptoKeyPair(keyPair as CryptoKeyPair, "generated key")),
  Effect.orDie
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layerSecretKey = (secretKey: Redacted.Redacted<Uint8Array>): Layer.Layer<Signer.Signer, InvalidKey> =>
  Layer.effect(Signer.Signer, fromSecretKey(secretKey))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerSeed = (seed: Redacted.Redacted<Uint8Array>): Layer.Layer<Signer.Signer, InvalidKey> =>
  Layer.effect(Signer.Signer, fromSeed(seed))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerKeygenFile = (path: string): Layer.Layer<Signer.Signer, InvalidKey, FileSystem.FileSystem> =>
  Layer.effect(Signer.Signer, fromKeygenFile(path))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerKeyPairSigner = (signer: KeyPairSigner): Layer.Layer<Signer.Signer> =>
  Layer.succeed(Signer.Signer, fromKeyPairSigner(signer))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerCryptoKeyPair = (keyPair: CryptoKeyPair): Layer.Layer<Signer.Signer, InvalidKey> =>
  Layer.effect(Signer.Signer, fromCryptoKeyPair(keyPair))
