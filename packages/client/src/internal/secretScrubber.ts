/**
 * Finds and blanks out a secret in text a server or a rule produced: the secret itself in any
 * letter case, and its base64 and base64url encodings (what a server that echoes headers in
 * an encoded form would send back).
 */
import { WireTransaction } from "@feeshare/domain"
import { Option } from "effect"

/** What the secret is replaced with. */
export const placeholder = "[redacted]"

export interface Scrubber {
  /** Whether `text` holds the secret in one of its forms. */
  readonly appearsIn: (text: string) => boolean
  /** `text` with every form of the secret replaced by the placeholder. */
  readonly scrub: (text: string) => string
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const base64 = (text: string): string => WireTransaction.fromBytes(new TextEncoder().encode(text), "base64")

const none: Scrubber = { appearsIn: () => false, scrub: (text) => text }

/** The scrubber of `secret` (none for an absent or empty one). */
export const make = (secret: Option.Option<string>): Scrubber => {
  if (Option.isNone(secret) || secret.value.length === 0) return none
  const encoded = base64(secret.value)
  const unpadded = encoded.replace(/=+$/, "")
  const forms = [...new Set([secret.value, unpadded, unpadded.replace(/\+/g, "-").replace(/\//g, "_")])]
    // longest first, so that an encoding is replaced whole
    .sort((a, b) => b.length - a.length)
    .map(escape)
  const pattern = new RegExp(`(?:${forms.join("|")})=*`, "gi")
  const lower = secret.value.toLowerCase()
  return {
    // the common case (no secret at all) without a regular expression
    appearsIn: (text) => {
      if (text.toLowerCase().includes(lower)) return true
      pattern.lastIndex = 0
      return pattern.test(text)
    },
    scrub: (text) => text.replace(pattern, placeholder)
  }
}
