/**
 * Agent authentication: a wallet signature (and, when enabled, an MFA code) for an API key.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { NonEmptyText } from "./internal/schema.js"
import { Base58Signature, Base58String, PublicKey } from "./PublicKey.js"

/**
 * Body of `init`.
 *
 * @since 0.1.0
 * @category requests
 */
export const InitRequest = Schema.Struct({ address: PublicKey }).annotations({ identifier: "InitRequest" })

/**
 * A challenge: `message` is base58 of the bytes to sign; `nonce` is single-use.
 *
 * @since 0.1.0
 * @category resources
 */
export const Challenge = Schema.Struct({ message: Base58String, nonce: Schema.String }).annotations({
  identifier: "Challenge"
})

/**
 * @since 0.1.0
 * @category resources
 */
export type Challenge = typeof Challenge.Type

/**
 * The wallet-signature callback payload.
 *
 * @since 0.1.0
 * @category requests
 */
export const SignatureCallback = Schema.Struct({
  signature: Base58Signature,
  address: PublicKey,
  nonce: NonEmptyText,
  keyName: NonEmptyText
}).annotations({ identifier: "SignatureCallback" })

/**
 * The MFA callback payload.
 *
 * @since 0.1.0
 * @category requests
 */
export const MfaCallback = Schema.Struct({
  authCode: NonEmptyText,
  mfaCode: NonEmptyText,
  keyName: NonEmptyText
}).annotations({ identifier: "MfaCallback" })

/**
 * Body of `callback`: a wallet-signature payload or an MFA payload.
 *
 * @since 0.1.0
 * @category requests
 */
export const CallbackRequest = Schema.Union(SignatureCallback, MfaCallback).annotations({
  identifier: "CallbackRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export type CallbackRequest = typeof CallbackRequest.Type

/**
 * A new API key (shown once; carried as `Redacted`).
 *
 * @since 0.1.0
 * @category resources
 */
export const Credential = Schema.Struct({
  apiKey: Schema.Redacted(Schema.String),
  keyId: Schema.String,
  isSignup: Schema.Boolean
}).annotations({ identifier: "Credential" })

/**
 * @since 0.1.0
 * @category resources
 */
export type Credential = typeof Credential.Type

/**
 * The answer when the wallet has MFA enabled: call back again with the MFA payload.
 *
 * @since 0.1.0
 * @category resources
 */
export const MfaRequired = Schema.Struct({
  mfaRequired: Schema.Literal(true),
  mfaMethod: Schema.String,
  authCode: Schema.String
}).annotations({ identifier: "MfaRequired" })

/**
 * @since 0.1.0
 * @category resources
 */
export type MfaRequired = typeof MfaRequired.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const CallbackResponse = Schema.Union(Credential, MfaRequired).annotations({ identifier: "CallbackResponse" })

/**
 * @since 0.1.0
 * @category resources
 */
export type CallbackResponse = typeof CallbackResponse.Type

/**
 * @since 0.1.0
 * @category guards
 */
export const isMfaRequired = (response: CallbackResponse): response is MfaRequired => "mfaRequired" in response
