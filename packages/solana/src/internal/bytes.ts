/**
 * Byte helpers shared by the modules of this package (private). Base64 and base58 are the
 * domain's (`WireTransaction.toBytes` / `fromBytes`, `PublicKey.base58`).
 */

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

/** The parts one after another, in a new array. */
export const concat = (...parts: ReadonlyArray<ArrayLike<number>>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
