/**
 * The token-info route against a hostile client: its body is a form (JSON refused), bounded by
 * its own cap from the declared length alone, parsed within its part limits (a field twice,
 * too many parts, a part named `__proto__`, a broken body: 400), and the image's type read
 * from its bytes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Api, TokenInfo } from "@feeshare/domain"
import { Effect, Redacted } from "effect"
import { connect } from "node:net"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import { fetchReply } from "./support/http.js"

const path = Api.LaunchGroup.endpoints.createTokenInfo.path

const post = (body: FormData | string, headers: Record<string, string> = {}) =>
  Effect.flatMap(Server.SandboxInfo, (info) =>
    fetchReply(`${info.rootUrl}${path}`, {
      method: "POST",
      headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey), ...headers },
      body
    }))

const form = (entries: ReadonlyArray<readonly [string, string]>) => {
  const out = new FormData()
  for (const [key, value] of entries) out.append(key, value)
  return out
}

const fields = [
  ["name", "Form"],
  ["symbol", "frm"],
  ["description", "a form"],
  ["imageUrl", "https://i.example/f.png"]
] as const

const message = (reply: { readonly json: unknown }) =>
  typeof reply.json === "object" && reply.json !== null && "error" in reply.json ? String(reply.json.error) : ""

describe("the token-info form against a hostile client", () => {
  it.live("a well-formed form is taken; JSON, a field twice, too many parts, __proto__, a broken body are 400s", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* post(form(fields))).status, 200)

      const json = yield* post(JSON.stringify({ name: "f" }), { "content-type": "application/json" })
      assert.strictEqual(json.status, 400)
      assert.include(message(json), "multipart/form-data")

      const twice = yield* post(form([...fields, ["name", "Again"]]))
      assert.strictEqual(twice.status, 400)
      assert.include(message(twice), "name: given more than once")

      const many = yield* post(form([...fields, ...Array.from({ length: 13 }, (_, i) => [`x${i}`, "y"] as const)]))
      assert.strictEqual(many.status, 400)
      assert.include(message(many), "more than 16 parts")

      const proto = yield* post(form([...fields, ["__proto__", "polluted"]]))
      assert.strictEqual(proto.status, 400)
      assert.include(message(proto), "__proto__")
      assert.isUndefined(Reflect.get({}, "polluted"))

      const broken = yield* post("--x\r\nnot a part", { "content-type": "multipart/form-data; boundary=x" })
      assert.strictEqual(broken.status, 400)
    }).pipe(Effect.provide(Sandbox.layer({ seed: "token-info-form", slotMillis: 0 }))))

  it.live("a declared length over the route's cap is a 413 from the headers alone; the connection closes", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const limit = TokenInfo.limits.maxImageBytes + 64 * 1024
      const answer = yield* Effect.async<string>((resume) => {
        let text = ""
        const socket = connect(info.port, "127.0.0.1", () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${info.port}\r\n${Api.apiKeyHeader}: ${
              Redacted.value(info.demoApiKey)
            }\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: ${limit + 1}\r\n\r\n`
          )
        })
        socket.on("data", (chunk: Buffer) => (text += chunk.toString()))
        socket.on("error", () => {})
        socket.on("close", () => resume(Effect.succeed(text)))
        return Effect.sync(() => socket.destroy())
      })
      assert.match(answer, /^HTTP\/1\.1 413/)
      assert.include(answer, TokenInfo.imageTooLargeMessage)
    }).pipe(Effect.provide(Sandbox.layer({ seed: "token-info-413", slotMillis: 0 }))))
})
