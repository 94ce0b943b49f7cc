/**
 * Where `feeshare` looks for the service by default: the port `feeshare sandbox` listens on,
 * written once (the sandbox's own default is a free port).
 */
import { basePath } from "@feeshare/domain/Api"

/** The port `feeshare sandbox` listens on unless `--port` says otherwise. */
export const sandboxPort = 8787

/** `{base_url}` of a `feeshare sandbox` on this machine. */
export const baseUrl = `http://127.0.0.1:${sandboxPort}${basePath}`
