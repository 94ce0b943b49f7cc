/**
 * `feeshare auth login | me` and `feeshare limits`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as Credentials from "../../Credentials.js"
import * as Output from "../../Output.js"
import { client, findApiKey, makeClient, signer } from "../context.js"
import { Environment } from "../environment.js"

export const login = (
  args: { readonly keyName: string; readonly mfaCode: Option.Option<string> }
) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* Environment
    const wallet = yield* signer("auth login")
    const anonymous = yield* makeClient(Option.none())
    const credential = yield* anonymous.agentAuth.login({
      signer: wallet,
      keyName: args.keyName,
      mfaCode: Option.getOrUndefined(args.mfaCode)
    })
    const file = yield* Credentials.save(baseUrl, {
      apiKey: credential.apiKey,
      keyId: credential.keyId,
      keyName: args.keyName,
      wallet: wallet.publicKey
    })
    const summary = {
      wallet: wallet.publicKey,
      keyId: credential.keyId,
      keyName: args.keyName,
      isSignup: credential.isSignup,
      baseUrl: Credentials.keyOf(baseUrl),
      credentialsFile: file
    }
    return Output.result(summary, [
      `Logged in as ${wallet.publicKey}${credential.isSignup ? " (new account)" : ""}.`,
      ...Output.fields([
        ["key id", credential.keyId],
        ["key name", args.keyName],
        ["stored in", `${file} (mode 0600; used for ${summary.baseUrl})`]
      ])
    ])
  })

export const me = () =>
  Effect.gen(function*() {
    const api = yield* client("auth me")
    const { user } = yield* api.identity.me()
    const entries: Array<readonly [string, string]> = [["uuid", user.uuid]]
    for (const key of ["username", "type", "status", "registered_at", "points", "rank"] as const) {
      const value = user[key]
      if (value !== undefined && value !== null) entries.push([key, String(value)])
    }
    return Output.result({ user }, Output.fields(entries))
  })

export const limits = () =>
  Effect.gen(function*() {
    const apiKey = yield* findApiKey
    const api = yield* makeClient(apiKey)
    const started = Date.now()
    const pong = yield* api.ping()
    const millis = Date.now() - started
    const info = yield* SubscriptionRef.get(api.rateLimit)
    const budget = Option.map(info, (i) => ({
      limit: i.limit,
      remaining: i.remaining,
      resetAt: i.resetAt,
      resetIso: new Date(i.resetAt * 1000).toISOString()
    }))
    return Output.result(
      { ping: pong.message, millis, rateLimit: Option.getOrNull(budget) },
      Output.fields([
        ["ping", `${pong.message} (${millis} ms)`],
        ...Option.match(budget, {
          onNone: (): ReadonlyArray<readonly [string, string]> => [["rate limit", "no X-RateLimit headers"]],
          onSome: (b): ReadonlyArray<readonly [string, string]> => [
            ["limit", String(b.limit)],
            ["remaining", String(b.remaining)],
            ["resets at", b.resetIso]
          ]
        })
      ])
    )
  })
