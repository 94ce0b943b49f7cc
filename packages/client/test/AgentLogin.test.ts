import { FeeShareError, Signer } from "@feeshare/domain"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { Effect, Redacted } from "effect"
import * as F from "./fixtures.js"
import { apiServer, json, makeClient, type Received, scripted, type Seen } from "./servers.js"

const operations = (received: ReadonlyArray<Received>) => received.map((entry) => entry.operation)

const nonceOf = (entry: Received | undefined): string | undefined => {
  const input: unknown = entry?.input
  return typeof input === "object" && input !== null && "nonce" in input && typeof input.nonce === "string"
    ? input.nonce
    : undefined
}

describe("agentAuth.login", () => {
  it.scoped("signs the decoded challenge bytes; each login uses a fresh nonce", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const wallet = F.makeSigner()
      yield* client.agentAuth.login({ signer: wallet.service, keyName: "laptop" })
      yield* client.agentAuth.login({ signer: wallet.service, keyName: "laptop" })
      const callbacks = received.filter((entry) => entry.operation === "agentAuth.callback")
      assert.deepStrictEqual(callbacks.map(nonceOf), ["nonce-1", "nonce-2"])
      assert.strictEqual(wallet.signatures(), 2)
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("an MFA answer without a code is MfaRequired { authCode, method }", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const error = yield* Effect.flip(client.agentAuth.login({ signer: F.makeSigner().service, keyName: "ci" }))
      assertInstanceOf(error, FeeShareError.MfaRequired)
      assert.deepStrictEqual([error.authCode, error.method], ["auth-code-1", "totp"])
      assert.deepStrictEqual(operations(received), ["agentAuth.init", "agentAuth.callback"])
    }).pipe(Effect.provide(apiServer(received, { mfa: true })))
  })

  it.scoped("with an MFA code the second callback carries it", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const credential = yield* client.agentAuth.login({ signer: F.makeSigner().service, keyName: "ci", mfaCode: "123456" })
      assert.deepStrictEqual([Redacted.value(credential.apiKey), credential.keyId], ["fs-new-key", "key-2"])
      assert.deepStrictEqual(operations(received), ["agentAuth.init", "agentAuth.callback", "agentAuth.callback"])
      assert.deepStrictEqual(received[2]?.input, { authCode: "auth-code-1", mfaCode: "123456", keyName: "ci" })
    }).pipe(Effect.provide(apiServer(received, { mfa: true })))
  })

  it.scoped("an MFA provider Effect runs only when MFA is asked for", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      let asked = 0
      const provider = Effect.sync(() => {
        asked++
        return "123456"
      })
      const client = yield* makeClient()
      yield* client.agentAuth.login({ signer: F.makeSigner().service, keyName: "ci", mfaCode: provider })
      assert.strictEqual(asked, 1)
      const wrong = yield* Effect.flip(
        client.agentAuth.login({ signer: F.makeSigner().service, keyName: "ci", mfaCode: "000000" })
      )
      assertInstanceOf(wrong, FeeShareError.BadRequest)
      assert.strictEqual(wrong.message, "Invalid or expired auth code")
    }).pipe(Effect.provide(apiServer(received, { mfa: true })))
  })

  it.scoped("a signer that refuses stops the login before the callback", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const refusing: Signer.Signer.Service = {
        publicKey: F.wallet,
        signMessage: () => Effect.fail(new Signer.SignerError({ publicKey: F.wallet, message: "user rejected" }))
      }
      const error = yield* Effect.flip(client.agentAuth.login({ signer: refusing, keyName: "ci" }))
      assertInstanceOf(error, Signer.SignerError)
      assert.deepStrictEqual(operations(received), ["agentAuth.init"])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("a signature from another key is the server's 400, not retried", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const impostor = { ...F.makeSigner().service, publicKey: F.makeSigner().service.publicKey }
      const error = yield* Effect.flip(client.agentAuth.login({ signer: impostor, keyName: "ci" }))
      assertInstanceOf(error, FeeShareError.BadRequest)
      assert.strictEqual(error.message, "Invalid signature")
      assert.deepStrictEqual(operations(received), ["agentAuth.init", "agentAuth.callback"])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("the configured API key is not sent to the agent-auth operations, but is to the others", () => {
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make("fs-configured-key"), retry: { maxAttempts: 1 } })
      yield* Effect.flip(client.agentAuth.init({ address: F.wallet }))
      yield* Effect.flip(client.identity.me())
      yield* Effect.flip(client.ping())
      assert.deepStrictEqual(seen.map((entry) => entry.apiKey), [undefined, "fs-configured-key", "fs-configured-key"])
    }).pipe(Effect.provide(scripted(seen, () => json({ success: false, error: "no" }, 400))))
  })
})
