/**
 * Interop with @solana/web3.js 1.x: a web3.js `Keypair` as the `Signer` port. A separate
 * entry point (`@feeshare/solana/web3`) so that the core never imports web3.js.
 *
 * @since 0.1.0
 */
import { Signer } from "@feeshare/domain"
import type { Keypair } from "@solana/web3.js"
import { type Effect, Layer, Redacted } from "effect"
import * as LocalSigner from "./LocalSigner.js"

/**
 * The `Signer` service for a web3.js `Keypair` (its 64-byte secret key, imported
 * non-extractable into WebCrypto).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeypair = (keypair: Keypair): Effect.Effect<Signer.Signer.Service, LocalSigner.InvalidKey> =>
  LocalSigner.fromSecretKey(Redacted.make(keypair.secretKey), "web3.js Keypair")

/**
 * @since 0.1.0
 * @category layers
 */
export const layerKeypair = (keypair: Keypair): Layer.Layer<Signer.Signer, LocalSigner.InvalidKey> =>
  Layer.effect(Signer.Signer, fromKeypair(keypair))
