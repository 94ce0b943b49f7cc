/**
 * Users, API keys, agent-auth challenges and MFA, in memory. Every secret the sandbox issues
 * (API keys, key ids, nonces, MFA auth codes, TOTP secrets) comes from the CSPRNG
 * (`crypto.getRandomValues`), so one login tells nothing of another's key. Only the seeded demo
 * data stays deterministic: the demo user, and its key while the sandbox is bound to loopback
 * (so that tests and docs stay reproducible); off loopback the demo key is random too.
 * API keys are stored as SHA-256 digests only; the clear key is returned once, when it is
 * created. Nonces and MFA auth codes are single-use and expire after five minutes of the
 * Effect `Clock` (so `TestClock` drives them); at most `maxPending` of each are kept (the
 * oldest go first). A TOTP code is accepted once: after a login, codes of that time step and
 * earlier are refused for the wallet.
 *
 * @since 0.1.0
 */
import type { AgentAuth, Identity } from "@feeshare/domain"
import { BadRequest, NotFound } from "@feeshare/domain/FeeShareError"
import { base58, toBytes } from "@feeshare/domain/PublicKey"
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import { isLoopback } from "./AdminToken.js"
import { Accounts } from "./internal/model/accounts.js"
import * as Seeded from "./internal/model/seeded.js"
import * as Options from "./Options.js"
import * as Totp from "./Totp.js"

/**
 * The error messages of agent authentication (the service's own texts).
 *
 * @since 0.1.0
 * @category constants
 */
export const messages = {
  nonce: "Nonce not found or expired",
  signature: "Invalid signature",
  authCode: "Invalid or expired auth code"
} as const

/**
 * How long a nonce or an MFA auth code stays valid.
 *
 * @since 0.1.0
 * @category constants
 */
export const challengeTtlMillis = 5 * 60 * 1000

/**
 * Wrong MFA codes accepted for one auth code before it is discarded.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxMfaAttempts = 5

/**
 * Unused nonces (and, separately, MFA auth codes) kept at most; past it the oldest are
 * dropped, so a flood of `init` calls cannot grow memory without bound.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxPending = 10_000

export { Accounts, type KeyInfo, type KeyOwner, type MfaSecret } from "./internal/model/accounts.js"

interface KeyRecord {
  readonly keyId: string
  readonly userId: string
  readonly name: string
  revoked: boolean
}

interface UserRecord {
  readonly user: Identity.User
  readonly wallet: string | undefined
  keys: number
}

interface Pending {
  readonly wallet: string
  readonly expiresAt: number
  attempts: number
}

// the one-shot `crypto.hash` (Node >= 20.12) is about twice as fast as a `Hash` object per call
const sha256Hex: (text: string) => string = typeof Crypto.hash === "function"
  ? (text) => Crypto.hash("sha256", text, "hex")
  : (text) => Crypto.createHash("sha256").update(text).digest("hex")

const spkiPrefix = Buffer.from("302a300506032b6570032100", "hex")

const verifyEd25519 = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
  try {
    const key = Crypto.createPublicKey({ key: Buffer.concat([spkiPrefix, publicKey]), format: "der", type: "spki" })
    return Crypto.verify(null, message, key, signature)
  } catch {
    return false
  }
}

/** `length` bytes from the CSPRNG. */
const randomBytes = (length: number): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(length))

/** Where a key's bytes come from: the seed (the demo key on loopback) or the CSPRNG. */
type Bytes = (length: number) => Uint8Array

const operation = "agentAuth.callback"

const reject = (message: string) => new BadRequest({ status: 400, message, operation })

