/**
 * A multipart/form-data body built as bytes (RFC 7578), so that every transport sends the
 * same thing: a platform `FormData` belongs to one fetch implementation, and another
 * (undici's own package, for one) cannot read it.
 */
import { FilePart } from "@feeshare/domain"

const encoder = new TextEncoder()

/** A part name or file name inside a quoted header parameter, escaped as browsers do. */
const quoted = (text: string): string => text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")

const boundaryOf = (): string => {
  const random = new Uint8Array(16)
  globalThis.crypto.getRandomValues(random)
  return `----feeshare${Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

/** `true` when `needle` occurs in `haystack`. */
const contains = (haystack: Uint8Array, needle: Uint8Array): boolean => {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

/**
 * The body and its content type: a `FilePart` as a file part, a string, number or boolean
 * as a text part; an absent or null field is left out (a form cannot say null).
 */
export const encode = (encoded: unknown): { readonly body: Uint8Array; readonly contentType: string } => {
  const parts: Array<{ readonly head: string; readonly content: Uint8Array }> = []
  if (typeof encoded === "object" && encoded !== null) {
    for (const [key, value] of Object.entries(encoded)) {
      if (FilePart.isFilePart(value)) {
        parts.push({
          head: `Content-Disposition: form-data; name="${quoted(key)}"; filename="${
            quoted(value.filename)
          }"\r\nContent-Type: ${value.contentType.replace(/[\r\n]/g, "")}`,
          content: value.bytes
        })
      } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        parts.push({
          head: `Content-Disposition: form-data; name="${quoted(key)}"`,
          content: encoder.encode(String(value))
        })
      }
    }
  }
  let boundary = boundaryOf()
  // 128 random bits: a collision with the content is never expected, but it is checked
  while (parts.some((part) => contains(part.content, encoder.encode(boundary)))) boundary = boundaryOf()
  const chunks: Array<Uint8Array> = []
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}\r\n${part.head}\r\n\r\n`), part.content, encoder.encode("\r\n"))
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`))
  const body = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0))
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.length
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}
