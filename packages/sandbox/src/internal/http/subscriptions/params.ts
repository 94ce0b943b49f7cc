/**
 * The parameters of the subscription methods, as Schemas (bad ones are answered `-32602`
 * naming what was expected), and when a signature's status reaches a commitment.
 */
import { PublicKey } from "@feeshare/domain"
import { Schema } from "effect"
import type { Commitment, SignatureStatus } from "../../model/ledger/models.js"

const commitmentRank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 }

/** Whether `status` has reached `commitment`. */
export const reached = (status: SignatureStatus | null, commitment: Commitment): status is SignatureStatus =>
  status !== null && commitmentRank[status.confirmationStatus] >= commitmentRank[commitment]

const Signature = PublicKey.Base58Signature.annotations({ description: "a base58 signature of 64 bytes" })

const SignatureConfig = Schema.Struct({
  commitment: Schema.optional(Schema.Literal("processed", "confirmed", "finalized")),
  enableReceivedNotification: Schema.optional(Schema.Boolean)
}).annotations({ description: "a config object" })

/** `signatureSubscribe`: `[signature, config?]`. */
export const SignatureSubscribeParams = Schema.Tuple(
  Signature,
  Schema.optionalElement(Schema.NullOr(SignatureConfig).annotations({ description: "a config object or null" }))
).annotations({ description: "[signature, config?]" })

/** `slotSubscribe`: `[]`. */
export const NoParams = Schema.Tuple().annotations({ description: "[]" })

const SubscriptionId = Schema.Number.annotations({ description: "a subscription id" }).pipe(
  Schema.int(),
  Schema.nonNegative(),
  Schema.annotations({ description: "a subscription id" })
)

/** `signatureUnsubscribe` / `slotUnsubscribe`: `[subscription id]`. */
export const UnsubscribeParams = Schema.Tuple(SubscriptionId).annotations({ description: "[subscription id]" })
