import { NodeContext } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { vi } from "vitest"
import * as Credentials from "../src/Credentials.js"
import { temporaryDirectory } from "./support/spawn.js"

describe("Credentials", () => {
  it("location: FEESHARE_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config", () => {
    assert.strictEqual(
      Credentials.path({ FEESHARE_CONFIG_DIR: "/a", XDG_CONFIG_HOME: "/x", HOME: "/h" }),
      "/a/credentials.json"
    )
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
      writeFileSync(file, "{not json", { mode: 0o600 })
      const error = yield* Effect.flip(Credentials.lookup("http://a/api/v1", file))
      assert.strictEqual(error._tag, "CredentialsError")
      assert.include(error.message, file)
    }).pipe(Effect.provide(NodeContext.layer)))

  it.scoped("a credentials file others can read: one warning naming it; a world-writable directory of ours is tightened", () =>
    Effect.gen(function*() {
      const dir = join(temporaryDirectory("feeshare-credentials-"), "open")
      mkdirSync(dir, { mode: 0o777 })
      chmodSync(dir, 0o777)
      const file = join(dir, "credentials.json")
      const entry = { apiKey: Redacted.make("fs_secret_value"), keyId: "k1", keyName: "n", wallet: "w" }
      const { lines, restore } = capture()
      yield* Effect.addFinalizer(() => Effect.sync(restore))
      yield* Credentials.save("http://a/api/v1", entry, file)
      assert.strictEqual(statSync(dir).mode & 0o777, 0o700)
      assert.strictEqual(lines.filter((line) => line.includes("made it 0700")).length, 1)

      chmodSync(file, 0o644)
      yield* Credentials.lookup("http://a/api/v1", file)
      yield* Credentials.lookup("http://a/api/v1", file)
      const warnings = lines.filter((line) => line.includes("can be read by other users"))
      assert.strictEqual(warnings.length, 1, "once per process")
      assert.include(warnings[0], file)
      assert.include(warnings[0], "chmod 600")
      assert.isFalse(lines.some((line) => line.includes("fs_secret_value")))
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("a shared sticky directory such as /tmp is never changed", () =>
    Effect.gen(function*() {
      const sticky = join(temporaryDirectory("feeshare-credentials-"), "sticky")
      mkdirSync(sticky)
      chmodSync(sticky, 0o1777)
      const entry = { apiKey: Redacted.make("fs_x"), keyId: "k1", keyName: "n", wallet: "w" }
      yield* Credentials.save("http://a/api/v1", entry, join(sticky, "credentials.json"))
      assert.strictEqual(statSync(sticky).mode & 0o7777, 0o1777)
    }).pipe(Effect.provide(NodeContext.layer)))
})

/** Records what `Console.error` prints (Effect's default console writes through `console`). */
const capture = () => {
  const lines: Array<string> = []
  const spy = vi.spyOn(globalThis.console, "error").mockImplementation((...args: Array<unknown>) => {
    lines.push(args.map(String).join(" "))
  })
  return { lines, restore: () => spy.mockRestore() }
}
