import { createHash } from "node:crypto"

/**
 * A deterministic byte stream: SHA-256 of `seed`, `label` and a counter, block after block.
 * Everything "random" in the sandbox (keys, nonces, fixtures, injected faults) comes from
 * one of these, so that a seed gives the same run every time.
 */
export interface Stream {
  readonly bytes: (length: number) => Uint8Array
  /** A float in [0, 1). */
  readonly float: () => number
  /** An integer in [0, bound). */
  readonly below: (bound: number) => number
}

export const stream = (seed: string, label: string): Stream => {
  let counter = 0
  let pool = new Uint8Array(0)
  let offset = 0
  const refill = () => {
    pool = createHash("sha256").update(`${seed}\u0000${label}\u0000${counter++}`).digest()
    offset = 0
  }
  const bytes = (length: number): Uint8Array => {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) {
      if (offset >= pool.length) refill()
      out[i] = pool[offset++]!
    }
    return out
  }
  const float = (): number => {
    const b = bytes(6)
    let n = 0
    for (let i = 0; i < 6; i++) n = n * 256 + b[i]!
    return n / 2 ** 48
  }
  return { bytes, float, below: (bound) => Math.floor(float() * bound) }
}

/** SHA-256 of a label under a seed, as bytes (one-shot derivation). */
export const derive = (seed: string, label: string): Uint8Array =>
  createHash("sha256").update(`${seed}\u0000${label}`).digest()

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

/** A UUID-shaped (version 4 layout) identifier from derived bytes. */
export const uuid = (bytes: Uint8Array): string => {
  const b = Uint8Array.from(bytes.subarray(0, 16))
  b[6] = (b[6]! & 0x0f) | 0x40
  b[8] = (b[8]! & 0x3f) | 0x80
  const hex = toHex(b)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
