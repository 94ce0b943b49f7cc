/**
 * The sandbox admin token: what `/sandbox/...` (which can revoke keys and read TOTP secrets)
 * requires as `Authorization: Bearer TOKEN` when the sandbox is reachable from other machines.
 *
 * @since 0.1.0
 */
import { Context, Layer, Option, Redacted } from "effect"
import { randomBytes, timingSafeEqual } from "node:crypto"
import type * as Options from "./Options.js"

/**
 * The token the sandbox-only routes require, when they require one (bound to a host other
 * than loopback).
 *
 * @since 0.1.0
 * @category tags
 */
export class AdminToken extends Context.Tag("@feeshare/sandbox/AdminToken")<
  AdminToken,
  Option.Option<Redacted.Redacted<string>>
>() {}

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

/**
 * Whether an `Authorization` header carries `token` (compared in constant time).
 *
 * @since 0.1.0
 * @category checks
 */
export const authorizes = (token: Redacted.Redacted<string>, authorization: string | undefined): boolean => {
  const expected = Buffer.from(`Bearer ${Redacted.value(token)}`)
  const given = Buffer.from(authorization ?? "")
  return given.length === expected.length && timingSafeEqual(given, expected)
}
