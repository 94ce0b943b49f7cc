/**
 * The one base64 codec of the workspace (standard alphabet, padded). Property-tested against
 * `@scure/base`; hand-written because the library decodes a 1232-byte transaction about 13x
 * slower (see docs/benchmarks.md), and because, like `atob`, it ignores the unused low bits
 * of a padded last group where the library refuses them.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i
const PAD = 61 // "="

const sextet = (text: string, i: number): number => {
  const code = text.charCodeAt(i)
  return code < 128 ? INDEX[code]! : -1
}

/**
 * Decodes padded standard base64 (groups of four, the last one possibly `xx==` or `xxx=`);
 * `undefined` for anything else.
 */
export const decode = (text: string): Uint8Array | undefined => {
  const length = text.length
  if (length % 4 !== 0) return undefined
  if (length === 0) return new Uint8Array(0)
  const padding = text.charCodeAt(length - 1) !== PAD ? 0 : text.charCodeAt(length - 2) !== PAD ? 1 : 2
  const out = new Uint8Array((length / 4) * 3 - padding)
  const full = padding === 0 ? length : length - 4
  let o = 0
  for (let i = 0; i < full; i += 4) {
    const a = sextet(text, i)
    const b = sextet(text, i + 1)
    const c = sextet(text, i + 2)
    const d = sextet(text, i + 3)
    if ((a | b | c | d) < 0) return undefined
    const n = (a << 18) | (b << 12) | (c << 6) | d
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 0xff
    out[o++] = n & 0xff
  }
  if (padding > 0) {
    const a = sextet(text, full)
    const b = sextet(text, full + 1)
    if ((a | b) < 0) return undefined
    out[o++] = (a << 2) | (b >> 4)
    if (padding === 1) {
      const c = sextet(text, full + 2)
      if (c < 0) return undefined
      out[o] = ((b & 0xf) << 4) | (c >> 2)
    }
  }
  return out
}

/** Encodes bytes as padded standard base64. */
export const encode = (bytes: Uint8Array): string => {
  let out = ""
  const full = bytes.length - (bytes.length % 3)
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  if (bytes.length - full === 1) {
    const n = bytes[full]! << 16
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`
  } else if (bytes.length - full === 2) {
    const n = (bytes[full]! << 16) | (bytes[full + 1]! << 8)
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`
  }
  return out
}
