/**
 * Deterministic keys: every keypair the sandbox holds comes from SHA-256(seed, label).
 */
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from "@solana/kit"
import { createHash } from "node:crypto"

/** The 32 secret-key bytes of `label` under `seed`. */
export const derivedSecret = (seed: string, label: string): Uint8Array =>
  new Uint8Array(createHash("sha256").update(`${seed}\u0000${label}`).digest())

/** The Ed25519 signer for `label` under `seed` (same seed and label, same key). */
export const deriveSigner = (seed: string, label: string): Promise<KeyPairSigner> =>
  createKeyPairSignerFromPrivateKeyBytes(derivedSecret(seed, label))
