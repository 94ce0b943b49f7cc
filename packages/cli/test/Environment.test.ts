/**
 * The command's environment: built once from the global options of the root command, read by
 * handlers from their context; the RPC endpoints resolved there.
 */
import * as Command from "@effect/cli/Command"
import { NodeContext } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Environment from "../src/internal/environment.js"
import { environment, root } from "../src/internal/root.js"

const globals = {
  baseUrl: "http://127.0.0.1:8787/api/v1",
  apiKey: Option.none<Redacted.Redacted<string>>(),
  rpcUrl: Option.none<string>(),
  keypair: Option.none<string>(),
  redisUrl: Option.none<Redacted.Redacted<string>>(),
  budgetLimit: 1000,
  budgetKey: Option.none<string>(),
  json: false
}

/** Runs `feeshare ...argv probe` and returns the environment the probe's handler read. */
const probe = (argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const seen = yield* Ref.make(Option.none<Environment.Environment.Service>())
    const command = root.pipe(Command.withSubcommands([
      Command.make("probe", {}, () =>
        Effect.flatMap(Environment.Environment, (env) =>
          Ref.set(seen, Option.some(env))).pipe(
            Effect.provide(environment)
          ))
    ]))
    yield* Command.run(command, { name: "feeshare", version: "0.0.0" })(["node", "feeshare", ...argv, "probe"])
    return yield* Ref.get(seen)
  }).pipe(
    // no FEESHARE_* variable of the machine running the test reaches the options
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map())),
    Effect.provide(NodeContext.layer)
  )

describe("Environment", () => {
  it("no --rpc-url: the base URL's /rpc", () => {
    assert.deepStrictEqual(Environment.make(globals).rpcUrls, ["http://127.0.0.1:8787/rpc"])
  })

  it.prop(
    "--rpc-url lists endpoints separated by commas, spaces around them and empty entries ignored",
    [
      FastCheck.array(FastCheck.webUrl().filter((url) => !url.includes(",")), { minLength: 1, maxLength: 4 }),
      FastCheck.constantFrom("", " ", "  ")
    ],
    ([urls, space]) => {
      const given = `${space},${urls.join(`${space},${space}`)}${space},`
      assert.deepStrictEqual(Environment.make({ ...globals, rpcUrl: Option.some(given) }).rpcUrls, urls)
    }
  )

  it.effect("a handler reads the global options from its context, as parsed before the subcommand", () =>
    Effect.gen(function*() {
      const env = yield* probe([
        "--base-url",
        "http://example.test/api/v1",
        "--api-key",
        "fs_test_key",
        "--rpc-url",
        "http://a.test, http://b.test",
        "--json"
      ])
      assert.isTrue(Option.isSome(env))
      if (Option.isNone(env)) return
      assert.strictEqual(env.value.baseUrl, "http://example.test/api/v1")
      assert.strictEqual(Option.map(env.value.apiKey, Redacted.value).pipe(Option.getOrNull), "fs_test_key")
      assert.deepStrictEqual(env.value.rpcUrls, ["http://a.test", "http://b.test"])
      assert.isTrue(env.value.json)
    }))

  it.effect("the defaults when no global option is given", () =>
    Effect.gen(function*() {
      const env = yield* probe([])
      assert.isTrue(Option.isSome(env))
      if (Option.isNone(env)) return
      assert.isFalse(env.value.json)
      assert.strictEqual(env.value.baseUrl, "http://127.0.0.1:8787/api/v1")
      assert.deepStrictEqual(env.value.rpcUrls, ["http://127.0.0.1:8787/rpc"])
    }))
})
