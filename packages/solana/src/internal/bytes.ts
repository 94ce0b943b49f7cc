/** Byte helpers shared by the modules of this package (private). */
import { Effect } from "effect"

/** `true` when both arrays hold the same bytes. */
export const equal = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const HEX: Array<string> = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

/** Lowercase hex. */
export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!]!
  return out
}

/** A copy backed by its own `ArrayBuffer` (WebCrypto rejects shared or offset views in some runtimes). */
export const copy = (bytes: ArrayLike<number>): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(new ArrayBuffer(bytes.length))
  out.set(bytes)
  return out
}

/** Hex SHA-256 with WebCrypto. */
export const sha256Hex = (bytes: ArrayLike<number>): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", copy(bytes))).pipe(
    Effect.map((digest) => toHex(new Uint8Array(digest)))
  )
