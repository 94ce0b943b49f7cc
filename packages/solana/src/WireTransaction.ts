/**
 * Wire transactions from the service: decode (base64 or base58; legacy, v0, v1), verify
 * against the metadata that came with them, and co-sign. Every check that fails is a typed
 * refusal naming the check and the transaction, and only a `Verified` transaction can be
 * signed.
 *
 * One entry for the steps, each in its own module: `TransactionRefusal` (the refusals),
 * `TransactionDecoding` (strict decoding), `TransactionVerification` (the checks),
 * `ClaimVerification` (the checks of claims without plan metadata: gas-sponsored and v3)
 * and `TransactionSigning` (co-signing).
 *
 * @since 0.1.0
 */
export * from "./ClaimVerification.js"
export * from "./TransactionDecoding.js"
export * from "./TransactionRefusal.js"
export * from "./TransactionSigning.js"
export * from "./TransactionVerification.js"
