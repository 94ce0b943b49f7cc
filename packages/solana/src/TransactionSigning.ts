/**
 * Co-signing a verified wire transaction: the local signers fill their signature slots,
 * every signature already present is kept, and the text is re-encoded as it arrived.
 *
 * @since 0.1.0
 */
import { PublicKey, Signer, WireTransaction as Wire } from "@feeshare/domain"
import type { SignatureBytes, Transaction } from "@solana/kit"
import { Effect, type Option } from "effect"
import type { Verified } from "./TransactionVerification.js"

/**
 * A fully signed transaction, re-encoded in the encoding it arrived in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Signed {
  readonly label: string
  /** The text, in the encoding the transaction arrived in. */
  readonly text: string
  readonly bytes: Uint8Array
  readonly transaction: Transaction
  /** The transaction id: the fee payer's signature, base58. */
  readonly signature: string
  readonly lastValidBlockHeight: Option.Option<bigint>
}

/**
 * Adds the local signers' signatures, keeping every signature already present, and
 * re-encodes in the transaction's own encoding.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (verified: Verified): Effect.Effect<Signed, Signer.SignerError> => {
  const { decoded } = verified
  const message = decoded.messageBytes
  const existing = decoded.transaction.signatures
  const needed = verified.signers.filter((signer, i) =>
    existing[signer.publicKey as keyof typeof existing] === null &&
    verified.signers.findIndex((other) => other.publicKey === signer.publicKey) === i
  )
  return Effect.forEach(
    needed,
    (signer) =>
      Effect.flatMap(
        signer.signMessage(message),
        (signature) =>
          signature.length === 64 ? Effect.succeed(signature) : Effect.fail(
            new Signer.SignerError({
              publicKey: signer.publicKey,
              message: `the signer returned ${signature.length} bytes, not a 64-byte signature`
            })
          )
      )
  ).pipe(
    Effect.map((produced): Signed => {
      const signatures: Record<string, SignatureBytes | null> = { ...existing }
      for (let i = 0; i < needed.length; i++) signatures[needed[i]!.publicKey] = produced[i]! as SignatureBytes
      // the wire bytes are canonical (checked by `decode`), so signing only fills signature slots
      const bytes = new Uint8Array(decoded.bytes)
      const slots = decoded.version === 1
        ? message.length
        : bytes.length - message.length - 64 * decoded.signers.length
      for (let i = 0; i < decoded.signers.length; i++) {
        const signature = signatures[decoded.signers[i]!]
        if (signature !== null && signature !== undefined) bytes.set(signature, slots + 64 * i)
      }
      const payer = signatures[decoded.signers[0] ?? ""]
      return {
        label: decoded.label,
        text: Wire.fromBytes(bytes, decoded.encoding),
        bytes,
        transaction: {
          messageBytes: decoded.transaction.messageBytes,
          signatures: Object.freeze(signatures) as Transaction["signatures"]
        },
        signature: payer === null || payer === undefined ? "" : PublicKey.base58.encode(payer),
        lastValidBlockHeight: verified.lastValidBlockHeight
      }
    }),
    Effect.withSpan("WireTransaction.sign", { attributes: { stage: decoded.label }, captureStackTrace: false })
  )
}

/**
 * `true` when every signer of the message has a signature.
 *
 * @since 0.1.0
 * @category guards
 */
export const isFullySigned = (signed: Signed): boolean =>
  Object.values(signed.transaction.signatures).every((signature) => signature !== null)
