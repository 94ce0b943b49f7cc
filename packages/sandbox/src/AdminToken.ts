/**
 * The sandbox admin token: what `/sandbox/...` (which can revoke keys and read TOTP secrets)
 * requires as `Authorization: Bearer TOKEN` when the sandbox is reachable from other machines.
 *
 * @since 0.1.0
 */
import { Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { AdminToken } from "./internal/http/adminToken.js"
import type * as Options from "./Options.js"

export { AdminToken, authorizes } from "./internal/http/adminToken.js"

/**
 * Whether `host` is a loopback address (only this machine can reach it).
 *
 * @since 0.1.0
 * @category models
 */
export const isLoopback = (host: string): boolean => {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase()
  return bare === "localhost" || bare === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
}

/**
 * `AdminToken` for `options`: none on loopback; else `options.adminToken`, or a random one.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options.Options): Layer.Layer<AdminToken> =>
  Layer.sync(AdminToken, () =>
    isLoopback(options.host)
      ? Option.none()
      : Option.some(Redacted.make(options.adminToken ?? `sbx_admin_${randomBytes(24).toString("base64url")}`)))
