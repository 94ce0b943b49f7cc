/**
 * The `Signer` port: a wallet that signs raw message bytes with Ed25519.
 *
 * @since 0.1.0
 */
import { Context, type Effect, Schema } from "effect"
import type { PublicKey } from "./PublicKey.js"

/**
 * The signer could not sign (a hardware wallet refused, a remote signer failed). Never
 * carries key material.
 *
 * @since 0.1.0
 * @category errors
 */
export class SignerError extends Schema.TaggedError<SignerError>()("SignerError", {
  publicKey: Schema.String,
  message: Schema.String
}) {}

/**
 * A wallet: its public key and an Ed25519 signature over any bytes.
 *
 * @since 0.1.0
 * @category tags
 */
export class Signer extends Context.Tag("@feeshare/domain/Signer")<Signer, Signer.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Signer {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly publicKey: PublicKey
    /** A 64-byte Ed25519 signature of `message`. */
    readonly signMessage: (message: Uint8Array) => Effect.Effect<Uint8Array, SignerError>
  }
}
