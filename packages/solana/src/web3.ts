/**
 * Interop with @solana/web3.js 1.x: a web3.js `Keypair` or wallet adapter as the `Signer` port,
 * and `VersionedTransaction` in and out. A separate entry point (`@feeshare/solana/web3`) so
 * that the core never imports web3.js.
 *
 * @since 0.1.0
 * @module @feeshare/solana/web3
 */
import { Signer } from "@feeshare/domain"
import { type Keypair, type PublicKey, VersionedMessage, VersionedTransaction } from "@solana/web3.js"
import { Effect, Layer, Redacted } from "effect"
import { checkedSigner } from "./internal/walletAnswer.js"
import * as LocalSigner from "./LocalSigner.js"
import * as WireTransaction from "./WireTransaction.js"

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

/**
 * A web3.js wallet as the Solana wallet adapters give it: its public key, `signTransaction`
 * of a `VersionedTransaction`, and `signMessage` when it has one.
 *
 * @since 0.1.0
 * @category models
 */
export interface WalletAdapter {
  readonly publicKey: PublicKey
  readonly signTransaction: (transaction: VersionedTransaction) => Promise<VersionedTransaction>
  readonly signMessage?: ((message: Uint8Array) => Promise<Uint8Array>) | undefined
}

/**
 * A web3.js wallet adapter as the `Signer` port. A transaction message is handed over as a
 * `VersionedTransaction` (legacy and v0: web3.js 1.x cannot write v1 messages, so it cannot
 * sign them, which fails with `SignerError`; ask the service for v0); anything else (a login
 * message) goes to `signMessage`. The returned signature is checked before it is used, and
 * the wallet is asked only after the stage was verified.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromWalletAdapter = (wallet: WalletAdapter): Signer.Signer.Service =>
  checkedSigner(wallet.publicKey.toBase58(), async (message) => {
    const transaction = asTransactionMessage(message)
    if (transaction !== undefined) {
      const index = transaction.staticAccountKeys.findIndex((key) => key.equals(wallet.publicKey))
      if (index >= 0 && index < transaction.header.numRequiredSignatures) {
        const signed = await wallet.signTransaction(new VersionedTransaction(transaction))
        return signed.signatures[index]
      }
    }
    if (message[0] === 0x81) {
      throw new Error("cannot sign a v1 transaction through web3.js 1.x (it writes legacy and v0 only)")
    }
    if (wallet.signMessage === undefined) {
      throw new Error("signs only transactions, and this is not a transaction it signs")
    }
    return wallet.signMessage(message)
  })

/** `bytes` as a message web3.js reads and writes back whole, else undefined. */
const asTransactionMessage = (bytes: Uint8Array): VersionedMessage | undefined => {
  try {
    const message = VersionedMessage.deserialize(bytes)
    return message.serialize().length === bytes.length ? message : undefined
  } catch {
    return undefined
  }
}

/**
 * A wire transaction (a stage's bytes, signed or not) as a web3.js `VersionedTransaction`
 * (legacy and v0). A v1 transaction fails with `MalformedTransaction`: web3.js 1.99 reads v1
 * but cannot write or sign it, so the object would be a dead end.
 *
 * @since 0.1.0
 * @category interop
 */
export const toVersionedTransaction = (
  bytes: Uint8Array
): Effect.Effect<VersionedTransaction, WireTransaction.MalformedTransaction> =>
  Effect.try({
    try: () => {
      const transaction = VersionedTransaction.deserialize(bytes)
      transaction.message.serialize()
      return transaction
    },
    catch: (error) =>
      new WireTransaction.MalformedTransaction({
        stage: "web3.js",
        message: `web3.js could not read and write back the transaction: ${
          error instanceof Error ? error.message : String(error)
        }`.slice(0, 500)
      })
  })

/**
 * A web3.js `VersionedTransaction`'s wire bytes, for `Chain.submit` or the sandbox's RPC.
 *
 * @since 0.1.0
 * @category interop
 */
export const fromVersionedTransaction = (transaction: VersionedTransaction): Uint8Array => transaction.serialize()
