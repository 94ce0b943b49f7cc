/**
 * Byte helpers shared by the modules of this package (private). The base64 and base58
 * conversions are fast equivalents of the domain's `WireTransaction.toBytes` (base64) and
 * `PublicKey.base58.encode`, property-tested to agree with them on every input.
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

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const BASE64_INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) BASE64_INDEX[BASE64.charCodeAt(i)] = i
const PAD = 61 // "="

const sextet = (text: string, i: number): number => {
  const code = text.charCodeAt(i)
  return code < 128 ? BASE64_INDEX[code]! : -1
}

/**
 * Decodes padded standard base64 (the domain's `Base64Transaction` form: groups of four,
 * the last one possibly `xx==` or `xxx=`); `undefined` for anything else. Like `atob`, the
 * unused low bits of a padded last group are ignored.
 */
export const fromBase64 = (text: string): Uint8Array | undefined => {
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
      out[o++] = ((b & 0xf) << 4) | (c >> 2)
    }
  }
  return out
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const CHUNK = 58 ** 5 // 656356768 < 2^30, so remainder * 2^16 + limb stays exact in a double

/**
 * Base58 (Bitcoin alphabet), by long division of 16-bit limbs by 58^5: five digits per
 * pass instead of one.
 */
export const toBase58 = (bytes: Uint8Array): string => {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  const rest = bytes.length - zeros
  const limbCount = (rest + 1) >> 1
  const limbs = new Uint16Array(limbCount)
  // big-endian 16-bit limbs; an odd byte count leaves the first limb with one byte
  let at = zeros
  let l = 0
  if (rest % 2 === 1) limbs[l++] = bytes[at++]!
  while (l < limbCount) {
    limbs[l++] = (bytes[at]! << 8) | bytes[at + 1]!
    at += 2
  }
  // log(256) / log(58) < 1.37 digits per byte, rounded up to whole passes of five
  const digits = new Uint8Array(Math.ceil((rest * 1.37) / 5) * 5 + 5)
  let count = 0
  let start = 0
  while (start < limbCount) {
    let remainder = 0
    for (let i = start; i < limbCount; i++) {
      const value = remainder * 65536 + limbs[i]!
      const quotient = Math.floor(value / CHUNK)
      remainder = value - quotient * CHUNK
      limbs[i] = quotient
    }
    while (start < limbCount && limbs[start] === 0) start++
    for (let k = 0; k < 5; k++) {
      const next = Math.floor(remainder / 58)
      digits[count++] = remainder - next * 58
      remainder = next
    }
  }
  while (count > 0 && digits[count - 1] === 0) count--
  let out = "1".repeat(zeros)
  for (let i = count - 1; i >= 0; i--) out += BASE58[digits[i]!]!
  return out
}
