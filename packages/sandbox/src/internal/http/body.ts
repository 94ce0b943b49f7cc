/**
 * Request bodies read once, bounded: at most `limit` bytes are buffered (past it reading
 * stops and the caller answers 413 on a connection that then closes), and JSON nested deeper
 * than any request of the API is refused before anything walks it.
 */
import { FileSystem, HttpIncomingMessage, HttpServerError, type HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import { IncomingMessage } from "node:http"

/** The deepest JSON a request may nest (the API's requests nest 3 levels at most). */
export const maxJsonDepth = 32

/** What reading a body gave. */
export type Read =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "TooLarge" }

/** What reading a body as bytes gave. */
export type ReadBytes =
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array }
  | { readonly _tag: "TooLarge" }

const tooLarge = { _tag: "TooLarge" } as const

/** Reads a Node request body, stopping (and leaving the rest unread) once it passes `limit`. */
const readIncoming = (incoming: IncomingMessage, limit: number): Effect.Effect<ReadBytes, Error> =>
  Effect.async<ReadBytes, Error>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const detach = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > limit) {
        detach()
        incoming.pause()
        resume(Effect.succeed(tooLarge))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      detach()
      resume(Effect.succeed({ _tag: "Bytes", bytes: Buffer.concat(chunks) }))
    }
    const onError = (error: Error) => {
      detach()
      resume(Effect.fail(error))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(detach)
  })

/**
 * The body of `request` as text, or `TooLarge`. On Node the socket is left open so that the
 * 413 can be written; on other servers the platform's own bounded reader is used.
 */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Read, HttpServerError.RequestError> => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  const decodeError = (cause: unknown) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
  if (incoming instanceof IncomingMessage) {
    return readIncoming(incoming, limit).pipe(
      Effect.map((read): Read =>
        read._tag === "TooLarge" ? read : {
          _tag: "Text",
          // a view of the same bytes, not a copy
          text: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString("utf8")
        }
      ),
      Effect.mapError(decodeError)
    )
  }
  return request.text.pipe(
    Effect.map((text): Read => ({ _tag: "Text", text })),
    Effect.catchIf(
      (error) => error.cause instanceof Error && error.cause.message === "maxBytes exceeded",
      () => Effect.succeed(tooLarge)
    ),
    HttpIncomingMessage.withMaxBodySize(Option.some(FileSystem.Size(limit)))
  )
}

/**
 * The body of `request` as bytes, or `TooLarge` (for the multipart routes); as `read`, the
 * socket stays open on Node so that the 413 can be written.
 */
export const readBytes = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<ReadBytes, HttpServerError.RequestError> => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  const decodeError = (cause: unknown) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
  if (incoming instanceof IncomingMessage) return Effect.mapError(readIncoming(incoming, limit), decodeError)
  return request.arrayBuffer.pipe(
    Effect.map((buffer): ReadBytes => ({ _tag: "Bytes", bytes: new Uint8Array(buffer) })),
    Effect.catchIf(
      (error) => error.cause instanceof Error && error.cause.message === "maxBytes exceeded",
      () => Effect.succeed(tooLarge)
    ),
    HttpIncomingMessage.withMaxBodySize(Option.some(FileSystem.Size(limit)))
  )
}

/** Whether JSON `text` nests arrays and objects deeper than `max` (strings are skipped). */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/**
 * `request` with its body already read: `text` and `json` answer from `text` (the platform's
 * own readers would read the consumed stream again).
 */
export const withText = (
  request: HttpServerRequest.HttpServerRequest,
  text: string
): HttpServerRequest.HttpServerRequest => {
  const json = Effect.try({
    try: (): unknown => (text === "" ? null : JSON.parse(text)),
    catch: (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
  })
  const read: HttpServerRequest.HttpServerRequest = Object.create(request, {
    text: { value: Effect.succeed(text) },
    json: { value: json }
  })
  return read
}
