/**
 * What the facade needs from the runtime it runs on, implemented once for Node
 * (`platform.node.ts`) and once for browsers and edge runtimes (`platform.browser.ts`). The
 * build picks one through the `#platform` import of package.json (the `browser` condition).
 */
import type { FileSystem, HttpClient } from "@effect/platform"
import type { Layer } from "effect"

export interface Platform {
  /** The transport: the user's own `fetch` when given, else the fastest one of the platform. */
  readonly httpClient: (fetch: typeof globalThis.fetch | undefined) => Layer.Layer<HttpClient.HttpClient>
  /** Reads solana-keygen files; `undefined` where there is no file system. */
  readonly keyFiles: Layer.Layer<FileSystem.FileSystem> | undefined
  /** The value of an environment variable; `undefined` where there is no environment. */
  readonly env: (name: string) => string | undefined
}
