/**
 * Local Ed25519 keys as the domain's `Signer` port: from secret-key or seed bytes (carried as
 * `Redacted`), from a solana-keygen JSON file, from a Kit `KeyPairSigner` or a WebCrypto
 * `CryptoKeyPair`. The private key is imported non-extractable and never leaves WebCrypto.
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
  "unusable_key"
)

/**
 * @since 0.1.0
 * @category models
 */
export type InvalidKeyReason = typeof InvalidKeyReason.Type

/**
 * A key could not be loaded. `source` names where it came from (a file path, or
 * `"secret key bytes"`); the message never contains key material.
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
 * From a solana-keygen JSON file. A missing file, unreadable file, bad JSON or wrong length
 * each give `InvalidKey` naming the path and the reason.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeygenFile = Effect.fn("LocalSigner.fromKeygenFile")(function*(path: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(
    Effect.mapError((error) =>
      error._tag === "SystemError" && error.reason === "NotFound"
        ? new InvalidKey({ source: path, reason: "missing_file", message: `${path}: no such key file` })
        : new InvalidKey({ source: path, reason: "unreadable_file", message: `${path}: the key file cannot be read` })
    )
  )
  const secretKey = yield* parseKeygenJson(text, path)
  return yield* fromSecretKey(secretKey, path)
})

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
