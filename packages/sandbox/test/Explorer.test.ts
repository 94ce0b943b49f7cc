/**
 * The explorer's routes: off loopback its state and events need the sandbox's admin token (a
 * Bearer header, or `?token=` as the printed URL carries it), and the page holds the state
 * only for a request that may read it; no text of the state can end the page's script
 * element; and an open event stream does not keep the sandbox from stopping.
 */
import { assert, describe, it } from "@effect/vitest"
import { Api } from "@feeshare/domain"
import { Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import * as Explorer from "../src/Explorer.js"
import * as Sandbox from "../src/Sandbox.js"
import { SandboxInfo } from "../src/Server.js"
import { fetchReply } from "./support/http.js"

/** The state a page arrived with (its `<script type="application/json">` element), or null. */
const embeddedState = (html: string): Explorer.State | null => {
  const found = /<script id="[\w-]+" type="application\/json">([\s\S]*?)<\/script>/.exec(html)
  return found === null ? null : JSON.parse(found[1] ?? "")
}

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
      // the page: served to anyone, with no data in it; with the token, it arrives with the state
      const page = yield* fetchReply(`${info.rootUrl}/`)
      assert.strictEqual(page.status, 200)
      assert.isNull(embeddedState(page.text))
      const withToken = yield* fetchReply(url)
      assert.strictEqual(withToken.status, 200)
      assert.isString(embeddedState(withToken.text)?.clock.slot)
    }).pipe(Effect.scoped, Effect.provide(Sandbox.layer({ host: "0.0.0.0", adminToken: "sbx_admin_explorer_test" }))))

  it.live("a token made by token info shows its image: the state names the media path, public even off loopback", () =>
    Effect.gen(function*() {
      const info = yield* SandboxInfo
      const token = Redacted.value(Option.getOrThrow(info.adminToken))
      const gif = new Uint8Array([...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0, 0, 0, 0])
      const form = new FormData()
      form.append("name", "Pictured")
      form.append("symbol", "pic")
      form.append("description", "has an image")
      form.append("image", new File([gif], "p.gif", { type: "image/gif" }))
      const created = yield* fetchReply(`${info.rootUrl}${Api.LaunchGroup.endpoints.createTokenInfo.path}`, {
        method: "POST",
        headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) },
        body: form
      })
      assert.strictEqual(created.status, 200, created.text)
      const mint = (created.json as { response: { tokenMint: string } }).response.tokenMint
      const state = yield* fetchReply(`${info.rootUrl}${Explorer.paths.state}?token=${encodeURIComponent(token)}`)
      const tokens = (state.json as { market: { tokens: ReadonlyArray<Explorer.MarketView["tokens"][number]> } })
        .market.tokens
      const shown = tokens.find((t) => t.mint === mint)
      assert.strictEqual(shown?.creator, null)
      assert.isString(shown?.imagePath)
      const image = yield* fetchReply(`${info.rootUrl}${shown?.imagePath}`)
      assert.strictEqual(image.status, 200)
      assert.strictEqual(image.headers["content-type"], "image/gif")
      assert.strictEqual(image.headers["x-content-type-options"], "nosniff")
    }).pipe(Effect.scoped, Effect.provide(Sandbox.layer({ host: "0.0.0.0", adminToken: "sbx_admin_explorer_image" }))))

  it.live("the page arrives with the state and its script inline; no text of the state can end its element", () =>
    Effect.gen(function*() {
      const info = yield* SandboxInfo
      const name = "</script><i>x</i><!--"
      const form = new FormData()
      form.append("name", name)
      form.append("symbol", "esc")
      form.append("description", "a name that would end a script element")
      form.append("imageUrl", "https://example.com/x.png")
      const created = yield* fetchReply(`${info.rootUrl}${Api.LaunchGroup.endpoints.createTokenInfo.path}`, {
        method: "POST",
        headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) },
        body: form
      })
      assert.strictEqual(created.status, 200, created.text)
      const mint = (created.json as { response: { tokenMint: string } }).response.tokenMint
      const page = yield* fetchReply(`${info.rootUrl}/`)
      assert.notInclude(page.text, name)
      assert.strictEqual(embeddedState(page.text)?.market.tokens.find((t) => t.mint === mint)?.name, name)
      // one request: the script is in the page
      assert.notInclude(page.text, `src="${Explorer.paths.script}"`)
      assert.match(page.text, /<script type="module">[^<]/)
    }).pipe(Effect.scoped, Effect.provide(Sandbox.layer())))

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
