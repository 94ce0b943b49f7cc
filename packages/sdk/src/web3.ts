/**
 * Interop with @solana/web3.js 1.x: a web3.js `Keypair` as a signer `FeeShare` accepts. Typed
 * structurally (its `secretKey`), so neither `feeshare` nor its declarations import web3.js.
 *
 * @example
 * ```ts
 * import { Keypair } from "@solana/web3.js"
 * import { FeeShare } from "feeshare"
 * import { fromKeypair } from "feeshare/web3"
 *
 * const feeshare = new FeeShare({ baseUrl, apiKey, rpcUrl, signer: fromKeypair(Keypair.generate()) })
 * ```
 *
 * @since 0.1.0
 * @module feeshare/web3
 */
import type { LabelledSecretKey } from "./SignerInput.js"

/**
 * The keypair's 64-byte secret key, labelled `web3.js Keypair` in errors. The key is
 * imported non-extractable into WebCrypto when first used to sign.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeypair = (keypair: { readonly secretKey: Uint8Array }): LabelledSecretKey => ({
  secretKey: keypair.secretKey,
  source: "web3.js Keypair"
})
