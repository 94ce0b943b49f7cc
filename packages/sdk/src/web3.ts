/**
 * Interop with @solana/web3.js 1.x, kept out of the core so that `feeshare` never imports
 * web3.js: a web3.js `Keypair` as a signer `FeeShare` accepts.
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
 */
import type { Keypair } from "@solana/web3.js"
import type { LabelledSecretKey } from "./SignerInput.js"

/**
 * The keypair's 64-byte secret key, labelled `web3.js Keypair` in errors. The key is
 * imported non-extractable into WebCrypto when first used to sign.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKeypair = (keypair: Pick<Keypair, "secretKey">): LabelledSecretKey => ({
  secretKey: keypair.secretKey,
  source: "web3.js Keypair"
})
