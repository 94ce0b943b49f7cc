/**
 * Wallets without another package: make one (`generateWallet`), read the address of any
 * signer (`walletAddress`), and keep one in a solana-keygen file (`saveWallet`, `loadWallet`;
 * Node only). A `Wallet` is itself a signer `FeeShare` accepts (`signer`, `login`).
 *
 * @example
 * ```ts
 * import { FeeShare, generateWallet, loadWallet, saveWallet } from "feeshare"
 *
 * const wallet = await generateWallet()
 * console.log(wallet.address) // its secret key prints as <redacted>
 * await saveWallet(wallet, "wallet.json") // mode 0600; never over an existing file
 * const again = await loadWallet("wallet.json")
 * ```
 *
 * @since 0.1.0
 */
import { platform } from "#platform"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect, Exit, Redacted } from "effect"
import * as Rejection from "./Rejection.js"
import * as SignerInput from "./SignerInput.js"

/** @since 0.1.0 */
export type { Wallet } from "./SignerInput.js"

/** Runs a wallet operation; a failure rejects with its facade class (e.g. `InvalidKey`). */
const run = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Rejection.fromCause(exit.cause)
}

const keyFilesOnly = (path: string) =>
  new LocalSigner.InvalidKey({
    source: path,
    reason: "unreadable_file",
    message: `${path}: key files can be read and written only on Node`
  })

const fromSecretKey = (secretKey: Redacted.Redacted<Uint8Array>, source: string) =>
  LocalSigner.fromSecretKey(secretKey, source).pipe(
    Effect.map((signer): SignerInput.Wallet => ({ address: signer.publicKey, secretKey }))
  )

/**
 * A new random wallet (WebCrypto's randomness), on every platform.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateWallet = (): Promise<SignerInput.Wallet> =>
  run(LocalSigner.generateSecretKey.pipe(Effect.flatMap((secretKey) => fromSecretKey(secretKey, "generated key"))))

/**
 * The wallet of a solana-keygen file (Node only). A missing or unreadable file, bad JSON, a
 * wrong length or a public half that does not match rejects with `InvalidKey`, naming the
 * path and the reason, never the key.
 *
 * @since 0.1.0
 * @category constructors
 */
export const loadWallet = (path: string): Promise<SignerInput.Wallet> =>
  run(
    platform.keyFiles === undefined
      ? Effect.fail(keyFilesOnly(path))
      : LocalSigner.readKeygenFile(path).pipe(
        Effect.flatMap((secretKey) => fromSecretKey(secretKey, path)),
        Effect.provide(platform.keyFiles)
      )
  )

/**
 * The wallet of a 64-byte secret key (seed then public key) or a 32-byte seed; the bytes are
 * copied. Rejects with `InvalidKey` for any other length or a public half that does not match.
 *
 * @since 0.1.0
 * @category constructors
 */
export const walletFromSecretKey = (bytes: Uint8Array): Promise<SignerInput.Wallet> => {
  const source = "secret key bytes"
  const copied = Redacted.make(Uint8Array.from(bytes))
  return run(
    (bytes.length === LocalSigner.seedLength ? LocalSigner.secretKeyOfSeed(copied, source) : Effect.succeed(copied))
      .pipe(Effect.flatMap((secretKey) => fromSecretKey(secretKey, source)))
  )
}

/**
 * Writes `wallet` to a new solana-keygen file at `path` (Node only), readable by its owner
 * only (mode 0600). An existing file is never overwritten: that rejects with `InvalidKey`
 * of reason `file_exists`; any other write failure with reason `unwritable_file`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const saveWallet = (wallet: SignerInput.Wallet, path: string): Promise<void> =>
  run(
    platform.keyFiles === undefined
      ? Effect.fail(keyFilesOnly(path))
      : LocalSigner.writeKeygenFile(path, wallet.secretKey).pipe(Effect.asVoid, Effect.provide(platform.keyFiles))
  )

/**
 * The address (base58 public key) of any signer `FeeShare` accepts: a `Wallet`, secret-key
 * bytes, a keygen file path (Node), a Kit signer, a web3.js keypair through `feeshare/web3`,
 * or a `Signer` service. Rejects with `InvalidKey` when the key cannot be loaded.
 *
 * @since 0.1.0
 * @category accessors
 */
export const walletAddress = (signer: SignerInput.SignerInput): Promise<string> =>
  run(SignerInput.load(signer).pipe(Effect.map((service) => service.publicKey)))
