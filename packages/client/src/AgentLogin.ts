/**
 * Agent authentication as one call: a wallet signature (and, when the wallet has MFA, a
 * code) for a new API key.
 *
 * @since 0.1.0
 */
import { AgentAuth, Api, FeeShareError, PublicKey, type Signer, Validation } from "@feeshare/domain"
import { Effect, Schema } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface LoginOptions<E = never, R = never> {
  /** The wallet that signs the challenge. */
  readonly signer: Signer.Signer.Service
  /** Human-readable label of the key to create. */
  readonly keyName: string
  /** The MFA code, or an Effect that asks for it (run only when the service asks for MFA). */
  readonly mfaCode?: string | Effect.Effect<string, E, R> | undefined
}

/**
 * What `login` can fail with (besides the MFA provider's own failure).
 *
 * @since 0.1.0
 * @category errors
 */
export type LoginError = FeeShareError.FeeShareError | FeeShareError.MfaRequired | Signer.SignerError

/**
 * The two agent-auth operations `login` drives.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operations {
  readonly init: (
    input: typeof AgentAuth.InitRequest.Type
  ) => Effect.Effect<AgentAuth.Challenge, FeeShareError.FeeShareError>
  readonly callback: (
    input: AgentAuth.CallbackRequest
  ) => Effect.Effect<AgentAuth.CallbackResponse, FeeShareError.FeeShareError>
}

const operation = "agentAuth.login"

const validateKeyName = Validation.encodeRequest(
  Schema.Struct({ keyName: AgentAuth.SignatureCallback.fields.keyName }),
  operation
)

/**
 * `init` → decode the base58 challenge → sign its raw bytes with the `Signer` → `callback`
 * with the base58 signature; on an MFA answer, a second `callback` with the MFA code when one
 * is given, `MfaRequired` otherwise. Nothing is retried: each nonce is used once.
 *
 * @since 0.1.0
 * @category constructors
 */
export const login = (operations: Operations) =>
<E = never, R = never>(
  options: LoginOptions<E, R>
): Effect.Effect<AgentAuth.Credential, LoginError | E, R> =>
  Effect.gen(function*() {
    const { keyName } = yield* validateKeyName({ keyName: options.keyName })
    const address = options.signer.publicKey
    const challenge = yield* operations.init({ address })
    const message = PublicKey.base58.decode(challenge.message)
    if (message === undefined || message.length === 0) {
      return yield* new FeeShareError.UnexpectedResponse({
        status: 200,
        message: "the challenge message is not base58",
        operation: Api.operationName("agentAuth", "init"),
        body: challenge.message.slice(0, 64)
      })
    }
    const signature = yield* options.signer.signMessage(message)
    const answer = yield* operations.callback({
      signature: PublicKey.base58.encode(signature),
      address,
      nonce: challenge.nonce,
      keyName
    })
    if (!AgentAuth.isMfaRequired(answer)) return answer
    if (options.mfaCode === undefined) {
      return yield* new FeeShareError.MfaRequired({
        authCode: answer.authCode,
        method: answer.mfaMethod,
        message: `the wallet requires MFA (${answer.mfaMethod}): log in again with an mfaCode`
      })
    }
    const mfaCode = typeof options.mfaCode === "string" ? options.mfaCode : yield* options.mfaCode
    const second = yield* operations.callback({ authCode: answer.authCode, mfaCode, keyName })
    if (!AgentAuth.isMfaRequired(second)) return second
    return yield* new FeeShareError.MfaRequired({
      authCode: second.authCode,
      method: second.mfaMethod,
      message: `the service asked for MFA (${second.mfaMethod}) again after a code was given`
    })
  }).pipe(Effect.withSpan(operation, { kind: "client", attributes: { "feeshare.operation": operation } }))

/**
 * The operation name of `login` in errors and spans.
 *
 * @since 0.1.0
 * @category constants
 */
export const operationName = operation
