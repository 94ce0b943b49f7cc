/**
 * The admin token's tag and the check of an `Authorization` header against it (what the
 * middleware runs for `/sandbox/...`); `AdminToken.ts` makes the token and re-exports both.
 */
import { Context, type Option, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"

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
