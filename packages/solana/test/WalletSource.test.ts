/**
 * One wallet source for the keeper and the MCP server: a keygen file, a directory of them, an
 * environment variable; every failure `WalletUnavailable` naming the source, never the key.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Keypair } from "@solana/web3.js"
import { Effect, Schema } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as WalletSource from "../src/WalletSource.js"

const keygen = () => {
  const keypair = Keypair.generate()
  return { json: JSON.stringify(Array.from(keypair.secretKey)), publicKey: keypair.publicKey.toBase58() }
}

/** No byte value of the key's secret appears in the error. */
const leaksNothing = (error: WalletSource.WalletUnavailable, json: string) => {
  assert.notInclude(error.message, json.slice(1, 40))
  assert.notInclude(JSON.stringify(error), json.slice(1, 40))
}

describe("WalletSource", () => {
  it("the entry Schema: exactly one of keypair, directory, env, not empty", () => {
    const is = Schema.is(WalletSource.WalletSource)
    assert.isTrue(is({ keypair: "a.json" }))
    assert.isTrue(is({ directory: "keys" }))
    assert.isTrue(is({ env: "KEY" }))
    assert.isFalse(is({ keypair: "" }))
    assert.isFalse(is({ path: "a.json" }))
  })

  it.effect("a keygen file (relative to the base directory, or absolute)", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "feeshare-wallet-source-"))
      const key = keygen()
      writeFileSync(join(dir, "id.json"), key.json)
      const relative = yield* WalletSource.load({ keypair: "id.json" }, dir)
      const absolute = yield* WalletSource.load({ keypair: join(dir, "id.json") }, "/elsewhere")
      assert.deepStrictEqual(relative.map((w) => [w.signer.publicKey, w.source]), [[
        key.publicKey,
        join(dir, "id.json")
      ]])
      assert.deepStrictEqual(absolute.map((w) => w.signer.publicKey), [key.publicKey])
      const missing = yield* Effect.flip(WalletSource.load({ keypair: "absent.json" }, dir))
      assert.strictEqual(missing._tag, "WalletUnavailable")
      assert.strictEqual(missing.source, join(dir, "absent.json"))
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("a directory: every *.json file in name order, other files ignored; one bad key fails it", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "feeshare-wallet-source-"))
      mkdirSync(join(dir, "keys"))
      const [b, a] = [keygen(), keygen()]
      writeFileSync(join(dir, "keys", "b.json"), b.json)
      writeFileSync(join(dir, "keys", "a.json"), a.json)
      writeFileSync(join(dir, "keys", "notes.txt"), "not a key")
      const loaded = yield* WalletSource.load({ directory: "keys" }, dir)
      assert.deepStrictEqual(loaded.map((w) => w.signer.publicKey), [a.publicKey, b.publicKey])
      writeFileSync(join(dir, "keys", "c.json"), a.json.slice(0, 60))
      const bad = yield* Effect.flip(WalletSource.load({ directory: "keys" }, dir))
      assert.strictEqual(bad.source, join(dir, "keys", "c.json"))
      leaksNothing(bad, a.json)
      const absent = yield* Effect.flip(WalletSource.load({ directory: "absent" }, dir))
      assert.include(absent.message, "the directory cannot be read")
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("an environment variable holding the keygen array; unset or bad: WalletUnavailable naming it", () =>
    Effect.gen(function*() {
      const key = keygen()
      const environment = { KEEPER_KEY: key.json, EMPTY: "", BAD: key.json.slice(0, 50) }
      const loaded = yield* WalletSource.load({ env: "KEEPER_KEY" }, "/", environment)
      assert.deepStrictEqual(loaded.map((w) => [w.signer.publicKey, w.source]), [[key.publicKey, "env:KEEPER_KEY"]])
      const unset = yield* Effect.flip(WalletSource.load({ env: "ABSENT" }, "/", environment))
      assert.strictEqual(unset.message, "env:ABSENT: the variable is not set")
      const empty = yield* Effect.flip(WalletSource.load({ env: "EMPTY" }, "/", environment))
      assert.strictEqual(empty.source, "env:EMPTY")
      const bad = yield* Effect.flip(WalletSource.load({ env: "BAD" }, "/", environment))
      assert.strictEqual(bad.source, "env:BAD")
      leaksNothing(bad, key.json)
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
