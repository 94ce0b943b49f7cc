/**
 * TOTP (RFC 6238): HMAC-SHA1, 30-second steps, 6 digits. The sandbox uses it for the
 * agent-auth MFA step; tests and the CLI use `generate` to answer it.
 *
 * @since 0.1.0
 */
import { createHmac } from "node:crypto"

/**
 * @since 0.1.0
 * @category constants
 */
export const defaults = { periodSeconds: 30, digits: 6 } as const

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/**
 * RFC 4648 base32 without padding (the form authenticator apps take).
 *
 * @since 0.1.0
 * @category encoding
 */
export const toBase32 = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * Decodes base32 (case-insensitive, padding and spaces ignored); `undefined` when not base32.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromBase32 = (text: string): Uint8Array | undefined => {
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  const out: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = alphabet.indexOf(char)
    if (value < 0) return undefined
    buffer = ((buffer << 5) | value) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

/**
 * The code for `secret` at `timeMillis` (HOTP of the 30-second step counter).
 *
 * @since 0.1.0
 * @category codes
 */
export const generate = (
  secret: Uint8Array,
  timeMillis: number,
  options: { readonly periodSeconds?: number; readonly digits?: number } = {}
): string => {
  const period = options.periodSeconds ?? defaults.periodSeconds
  const digits = options.digits ?? defaults.digits
  const counter = Math.max(0, Math.floor(timeMillis / 1000 / period))
  const message = Buffer.alloc(8)
  message.writeUInt32BE(Math.floor(counter / 2 ** 32), 0)
  message.writeUInt32BE(counter % 2 ** 32, 4)
  const hmac = createHmac("sha1", secret).update(message).digest()
  const offset = hmac[hmac.length - 1]! & 0x0f
  const binary = ((hmac[offset]! & 0x7f) << 24) | (hmac[offset + 1]! << 16) | (hmac[offset + 2]! << 8) |
    hmac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, "0")
}

/**
 * The time step `code` belongs to: the current step or one either side (clock drift
 * allowance); `undefined` when it is none of them.
 *
 * @since 0.1.0
 * @category codes
 */
export const matchStep = (secret: Uint8Array, code: string, timeMillis: number): number | undefined => {
  const step = defaults.periodSeconds * 1000
  for (const drift of [-1, 0, 1]) {
    const at = timeMillis + drift * step
    if (at >= 0 && generate(secret, at) === code) return Math.floor(at / step)
  }
  return undefined
}

/**
 * `true` when `code` is the code of the current step or of one step either side (clock
 * drift allowance).
 *
 * @since 0.1.0
 * @category codes
 */
export const verify = (secret: Uint8Array, code: string, timeMillis: number): boolean =>
  matchStep(secret, code, timeMillis) !== undefined
