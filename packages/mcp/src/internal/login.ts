/**
 * The `login` tool's handler: a wallet signs in for an API key (the human gives the MFA code
 * through elicitation when the wallet needs one) and the handlers use it from then on.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import type { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { FeeShareError } from "@feeshare/domain"
import { Effect, type Redacted, Ref, Schema, Scope } from "effect"
import { ToolFailure } from "../Tools.js"
import type { HandlerContext, ToolHandlers } from "./context.js"
import { failing } from "./failures.js"

/**
 * The `login` handler; once an API key was configured or a login succeeded, it refuses.
 *
 * @since 0.1.0
 * @category handlers
 */
export const make = (context: HandlerContext, options: {
  readonly hasApiKey: boolean
  readonly clientWith: (
    apiKey: Redacted.Redacted<string>
  ) => Effect.Effect<FeeShareClient.Service, FeeShareError.InvalidRequest, Scope.Scope>
  /** Where the new client lives (the handlers' layer). */
  readonly scope: Scope.Scope
}): Pick<ToolHandlers, "login"> => {
  let loggedIn = options.hasApiKey
  return {
    login: ({ keyName, wallet }) =>
      failing(Effect.gen(function*() {
        if (loggedIn) {
          return yield* new ToolFailure({ error: "AlreadyLoggedIn", message: "the server already has an API key" })
        }
        const signer = yield* context.signerFor(wallet)
        const name = keyName ?? "feeshare-mcp"
        const askHuman = McpServer.elicit({
          message: `The wallet ${signer.publicKey} asks for its MFA code to create the API key "${name}".`,
          schema: Schema.Struct({ code: Schema.String.annotations({ description: "the current MFA code" }) })
        }).pipe(
          Effect.map(({ code }) => code),
          Effect.mapError(() =>
            new ToolFailure({ error: "MfaRefused", message: "the wallet requires MFA and no human gave a code" })
          )
        )
        const credential = yield* Effect.flatMap(context.api, (client) =>
          client.agentAuth.login({ signer, keyName: name, mfaCode: askHuman }))
        yield* Ref.set(
          context.client,
          yield* options.clientWith(credential.apiKey).pipe(Effect.provideService(Scope.Scope, options.scope))
        )
        loggedIn = true
        return { wallet: signer.publicKey, keyId: credential.keyId, keyName: name, isSignup: credential.isSignup }
      }))
  }
}
