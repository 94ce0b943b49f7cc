/**
 * One process of a fleet: `CALLS` calls of `analytics.pools` from `CONCURRENCY` fibers through
 * the Effect client with the Redis budget. Prints JSON lines: `send` (each HTTP request, with
 * the time it left), `response` (status and time), then `done` (the failures by tag).
 * The API key and the Redis URL come from the environment (never from argv).
 */
import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { FeeShareClient } from "@feeshare/client"
import * as RedisBudget from "@feeshare/client/RedisBudget"
import { Config, Effect, Layer, Option } from "effect"

const print = (line: Record<string, unknown>) => Effect.sync(() => process.stdout.write(`${JSON.stringify(line)}\n`))

/** The transport, printing every request as it leaves and every answer as it arrives. */
const transport = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    client.pipe(
      HttpClient.tapRequest(() => print({ event: "send", at: Date.now() })),
      HttpClient.tap((response) => print({ event: "response", status: response.status, at: Date.now() }))
    ))
).pipe(Layer.provide(NodeHttpClient.layerUndici))

const program = Effect.gen(function*() {
  const calls = yield* Config.integer("CALLS")
  const concurrency = yield* Config.integer("CONCURRENCY").pipe(Config.withDefault(4))
  const client = yield* FeeShareClient.FeeShareClient
  yield* print({ event: "ready", at: Date.now() })
  const failures: Array<{ readonly tag: string; readonly message: string }> = []
  let next = 0
  const caller = Effect.gen(function*() {
    while (next < calls) {
      next++
      yield* client.analytics.pools().pipe(
        Effect.catchAll((error) => Effect.sync(() => failures.push({ tag: error._tag, message: error.message })))
      )
    }
  })
  yield* Effect.all(Array.from({ length: concurrency }, () => caller), { concurrency, discard: true })
  yield* print({ event: "done", at: Date.now(), failures })
})

const layer = Effect.gen(function*() {
  const limit = yield* Config.integer("BUDGET_LIMIT")
  const windowMillis = yield* Config.integer("BUDGET_WINDOW_MILLIS")
  const key = yield* Config.option(Config.string("BUDGET_KEY"))
  const onUnavailable = yield* Config.literal("fail", "local")("ON_UNAVAILABLE").pipe(
    Config.withDefault("fail" as const)
  )
  return FeeShareClient.layerConfig({
    maxRateLimitWait: "120 seconds",
    budget: {
      limit,
      window: `${windowMillis} millis`,
      key: Option.getOrUndefined(key),
      store: RedisBudget.makeConfig({ onUnavailable })
    }
  })
}).pipe(Layer.unwrapEffect)

program.pipe(
  Effect.provide(layer.pipe(Layer.provide(transport))),
  Effect.catchAllCause((cause) => print({ event: "crashed", cause: String(cause) })),
  Effect.runPromise
).then(() => process.exit(0))
