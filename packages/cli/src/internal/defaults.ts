/**
 * Where `feeshare` looks for the service by default: the port `feeshare sandbox` listens on,
 * written once (the sandbox's own default is a free port), and the one derivation of the
 * root URL and the `/rpc` endpoint from a base URL.
 */
import { basePath } from "@feeshare/domain/Api"

/** The port `feeshare sandbox` listens on unless `--port` says otherwise. */
export const sandboxPort = 8787

/** `{base_url}` of a `feeshare sandbox` on this machine. */
export const baseUrl = `http://127.0.0.1:${sandboxPort}${basePath}`

/** `{root_url}` of a base URL: the base URL without the API's base path (and trailing slashes). */
export const rootUrlOf = (baseUrl: string): string => {
  const base = baseUrl.replace(/\/+$/, "")
  return base.endsWith(basePath) ? base.slice(0, -basePath.length) : base
}

/** `{root_url}/rpc` of a base URL: where the sandbox serves its ledger. */
export const rpcUrlOf = (baseUrl: string): string => `${rootUrlOf(baseUrl)}/rpc`
