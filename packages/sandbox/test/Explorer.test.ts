/**
 * The explorer's routes: off loopback its state and events need the sandbox's admin token (a
 * Bearer header, or `?token=` as the printed URL carries it), the page itself holds no data;
 * and an open event stream does not keep the sandbox from stopping.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import * as Explorer from "../src/Explorer.js"
import * as Sandbox from "../src/Sandbox.js"
import { SandboxInfo } from "../src/Server.js"
import { fetchReply } from "./support/http.js"

describe("Explorer routes", () => {
  it.live("off loopback, state and events need the admin token: 401 without, answered with the header or ?token=", () =>
    Effect.gen(function*() {
      const info = yield* SandboxInfo
      const token = Option.getOrThrow(info.adminToken)
      const state = `${info.rootUrl}${Explorer.paths.state}`
      const without = yield* fetchReply(state)
      assert.strictEqual(without.status, 401)
      assert.notInclude(without.text, Redacted.value(token))
      assert.strictEqual((yield* fetchReply(`${state}?token=wrong`)).status, 401)
      assert.strictEqual(
        (yield* fetchReply(state, { headers: { authorization: `Bearer ${Redacted.value(token)}` } })).status,
        200
      )
      const url = Explorer.url(info.rootUrl, info.adminToken)
      assert.strictEqual(url, `${info.rootUrl}/?token=${encodeURIComponent(Redacted.value(token))}`)
      assert.strictEqual((yield* fetchReply(`${state}?token=${encodeURIComponent(Redacted.value(token))}`)).status, 200)
      assert.strictEqual((yield* fetchReply(`${info.rootUrl}${Explorer.paths.events}`)).status, 401)
      // the page: no data in it, served to anyone
      assert.strictEqual((yield* fetchReply(`${info.rootUrl}/`)).status, 200)
    }).pipe(Effect.scoped, Effect.provide(Sandbox.layer({ host: "0.0.0.0", adminToken: "sbx_admin_explorer_test" }))))

  it.live("an open event stream ends when the sandbox stops, which does not wait for it", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(Sandbox.layer(), scope)
      const info = Context.get(context, SandboxInfo)
      const reader = yield* Effect.promise(async () => {
        const response = await fetch(`${info.rootUrl}${Explorer.paths.events}`)
        const body = response.body!.getReader()
        await body.read() // the first chunk: the stream is open
        return body
      })
      yield* Scope.close(scope, Exit.void)
      const ended = yield* Effect.promise(async () => {
        for (;;) {
          const { done } = await reader.read().catch(() => ({ done: true }))
          if (done) return true
        }
      })
      assert.isTrue(ended)
    }))
})
