/**
 * Decoding a wire transaction from the service (base64 or base58; legacy, v0, v1) strictly:
 * canonical bytes only, every present signature checked, the budget and size read.
 *
 * @since 0.1.0
 */
import { WireTransaction as Wire } from "@feeshare/domain"
import { sha256 } from "@noble/hashes/sha2"
import type {
  CompiledTransactionMessage,
  CompiledTransactionMessageWithLifetime,
  ReadonlyUint8Array,
  SignatureBytes,
  Transaction,
  TransactionMessageBytes
} from "@solana/kit"
import { Effect } from "effect"
import { toHex } from "./internal/bytes.js"
import { budgetOf, computeBudgetProgram, type MessageBudget } from "./internal/computeBudget.js"
import { verifySignatureOf } from "./internal/ed25519.js"
import * as WireFormat from "./internal/wireFormat.js"
import { MalformedTransaction, NonCanonicalTransaction } from "./TransactionRefusal.js"

export {
  /**
   * The compute-budget program.
   *
   * @since 0.1.0
   * @category constants
   */
  computeBudgetProgram
}

export type {
  /**
   * The budget a message carries (see `internal/computeBudget`).
   *
   * @since 0.1.0
   * @category models
   */
  MessageBudget
}

/**
 * A fully decoded, canonical wire transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decoded {
  readonly label: string
  readonly encoding: Wire.Encoding
  readonly bytes: Uint8Array
  readonly transaction: Transaction
  /** The signed message bytes (the same bytes as `transaction.messageBytes`, in their own buffer). */
  readonly messageBytes: Uint8Array
  /** The message in Kit's compiled form, built on first access. */
  readonly message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime
  readonly version: "legacy" | 0 | 1
  readonly messageSha256: string
  /** Signer accounts in message order; the first is the fee payer. */
  readonly signers: ReadonlyArray<string>
  readonly blockhash: string
  /** For each signature slot (message order): `true` when empty or valid, `false` when it does not verify. */
  readonly signatureChecks: ReadonlyArray<boolean>
  readonly budget: MessageBudget
  readonly size: { readonly bytes: number; readonly accounts: number; readonly signatures: number }
}

/**
 * The network fee of a decoded transaction, in lamports: 5000 per signature plus the priority
 * fee (a v1 message states it in lamports; a legacy or v0 message as a compute-unit price in
 * micro-lamports, times its compute-unit limit, 200,000 when it sets none, rounded up).
 *
 * @since 0.1.0
 * @category fees
 */
export const networkFee = (decoded: Pick<Decoded, "version" | "budget" | "size">): bigint => {
  const base = 5_000n * BigInt(decoded.size.signatures)
  const price = decoded.budget.priorityFee ?? 0n
  if (decoded.version === 1) return base + price
  const units = BigInt(decoded.budget.computeUnitLimit ?? 200_000)
  return base + (units * price + 999_999n) / 1_000_000n
}

const refuse = (label: string, result: Exclude<WireFormat.Result, { _tag: "Parsed" }>) =>
  result._tag === "Malformed"
    ? new MalformedTransaction({
      stage: label,
      message: `${label}: the bytes are not a transaction (${result.reason})`
    })
    : new NonCanonicalTransaction({
      stage: label,
      message: `${label}: the message is not canonical (${result.reason})`
    })

/**
 * Decodes and fully checks the structure of a wire transaction: the text decodes, the
 * envelope and the message parse strictly to their last byte (no trailing, missing or
 * misaligned byte, minimal shortvecs, indexes in range, one signature slot per signer, a
 * valid v1 config mask), so the bytes are the canonical encoding of what was read.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (
  text: string,
  encoding: Wire.Encoding,
  label: string
): Effect.Effect<Decoded, MalformedTransaction | NonCanonicalTransaction> =>
  Effect.suspend(() => {
    const bytes = Wire.toBytes(text, encoding)
    if (bytes === undefined || bytes.length === 0) {
      return Effect.fail(new MalformedTransaction({ stage: label, message: `${label}: not ${encoding} text` }))
    }
    const result = WireFormat.parse(bytes)
    if (result._tag !== "Parsed") return Effect.fail(refuse(label, result))
    const parsed = result.parsed
    const messageBytes = bytes.slice(parsed.messageOffset, parsed.messageOffset + parsed.messageLength)
    const signers: Array<string> = []
    const signatures: Record<string, SignatureBytes | null> = {}
    const pending: Array<Promise<boolean> | true> = []
    let verifying = false
    for (let i = 0; i < parsed.signatureCount; i++) {
      const address = WireFormat.address(bytes, parsed, i)
      signers.push(address)
      if (WireFormat.isEmptySignature(bytes, parsed, i)) {
        signatures[address] = null
        pending.push(true)
      } else {
        const at = WireFormat.signatureOffset(parsed, i)
        const signature = bytes.slice(at, at + 64)
        signatures[address] = signature as SignatureBytes
        pending.push(verifySignatureOf(address, signature, messageBytes))
        verifying = true
      }
    }
    const view: ReadonlyUint8Array = messageBytes
    const transaction: Transaction = {
      messageBytes: view as TransactionMessageBytes,
      signatures: Object.freeze(signatures) as Transaction["signatures"]
    }
    // SHA-256 synchronously (a few µs; cheaper than a WebCrypto round trip), while the
    // signature checks run in WebCrypto
    const messageSha256 = toHex(sha256(messageBytes))
    const checks = verifying
      ? Effect.promise(() => Promise.all(pending))
      : Effect.succeed(pending.map(() => true))
    return Effect.map(checks, (signatureChecks): Decoded => {
      let message: (CompiledTransactionMessage & CompiledTransactionMessageWithLifetime) | undefined
      return {
        label,
        encoding,
        bytes,
        transaction,
        messageBytes,
        get message() {
          return (message ??= WireFormat.toCompiledMessage(bytes, parsed))
        },
        version: parsed.version,
        messageSha256,
        signatureChecks,
        signers,
        blockhash: WireFormat.lifetime(bytes, parsed),
        budget: budgetOf(bytes, parsed),
        size: {
          bytes: bytes.length,
          accounts: parsed.staticAccountCount + parsed.lookupAccountCount,
          signatures: parsed.numSigners
        }
      }
    })
  })