/**
 * Builds the in-memory accounts of a sandbox: one demo user with one key, then whatever
 * agent authentication creates. `pendingBound` is how many nonces (and MFA auth codes) wait at
 * most (`maxPending` unless a test asks for fewer).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options.Options, pendingBound: number = maxPending): Effect.Effect<Accounts.Service> =>
  Effect.gen(function*() {
    // the seeded stream makes the demo key only, and only on loopback
    const seeded = Seeded.stream(options.seed, "accounts")
    const keys = new Map<string, KeyRecord>() // by SHA-256 of the key
    const keyIds = new Map<string, KeyRecord>()
    const users = new Map<string, UserRecord>()
    const usersByWallet = new Map<string, UserRecord>()
    const nonces = new Map<string, Pending & { readonly message: Uint8Array }>()
    const authCodes = new Map<string, Pending>()
    const mfaSecrets = new Map<string, Uint8Array>()
    // the last TOTP time step a wallet logged in with: a code is good once
    const usedSteps = new Map<string, number>()

    /** Drops expired entries, then the oldest while the store is full (insertion order is expiry order). */
    const makeRoom = <V extends { readonly expiresAt: number }>(store: Map<string, V>, now: number): void => {
      for (const [key, value] of store) {
        if (value.expiresAt > now && store.size < pendingBound) return
        store.delete(key)
      }
    }

    const addUser = (wallet: string | undefined, now: number): UserRecord => {
      const label = wallet === undefined ? "demo-user" : `user:${wallet}`
      const uuid = Seeded.uuid(Seeded.derive(options.seed, label))
      const record: UserRecord = {
        wallet,
        keys: 0,
        user: {
          uuid,
          type: wallet === undefined ? "developer" : "agent",
          membership: { tier: "free", since: new Date(now).toISOString() },
          ticker: null,
          username: wallet === undefined ? "demo" : `agent_${wallet.slice(0, 8)}`,
          status: "active",
          pref_name: wallet === undefined ? "Demo developer" : null,
          picture: null,
          social_userID: null,
          registered_at: new Date(now).toISOString(),
          profile_views: 0,
          invites: 0,
          invited_by: null,
          social_data: null,
          points: 0,
          rank: null,
          referral_count: 0
        }
      }
      users.set(uuid, record)
      if (wallet !== undefined) usersByWallet.set(wallet, record)
      return record
    }

    const addKey = (owner: UserRecord, name: string, bytes: Bytes = randomBytes): { apiKey: string; keyId: string } => {
      const apiKey = `fs_sbx_${base58.encode(bytes(24))}`
      const keyId = `key_${Seeded.toHex(bytes(8))}`
      const record: KeyRecord = { keyId, userId: owner.user.uuid, name, revoked: false }
      keys.set(sha256Hex(apiKey), record)
      keyIds.set(keyId, record)
      owner.keys++
      return { apiKey, keyId }
    }

    const now0 = yield* Clock.currentTimeMillis
    const demo = addUser(undefined, now0)
    const demoKey = addKey(demo, "demo", isLoopback(options.host) ? seeded.bytes : randomBytes)

    const issue = (wallet: string, keyName: string, now: number): AgentAuth.Credential => {
      const existing = usersByWallet.get(wallet)
      const owner = existing ?? addUser(wallet, now)
      const isSignup = existing === undefined || existing.keys === 0
      const { apiKey, keyId } = addKey(owner, keyName)
      return { apiKey: Redacted.make(apiKey), keyId, isSignup }
    }

    const service: Accounts.Service = {
      demoKey: Redacted.make(demoKey.apiKey),
      demoUserId: demo.user.uuid,
      pending: () => ({ nonces: nonces.size, authCodes: authCodes.size }),
      resolve: (apiKey) => {
        if (apiKey === "") return Option.none()
        const record = keys.get(sha256Hex(apiKey))
        return record === undefined || record.revoked
          ? Option.none()
          : Option.some({ userId: record.userId, keyId: record.keyId })
      },
      user: (userId) => {
        const record = users.get(userId)
        return record === undefined
          ? Effect.fail(new NotFound({ status: 404, message: "User not found", operation: "identity.me" }))
          : Effect.succeed(record.user)
      },
      init: (address) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const nonce = base58.encode(randomBytes(16))
          const text = [
            "Sign in to the feeshare sandbox",
            `Wallet: ${address}`,
            `Nonce: ${nonce}`,
            `Issued at: ${new Date(now).toISOString()}`,
            `Entropy: ${base58.encode(randomBytes(16))}`
          ].join("\n")
          const message = new TextEncoder().encode(text)
          makeRoom(nonces, now)
          nonces.set(nonce, { wallet: address, expiresAt: now + challengeTtlMillis, attempts: 0, message })
          return { message: base58.encode(message), nonce }
        }),
      callback: (request) =>
        Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<AgentAuth.CallbackResponse, BadRequest> => {
          if ("signature" in request) {
            const pending = nonces.get(request.nonce)
            // single use: any attempt consumes the nonce
            nonces.delete(request.nonce)
            if (pending === undefined || pending.expiresAt <= now || pending.wallet !== request.address) {
              return Effect.fail(reject(messages.nonce))
            }
            const signature = base58.decode(request.signature)
            if (signature === undefined || !verifyEd25519(toBytes(request.address), pending.message, signature)) {
              return Effect.fail(reject(messages.signature))
            }
            if (mfaSecrets.has(request.address)) {
              const authCode = base58.encode(randomBytes(24))
              makeRoom(authCodes, now)
              authCodes.set(authCode, { wallet: request.address, expiresAt: now + challengeTtlMillis, attempts: 0 })
              return Effect.succeed({ mfaRequired: true as const, mfaMethod: "totp", authCode })
            }
            return Effect.succeed(issue(request.address, request.keyName, now))
          }
          const pending = authCodes.get(request.authCode)
          if (pending === undefined || pending.expiresAt <= now) {
            authCodes.delete(request.authCode)
            return Effect.fail(reject(messages.authCode))
          }
          const secret = mfaSecrets.get(pending.wallet)
          const step = secret === undefined ? undefined : Totp.matchStep(secret, request.mfaCode, now)
          const used = usedSteps.get(pending.wallet)
          if (step === undefined || (used !== undefined && step <= used)) {
            pending.attempts++
            if (pending.attempts >= maxMfaAttempts) authCodes.delete(request.authCode)
            return Effect.fail(reject(messages.authCode))
          }
          usedSteps.set(pending.wallet, step)
          authCodes.delete(request.authCode)
          return Effect.succeed(issue(pending.wallet, request.keyName, now))
        }),
      enableMfa: (wallet) =>
        Effect.sync(() => {
          // a new secret each time: enabling again rotates it
          const secret = randomBytes(20)
          mfaSecrets.set(wallet, secret)
          const base32 = Totp.toBase32(secret)
          return {
            wallet,
            secret: base32,
            otpauthUrl:
              `otpauth://totp/feeshare-sandbox:${wallet}?secret=${base32}&issuer=feeshare-sandbox&algorithm=SHA1&digits=${Totp.defaults.digits}&period=${Totp.defaults.periodSeconds}`,
            digits: Totp.defaults.digits,
            periodSeconds: Totp.defaults.periodSeconds
          }
        }),
      revoke: (keyId) =>
        Effect.sync(() => {
          const record = keyIds.get(keyId)
          if (record === undefined) return false
          record.revoked = true
          return true
        }),
      keys: (max) =>
        [...keyIds.values()].slice(0, max).map(({ keyId, name, revoked, userId }) => ({ keyId, name, revoked, userId }))
    }
    return service
  })

/**
 * The accounts as a layer; `pendingBound` as in `make`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options.Options, pendingBound: number = maxPending): Layer.Layer<Accounts> =>
  Layer.effect(Accounts, make(options, pendingBound))
