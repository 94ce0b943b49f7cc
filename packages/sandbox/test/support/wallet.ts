/**
 * A plain WebCrypto Ed25519 wallet for the agent-auth tests.
 */
import { Api } from "@feeshare/domain"
import { base58, fromBytes } from "@feeshare/domain/PublicKey"
import { Effect } from "effect"
import { call } from "./http.js"

export interface Wallet {
  readonly address: string
  readonly sign: (message: Uint8Array) => Promise<Uint8Array>
}

export const makeWallet: Effect.Effect<Wallet> = Effect.promise(async () => {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"])
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))
  return {
    address: fromBytes(raw),
    sign: async (message) =>
      new Uint8Array(await crypto.subtle.sign("Ed25519", pair.privateKey, Uint8Array.from(message)))
  }
})

/** init, then the signature callback, as a client does it. */
export const signIn = (wallet: Wallet, keyName: string) =>
  Effect.gen(function*() {
    const init = yield* call("agentAuth", "init", { apiKey: null, body: { address: wallet.address } })
    const { message, nonce } = (init.json as { response: { message: string; nonce: string } }).response
    const bytes = base58.decode(message)
    if (bytes === undefined) throw new Error("challenge is not base58")
    const signature = base58.encode(yield* Effect.promise(() => wallet.sign(bytes)))
    const reply = yield* call("agentAuth", "callback", {
      apiKey: null,
      body: { signature, address: wallet.address, nonce, keyName }
    })
    return { init, reply, nonce, signature, message: bytes }
  })

/** A fresh wallet signed in: its new key. */
export const login = (keyName: string) =>
  Effect.gen(function*() {
    const wallet = yield* makeWallet
    const { reply } = yield* signIn(wallet, keyName)
    if (reply.status !== 200) throw new Error(`login failed: ${reply.text}`)
    const credential = (reply.json as { response: { apiKey: string; keyId: string; isSignup: boolean } }).response
    return { wallet, ...credential }
  })

export const apiKeyHeader = Api.apiKeyHeader
