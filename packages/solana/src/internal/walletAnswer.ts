/**
 * The `Signer` port over a wallet this process does not hold the key of: the wallet is asked,
 * and its answer is used only when it is a 64-byte signature that verifies for its own key.
 */
import { Signer } from "@feeshare/domain"
import { Effect } from "effect"
import { verifySignatureOf } from "./ed25519.js"

/** A `Signer` service whose signatures come from `ask`, each checked before it is returned. */
export const checkedSigner = (
  publicKey: string,
  ask: (message: Uint8Array) => Promise<Uint8Array | undefined>
): Signer.Signer.Service => {
  const fail = (message: string) =>
    new Signer.SignerError({ publicKey, message: `the wallet ${publicKey} ${message}`.slice(0, 500) })
  return {
    publicKey,
    signMessage: (message) =>
      Effect.tryPromise({
        try: () => ask(message),
        catch: (error) => fail(`did not sign: ${error instanceof Error ? error.message : String(error)}`)
      }).pipe(
        Effect.flatMap((answer) => {
          if (answer === undefined || answer.length !== 64) {
            return Effect.fail(fail("answered without a 64-byte signature of its own"))
          }
          const signature = Uint8Array.from(answer)
          return Effect.flatMap(
            Effect.promise(() => verifySignatureOf(publicKey, signature, Uint8Array.from(message))),
            (valid) =>
              valid ? Effect.succeed(signature) : Effect.fail(fail("answered with a signature that does not verify"))
          )
        })
      )
  }
}
