/**
 * Browsers and edge runtimes: `fetch` (the user's own when given), and no key files.
 */
import * as FetchClient from "./fetchClient.js"
import type { Platform } from "./platform.js"

export const platform: Platform = {
  httpClient: FetchClient.layer,
  keyFiles: undefined,
  env: () => undefined
}
