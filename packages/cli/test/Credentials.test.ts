import { NodeContext } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Credentials from "../src/Credentials.js"
import { temporaryDirectory } from "./support/spawn.js"

describe("Credentials", () => {
  it("location: FEESHARE_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config", () => {
    assert.strictEqual(Credentials.path({ FEESHARE_CONFIG_DIR: "/a", XDG_CONFIG_HOME: "/x", HOME: "/h" }), "/a/credentials.json")
    assert.strictEqual(Credentials.path({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), "/x/feeshare/credentials.json")
    assert.strictEqual(Credentials.path({ HOME: "/h" }), "/h/.config/feeshare/credentials.json")
  })

  it.effect("saves keys per base URL with mode 0600 and reads them back", () =>
    Effect.gen(function*() {
      const file = join(temporaryDirectory("feeshare-credentials-"), "nested", "credentials.json")
      const entry = { apiKey: Redacted.make("fs_one"), keyId: "k1", keyName: "n", wallet: "w" }
      yield* Credentials.save("http://a/api/v1/", entry, file)
      yield* Credentials.save("http://b/api/v1", { ...entry, apiKey: Redacted.make("fs_two"), keyId: "k2" }, file)
      assert.strictEqual(statSync(file).mode & 0o777, 0o600)
      const a = yield* Credentials.lookup("http://a/api/v1", file)
      const b = yield* Credentials.lookup("http://b/api/v1", file)
      assert.deepStrictEqual(Option.map(a, (e) => [e.keyId, Redacted.value(e.apiKey)]), Option.some(["k1", "fs_one"]))
      assert.deepStrictEqual(Option.map(b, (e) => e.keyId), Option.some("k2"))
      assert.isTrue(Option.isNone(yield* Credentials.lookup("http://c/api/v1", file)))
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("a damaged file is a CredentialsError naming the path", () =>
    Effect.gen(function*() {
      const file = join(temporaryDirectory("feeshare-credentials-"), "credentials.json")
      writeFileSync(file, "{not json")
      const error = yield* Effect.flip(Credentials.lookup("http://a/api/v1", file))
      assert.strictEqual(error._tag, "CredentialsError")
      assert.include(error.message, file)
    }).pipe(Effect.provide(NodeContext.layer)))
})
