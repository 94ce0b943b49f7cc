/**
 * The forms of a wallet that `FeeShare` accepts: secret-key bytes, the path of a
 * solana-keygen file, a `Wallet`, a Kit `KeyPairSigner`, a labelled secret key (what `feeshare/web3`
 * makes of a web3.js `Keypair`), or any implementation of the `Signer` port (a hardware or
 * remote wallet).
 *
 * @since 0.1.0
 */
import { platform } from "#platform"
import type * as Signer from "@feeshare/domain/Signer"
import * as KitSigner from "@feeshare/solana/KitSigner"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect, Redacted } from "effect"

/**
 * A Kit (`@solana/kit`) `KeyPairSigner`, e.g. from `generateKeyPairSigner()`.
 *
 * @since 0.1.0
 * @category models
 */
export type KitKeyPairSigner = Parameters<typeof LocalSigner.fromKeyPairSigner>[0]

/**
 * Any Kit transaction or message signer (`TransactionPartialSigner` / `MessagePartialSigner`):
 * how wallet-standard browser and mobile wallets reach Kit code. Asked only after verification.
 *
 * @since 0.1.0
 * @category models
 */
export type KitWalletSigner = KitSigner.KitSigner

/**
 * A 64-byte secret key with a label that names it in errors (never the key itself).
 *
 * @since 0.1.0
 * @category models
 */
export interface LabelledSecretKey {
  readonly secretKey: Uint8Array
  readonly source: string
}

/**
 * A wallet whose secret key this process holds: its address (the base58 public key) and its
 * 64-byte secret key (the Ed25519 seed then the public key, as solana-keygen and web3.js hold
 * it), `Redacted` so that logging the wallet never shows it (`Redacted.value` reads it).
 *
 * @since 0.1.0
 * @category models
 */
export interface Wallet {
  readonly address: string
  readonly secretKey: Redacted.Redacted<Uint8Array>
}

/**
 * A wallet, in any of the accepted forms:
 * - a `Wallet` (`generateWallet`, `loadWallet`);
 * - `Uint8Array`: a 64-byte secret key (seed then public key, as solana-keygen and web3.js
 *   hold it) or a 32-byte Ed25519 seed;
 * - `string`: the path of a solana-keygen JSON file (Node only: elsewhere `InvalidKey`);
 * - a Kit `KeyPairSigner`;
 * - any Kit `TransactionPartialSigner` / `MessagePartialSigner` (a wallet-standard wallet);
 * - `{ secretKey, source }` (see `feeshare/web3` for a web3.js `Keypair`);
 * - a `Signer.Service` (`publicKey` and `signMessage`), e.g. a hardware wallet adapter.
 *
 * Private keys are imported non-extractable into WebCrypto when used.
 *
 * @since 0.1.0
 * @category models
 */
export type SignerInput =
  | Uint8Array
  | string
  | KitKeyPairSigner
  | KitWalletSigner
  | LabelledSecretKey
  | Wallet
  | Signer.Signer.Service

const isWallet = (input: object): input is Wallet =>
  "address" in input && typeof input.address === "string" &&
  "secretKey" in input && Redacted.isRedacted(input.secretKey)

const isSignerService = (input: object): input is Signer.Signer.Service =>
  "signMessage" in input && typeof input.signMessage === "function" &&
  "publicKey" in input && typeof input.publicKey === "string"

const isKitSigner = (input: object): input is KitKeyPairSigner =>
  "keyPair" in input && typeof input.keyPair === "object" && "address" in input && typeof input.address === "string"

const isKitWalletSigner = (input: object): input is KitWalletSigner =>
  "address" in input && typeof input.address === "string" &&
  (("signTransactions" in input && typeof input.signTransactions === "function") ||
    ("signMessages" in input && typeof input.signMessages === "function"))

/**
 * The `Signer` service of an input. Bad bytes, a missing or malformed key file, or a
 * public key that does not match its seed fail with `InvalidKey` (naming the source, never
 * the key).
 *
 * @since 0.1.0
 * @category constructors
 */
export const load = (input: SignerInput): Effect.Effect<Signer.Signer.Service, LocalSigner.InvalidKey> => {
  if (input instanceof Uint8Array) {
    return input.length === LocalSigner.seedLength
      ? LocalSigner.fromSeed(Redacted.make(input))
      : LocalSigner.fromSecretKey(Redacted.make(input))
  }
  if (typeof input === "string") {
    return platform.keyFiles === undefined
      ? Effect.fail(
        new LocalSigner.InvalidKey({
          source: input,
          reason: "unreadable_file",
          message: `${input}: key files can be read only on Node; pass the secret key bytes or a signer`
        })
      )
      : LocalSigner.fromKeygenFile(input).pipe(Effect.provide(platform.keyFiles))
  }
  if (isSignerService(input)) return Effect.succeed(input)
  if (isKitSigner(input)) return Effect.succeed(LocalSigner.fromKeyPairSigner(input))
  if (isKitWalletSigner(input)) return Effect.succeed(KitSigner.fromKitSigner(input))
  if (isWallet(input)) return LocalSigner.fromSecretKey(input.secretKey, `wallet ${input.address}`)
  return LocalSigner.fromSecretKey(Redacted.make(input.secretKey), input.source)
}
