/**
 * The platform's fetch transport, over the user's own `fetch` when one is given.
 */
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Layer } from "effect"

export const layer = (fetch: typeof globalThis.fetch | undefined): Layer.Layer<HttpClient.HttpClient> =>
  fetch === undefined
    ? FetchHttpClient.layer
    : FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))
