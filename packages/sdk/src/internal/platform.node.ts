/**
 * Node: undici (the transport of `@effect/platform-node`, loaded on the first call so that
 * importing the facade stays cheap) unless the user gives a `fetch`; key files over `node:fs`.
 */
import { Effect, Layer } from "effect"
import * as FetchClient from "./fetchClient.js"
import * as KeyFiles from "./keyFiles.js"
import type { Platform } from "./platform.js"

const undici = Layer.unwrapEffect(
  Effect.promise(() => import("@effect/platform-node/NodeHttpClient")).pipe(
    Effect.map((NodeHttpClient) => NodeHttpClient.layerUndici)
  )
)

export const platform: Platform = {
  httpClient: (fetch) => (fetch === undefined ? undici : FetchClient.layer(fetch)),
  keyFiles: KeyFiles.layer,
  env: (name) => process.env[name]
}
