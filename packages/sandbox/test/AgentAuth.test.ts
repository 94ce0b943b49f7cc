import { assert, describe, it } from "@effect/vitest"
import { AgentAuth } from "@feeshare/domain"
import { base58 } from "@feeshare/domain/PublicKey"
import { Clock, Effect, Redacted, Schema, TestClock } from "effect"
import { Accounts } from "../src/Accounts.js"
import * as Accounts_ from "../src/Accounts.js"
import * as Seeded from "../src/internal/model/seeded.js"
import * as Options from "../src/Options.js"
import * as SandboxApi from "../src/SandboxApi.js"
import * as Server from "../src/Server.js"
import * as Totp from "../src/Totp.js"
import { call, decodeSuccess, endpoint, fetchReply, sandbox } from "./support/http.js"
import { makeWallet, signIn } from "./support/wallet.js"

const nonceError = { success: false, error: "Nonce not found or expired" }
const authCodeError = { success: false, error: "Invalid or expired auth code" }
/** The pending-nonce bound of the flood test (the sandbox keeps `Accounts.maxPending`, 10 000). */
const pendingBound = 500

const credentialOf = (value: unknown) => {
  assert.isTrue(Schema.is(AgentAuth.Credential)(value), `a credential: ${String(value)}`)
  return value as AgentAuth.Credential
}

