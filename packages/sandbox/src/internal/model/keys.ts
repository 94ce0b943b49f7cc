/**
 * Deterministic keys: every keypair the sandbox holds comes from SHA-256(seed, label).
 */
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from "@solana/kit"
import { derive } from "./seeded.js"

/** The 32 secret-key bytes of `label` under `seed`. */
export const derivedSecret = (seed: string, label: string): Uint8Array => new Uint8Array(derive(seed, label))

/** The Ed25519 signer for `label` under `seed` (same seed and label, same key). */
export const deriveSigner = (seed: string, label: string): Promise<KeyPairSigner> =>
  createKeyPairSignerFromPrivateKeyBytes(derivedSecret(seed, label))
