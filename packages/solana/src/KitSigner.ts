/**
 * Signers from the Kit ecosystem as the `Signer` port: any `TransactionPartialSigner` or
 * `MessagePartialSigner` of `@solana/kit`. That is how wallet-standard wallets (browser
 * extensions, mobile wallets) reach Kit code (`useWalletAccountTransactionSigner` and
 * `useWalletAccountMessageSigner` of `@solana/react`, or any signer a wallet library makes).
 *
 * The port is asked only after the plan executor verified the stage, as for every signer.
 * A transaction message goes to `signTransactions` (the wallet shows a transaction, with every
 * required signer's slot); anything else (a login message) to `signMessages`. The signature a
 * wallet returns is checked against the message before it is used.
 *
 * @since 0.1.0
 */
import { Signer } from "@feeshare/domain"
import {
  type Address,
  assertIsTransactionWithinSizeLimit,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionLifetimeConstraintFromCompiledTransactionMessage,
  isMessagePartialSigner,
  isTransactionPartialSigner,
  type MessagePartialSigner,
  type SignatureBytes,
  type SignatureDictionary,
  type TransactionPartialSigner
} from "@solana/kit"
import { Layer } from "effect"
import { checkedSigner } from "./internal/walletAnswer.js"

/**
 * A Kit signer: either kind, or both (a `KeyPairSigner` is both).
 *
 * @since 0.1.0
 * @category models
 */
export type KitSigner = TransactionPartialSigner | MessagePartialSigner

const messageDecoder = getCompiledTransactionMessageDecoder()
const transactionDecoder = getTransactionDecoder()

/** `bytes` as a compiled transaction message when they are exactly one, else undefined. */
const compiledMessage = (
  bytes: Uint8Array
): (CompiledTransactionMessage & CompiledTransactionMessageWithLifetime) | undefined => {
  try {
    const [message, end] = messageDecoder.read(bytes, 0)
    return end === bytes.length && "lifetimeToken" in message ? message : undefined
  } catch {
    return undefined
  }
}

/**
 * The unsigned transaction of a message, a zeroed slot per required signer: before the message
 * in legacy and v0 (after a short-vec count), after it in v1 (SIMD-0385).
 */
const unsignedTransaction = async (
  message: Uint8Array,
  compiled: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime,
  signers: number
) => {
  const v1 = compiled.version === 1
  const wire = new Uint8Array((v1 ? 0 : 1) + 64 * signers + message.length)
  if (v1) wire.set(message, 0)
  else {
    wire[0] = signers // a short-vec length: one byte below 128, and a message has at most 127 signers
    wire.set(message, 1 + 64 * signers)
  }
  const transaction = transactionDecoder.decode(wire)
  const withLifetime = {
    ...transaction,
    lifetimeConstraint: await getTransactionLifetimeConstraintFromCompiledTransactionMessage(compiled)
  }
  assertIsTransactionWithinSizeLimit(withLifetime)
  return withLifetime
}

const pick = (dictionaries: ReadonlyArray<SignatureDictionary>, address: Address): SignatureBytes | undefined =>
  dictionaries[0]?.[address]

/**
 * The `Signer` service of a Kit signer. A wallet that refuses, throws, or answers with a
 * signature that does not verify fails with `SignerError` (naming the wallet, never a key).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromKitSigner = (signer: KitSigner): Signer.Signer.Service =>
  checkedSigner(signer.address, (message) => {
    const publicKey = signer.address
    const compiled = compiledMessage(message)
    const signers = compiled === undefined ? [] : compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts)
    if (isTransactionPartialSigner(signer) && compiled !== undefined && signers.includes(publicKey)) {
      return unsignedTransaction(message, compiled, signers.length)
        .then((transaction) => signer.signTransactions([transaction]))
        .then((answers) => pick(answers, publicKey))
    }
    if (isMessagePartialSigner(signer)) {
      return signer.signMessages([{ content: message, signatures: {} }]).then((answers) => pick(answers, publicKey))
    }
    return Promise.reject(new Error("signs only transactions, and this is not a transaction it signs"))
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (signer: KitSigner): Layer.Layer<Signer.Signer> =>
  Layer.succeed(Signer.Signer, fromKitSigner(signer))