describe("Agent authentication", () => {
  it.effect("a wallet signature gets a working key; the first key of a wallet is a signup", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const first = yield* signIn(wallet, "laptop")
      const challenge = decodeSuccess("agentAuth", "init", first.init) as AgentAuth.Challenge
      assert.include(new TextDecoder().decode(base58.decode(challenge.message)), wallet.address)
      const credential = credentialOf(decodeSuccess("agentAuth", "callback", first.reply))
      assert.isTrue(credential.isSignup)
      // the wire carries the key in clear exactly once, in this answer
      assert.include(first.reply.text, (first.reply.json as { response: { apiKey: string } }).response.apiKey)

      const key = (first.reply.json as { response: { apiKey: string } }).response.apiKey
      const me = decodeSuccess("identity", "me", yield* call("identity", "me", { apiKey: key })) as {
        user: { uuid: string; username?: string | null }
      }
      assert.strictEqual(me.user.username, `agent_${wallet.address.slice(0, 8)}`)

      const second = yield* signIn(wallet, "ci")
      const again = credentialOf(decodeSuccess("agentAuth", "callback", second.reply))
      assert.isFalse(again.isSignup)
      assert.notStrictEqual(again.keyId, credential.keyId)
      const key2 = (second.reply.json as { response: { apiKey: string } }).response.apiKey
      const me2 = decodeSuccess("identity", "me", yield* call("identity", "me", { apiKey: key2 })) as {
        user: { uuid: string }
      }
      assert.strictEqual(me2.user.uuid, me.user.uuid)
    }).pipe(Effect.provide(sandbox())))

  it.effect("a nonce is single-use: a replayed callback is refused", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const first = yield* signIn(wallet, "k")
      assert.strictEqual(first.reply.status, 200)
      const replay = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { signature: first.signature, address: wallet.address, nonce: first.nonce, keyName: "k" }
      })
      assert.deepStrictEqual([replay.status, replay.json], [400, nonceError])
    }).pipe(Effect.provide(sandbox())))

  it.effect("a nonce expires after five minutes of the clock", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const callback = (nonce: string, message: string) =>
        Effect.gen(function*() {
          const signature = base58.encode(yield* Effect.promise(() => wallet.sign(base58.decode(message)!)))
          return yield* call("agentAuth", "callback", {
            apiKey: null,
            body: { signature, address: wallet.address, nonce, keyName: "k" }
          })
        })
      const init = () =>
        Effect.map(
          call("agentAuth", "init", { apiKey: null, body: { address: wallet.address } }),
          (reply) => decodeSuccess("agentAuth", "init", reply) as AgentAuth.Challenge
        )
      const late = yield* init()
      const inTime = yield* init()
      yield* TestClock.adjust("299 seconds")
      assert.strictEqual((yield* callback(inTime.nonce, inTime.message)).status, 200)
      yield* TestClock.adjust("1 second")
      const expired = yield* callback(late.nonce, late.message)
      assert.deepStrictEqual([expired.status, expired.json], [400, nonceError])
    }).pipe(Effect.provide(sandbox())))

  it.effect("a bad signature is refused and the nonce is spent", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const other = yield* makeWallet
      const init = yield* call("agentAuth", "init", { apiKey: null, body: { address: wallet.address } })
      const challenge = decodeSuccess("agentAuth", "init", init) as AgentAuth.Challenge
      const bytes = base58.decode(challenge.message)!
      const forged = base58.encode(yield* Effect.promise(() => other.sign(bytes)))
      const bad = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { signature: forged, address: wallet.address, nonce: challenge.nonce, keyName: "k" }
      })
      assert.deepStrictEqual([bad.status, bad.json], [400, { success: false, error: "Invalid signature" }])
      const good = base58.encode(yield* Effect.promise(() => wallet.sign(bytes)))
      const retry = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { signature: good, address: wallet.address, nonce: challenge.nonce, keyName: "k" }
      })
      assert.deepStrictEqual([retry.status, retry.json], [400, nonceError])
    }).pipe(Effect.provide(sandbox())))

  it.effect("a nonce issued to one wallet does not sign in another", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const thief = yield* makeWallet
      const init = yield* call("agentAuth", "init", { apiKey: null, body: { address: wallet.address } })
      const challenge = decodeSuccess("agentAuth", "init", init) as AgentAuth.Challenge
      const signature = base58.encode(yield* Effect.promise(() => thief.sign(base58.decode(challenge.message)!)))
      const reply = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { signature, address: thief.address, nonce: challenge.nonce, keyName: "k" }
      })
      assert.deepStrictEqual([reply.status, reply.json], [400, nonceError])
    }).pipe(Effect.provide(sandbox())))

  it.effect("with MFA on, the callback asks for a TOTP code; a wrong code is refused, the right one gets a key", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const enabled = yield* call("sandbox", "enableMfa", { apiKey: null, body: { wallet: wallet.address } })
      const { secret } = decodeSuccess("sandbox", "enableMfa", enabled) as typeof SandboxApi.MfaSecret.Type
      const first = yield* signIn(wallet, "mfa")
      const challenge = decodeSuccess("agentAuth", "callback", first.reply)
      assert.isTrue(Schema.is(AgentAuth.MfaRequired)(challenge))
      const { authCode, mfaMethod } = challenge as AgentAuth.MfaRequired
      assert.strictEqual(mfaMethod, "totp")

      const now = yield* Clock.currentTimeMillis
      const code = Totp.generate(Totp.fromBase32(secret)!, now)
      const wrongCode = code === "000000" ? "000001" : "000000"
      const wrong = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { authCode, mfaCode: wrongCode, keyName: "mfa" }
      })
      assert.deepStrictEqual([wrong.status, wrong.json], [400, authCodeError])

      const right = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { authCode, mfaCode: code, keyName: "mfa" }
      })
      assert.strictEqual(right.status, 200, right.text)
      assert.isTrue(credentialOf(decodeSuccess("agentAuth", "callback", right)).isSignup)

      const reused = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { authCode, mfaCode: code, keyName: "mfa" }
      })
      assert.deepStrictEqual([reused.status, reused.json], [400, authCodeError])
      const unknown = yield* call("agentAuth", "callback", {
        apiKey: null,
        body: { authCode: "nope", mfaCode: code, keyName: "x" }
      })
      assert.deepStrictEqual([unknown.status, unknown.json], [400, authCodeError])
    }).pipe(Effect.provide(sandbox())))

  it.effect("the agent-auth operations have their own, smaller limit", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const init = () => call("agentAuth", "init", { apiKey: null, body: { address: wallet.address } })
      for (let i = 0; i < 3; i++) {
        const ok = yield* init()
        assert.strictEqual(ok.status, 200)
        // the headers report the account-wide budget, not the hidden agent-auth one
        assert.strictEqual(ok.headers["x-ratelimit-limit"], "100")
      }
      const refused = yield* init()
      assert.strictEqual(refused.status, 429)
      assert.deepStrictEqual(refused.json, {
        success: false,
        error: "Too many requests",
        limit: 3,
        remaining: 0,
        resetTime: 60
      })
      assert.deepStrictEqual(
        [
          refused.headers["x-ratelimit-limit"],
          refused.headers["x-ratelimit-remaining"],
          refused.headers["x-ratelimit-reset"]
        ],
        ["3", "0", "60"]
      )
      // other operations are not affected
      assert.strictEqual((yield* call("system", "ping")).status, 200)
      yield* TestClock.adjust("60 seconds")
      assert.strictEqual((yield* init()).status, 200)
    }).pipe(Effect.provide(sandbox({ agentAuthLimit: 3, agentAuthWindowMillis: 60_000, rateLimit: 100 }))))

  it.effect("a TOTP code is good once: a second login in the same time step with it is refused", () =>
    Effect.gen(function*() {
      const wallet = yield* makeWallet
      const enabled = yield* call("sandbox", "enableMfa", { apiKey: null, body: { wallet: wallet.address } })
      const secret = Totp.fromBase32(
        (decodeSuccess("sandbox", "enableMfa", enabled) as typeof SandboxApi.MfaSecret.Type).secret
      )!
      const mfaLogin = (code: string) =>
        Effect.gen(function*() {
          const { reply } = yield* signIn(wallet, "mfa")
          const { authCode } = decodeSuccess("agentAuth", "callback", reply) as AgentAuth.MfaRequired
          return yield* call("agentAuth", "callback", {
            apiKey: null,
            body: { authCode, mfaCode: code, keyName: "mfa" }
          })
        })
      const code = Totp.generate(secret, yield* Clock.currentTimeMillis)
      assert.strictEqual((yield* mfaLogin(code)).status, 200)
      const replayed = yield* mfaLogin(code)
      assert.deepStrictEqual([replayed.status, replayed.json], [400, authCodeError])
      // the previous step's code is inside the drift allowance, but older than the used one
      yield* TestClock.adjust("30 seconds")
      const next = Totp.generate(secret, yield* Clock.currentTimeMillis)
      assert.strictEqual((yield* mfaLogin(next)).status, 200)
    }).pipe(Effect.provide(sandbox())))

  it.effect("path variants of the agent-auth operations are 404s that never reach them: the limit holds", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const wallet = yield* makeWallet
      const path = endpoint("agentAuth", "init").path
      const body = JSON.stringify({ address: wallet.address })
      const post = (target: string) =>
        fetchReply(`${info.rootUrl}${target}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" }
        })
      for (let i = 0; i < 2; i++) assert.strictEqual((yield* post(path)).status, 200)
      const variants = [`${path}/`, `/${path}`, path.toUpperCase(), `${path};x`, path.replace(/init$/, "%69nit")]
      for (const variant of variants) {
        const reply = yield* post(variant)
        assert.strictEqual(reply.status, 404, `${variant}: ${reply.text}`)
      }
      assert.strictEqual((yield* post(path)).status, 429)
    }).pipe(Effect.provide(sandbox({ agentAuthLimit: 2, rateLimit: 100 }))))

  it.effect("a flood of challenges keeps at most the bound of pending nonces; expired ones are dropped", () =>
    Effect.gen(function*() {
      const accounts = yield* Accounts
      const wallet = yield* makeWallet
      // the rule at a smaller bound than the default 10 000 (each init base58-encodes its message)
      for (let i = 0; i < pendingBound + 200; i++) yield* accounts.init(wallet.address)
      assert.strictEqual(accounts.pending().nonces, pendingBound)
      yield* TestClock.adjust(Accounts_.challengeTtlMillis + 1)
      yield* accounts.init(wallet.address)
      assert.strictEqual(accounts.pending().nonces, 1)
    }).pipe(Effect.provide(Accounts_.layer(Options.make(), pendingBound))))

  it.effect("the predicted-key attack finds nothing: keys, nonces and TOTP secrets do not follow from the public seed", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      // what an attacker computes from the public default seed, the way the sandbox once drew its secrets:
      // one SHA-256 stream of (seed, "accounts"): the demo key (24 + 8 bytes), then a login's nonce and
      // entropy (16 + 16), then that login's key (24 + 8)
      const old = Seeded.stream(info.options.seed, "accounts")
      const demo = `fs_sbx_${base58.encode(old.bytes(24))}`
      old.bytes(8)
      const predictedNonce = base58.encode(old.bytes(16))
      old.bytes(16)
      const predictedKey = `fs_sbx_${base58.encode(old.bytes(24))}`
      // the printed demo key stays reproducible on loopback
      assert.strictEqual(Redacted.value(info.demoApiKey), demo)

      const wallet = yield* makeWallet
      const login = yield* signIn(wallet, "victim")
      assert.strictEqual(login.reply.status, 200)
      assert.notStrictEqual(login.nonce, predictedNonce)
      const issued = (login.reply.json as { response: { apiKey: string } }).response.apiKey
      assert.notStrictEqual(issued, predictedKey)
      const me = yield* call("identity", "me", { apiKey: predictedKey })
      assert.strictEqual(me.status, 401, me.text)

      // nor is a wallet's TOTP secret SHA-256 of the seed and the wallet
      const enabled = yield* call("sandbox", "enableMfa", { apiKey: null, body: { wallet: wallet.address } })
      const { secret } = decodeSuccess("sandbox", "enableMfa", enabled) as typeof SandboxApi.MfaSecret.Type
      assert.notStrictEqual(
        secret,
        Totp.toBase32(Seeded.derive(info.options.seed, `totp:${wallet.address}`).subarray(0, 20))
      )
    }).pipe(Effect.provide(sandbox())))

  it.effect("off loopback the demo key is random too", () =>
    Effect.gen(function*() {
      const options = Options.make({ host: "0.0.0.0" })
      const first = yield* Accounts_.make(options)
      const second = yield* Accounts_.make(options)
      assert.notStrictEqual(Redacted.value(first.demoKey), Redacted.value(second.demoKey))
      const loopback = Options.make()
      assert.strictEqual(
        Redacted.value((yield* Accounts_.make(loopback)).demoKey),
        Redacted.value((yield* Accounts_.make(loopback)).demoKey)
      )
    }))
})
