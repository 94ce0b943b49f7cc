/**
 * The one base58 codec of the workspace (Bitcoin alphabet), with the checks schemas need
 * without decoding. Property-tested against `@scure/base`; hand-written because the library
 * decodes a 1232-byte transaction about 5x slower (see docs/benchmarks.md).
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i

/** Decodes base58 (Bitcoin alphabet); `undefined` when a character is outside the alphabet. */
export const decode = (text: string): Uint8Array | undefined => {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
  const bytes: Array<number> = []
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const digit = code < 128 ? INDEX[code]! : -1
    if (digit < 0) return undefined
    let carry = digit
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58
      bytes[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  const out = new Uint8Array(zeros + bytes.length)
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i]!
  return out
}

const CHUNK = 58 ** 5 // 656356768 < 2^30, so remainder * 2^16 + limb stays exact in a double

/**
 * Encodes bytes as base58 (Bitcoin alphabet), by long division of 16-bit limbs by 58^5:
 * five digits per pass instead of one.
 */
export const encode = (bytes: Uint8Array): string => {
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
  for (let i = count - 1; i >= 0; i--) out += ALPHABET[digits[i]!]!
  return out
}

/** `true` when every character is in the base58 alphabet (exactly when `decode` succeeds). */
export const isBase58 = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 128 || INDEX[code]! < 0) return false
  }
  return true
}

const POWERS = [1, 58, 58 * 58, 58 * 58 * 58]

/**
 * Length in bytes of a base58 string's decoding, or `undefined` when it is not base58.
 * Same answer as `decode(text)?.length`, without building the bytes: the value is kept in
 * 16-bit limbs and three digits are folded in per pass.
 */
export const decodedLength = (text: string): number | undefined => {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
  const limbs: Array<number> = []
  let group = 0
  let count = 0
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const digit = code < 128 ? INDEX[code]! : -1
    if (digit < 0) return undefined
    group = group * 58 + digit
    count++
    if (count === 3 || i === text.length - 1) {
      let carry = group
      const multiplier = POWERS[count]!
      for (let j = 0; j < limbs.length; j++) {
        carry += limbs[j]! * multiplier
        limbs[j] = carry & 0xffff
        carry = Math.floor(carry / 0x10000)
      }
      while (carry > 0) {
        limbs.push(carry & 0xffff)
        carry = Math.floor(carry / 0x10000)
      }
      group = 0
      count = 0
    }
  }
  let top = limbs.length - 1
  while (top >= 0 && limbs[top] === 0) top--
  if (top < 0) return zeros
  return zeros + 2 * top + (limbs[top]! > 0xff ? 2 : 1)
}
