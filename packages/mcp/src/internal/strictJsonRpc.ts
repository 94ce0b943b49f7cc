/**
 * JSON-RPC over HTTP, strictly, before the MCP server sees a body: read at most
 * `maxBodyBytes` (413 past it, answered after the rest of the body, up to `maxDrainBytes`, is
 * read and dropped, not a reset connection), JSON (400 with a `-32700`
 * parse error), nested at most `maxDepth` levels, a batch of at most `maxBatch` messages,
 * every message an object with `jsonrpc: "2.0"` (400 with a `-32600` invalid request). The
 * body read is handed on as the request's `text`.
 */
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { IncomingMessage } from "node:http"

/** The largest body read, in bytes (1 MiB). */
export const maxBodyBytes = 1024 * 1024

/** The most messages a batch may hold. */
export const maxBatch = 32

/** The deepest nesting of arrays and objects a body may have. */
export const maxDepth = 64

const envelope = (status: number, code: number, message: string) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: null, error: { code, message } }, { status })

/**
 * Past `maxBodyBytes`, up to this many bytes in all are read and dropped before the 413 is
 * answered: the connection closes once the answer is written, and a client still sending
 * into a closed connection sees a reset (EPIPE) instead of the 413.
 */
export const maxDrainBytes = 16 * maxBodyBytes

/** A body over the limit: `drained` when it was read to its end (the connection can stay open). */
interface TooLarge {
  readonly _tag: "TooLarge"
  readonly drained: boolean
}

const tooLarge = (drained: boolean): TooLarge => ({ _tag: "TooLarge", drained })

/** The body of a request, or `TooLarge` past `limit` bytes (declared or counted). */
const readBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<string | TooLarge, HttpServerError.RequestError> => {
  const declared = Number(request.headers["content-length"])
  if (declared > maxDrainBytes) return Effect.succeed(tooLarge(false))
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  if (!(incoming instanceof IncomingMessage)) {
    if (declared > limit) return Effect.succeed(tooLarge(false))
    return Effect.map(Effect.orDie(request.text), (text) => Buffer.byteLength(text) > limit ? tooLarge(true) : text)
  }
  return Effect.async<string | TooLarge, HttpServerError.RequestError>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const detach = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxDrainBytes) {
        detach()
        resume(Effect.succeed(tooLarge(false)))
      } else if (bytes <= limit && !(declared > limit)) chunks.push(chunk)
      else chunks.length = 0
    }
    const onEnd = () => {
      detach()
      resume(Effect.succeed(bytes > limit ? tooLarge(true) : Buffer.concat(chunks).toString("utf8")))
    }
    const onError = (cause: Error) => {
      detach()
      resume(Effect.fail(new HttpServerError.RequestError({ request, reason: "Decode", cause })))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(detach)
  })
}

/** Whether JSON `text` nests arrays and objects deeper than `max` (strings are skipped). */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

const isVersion2 = (message: unknown): boolean =>
  typeof message === "object" && message !== null && !Array.isArray(message) &&
  (message as { readonly jsonrpc?: unknown }).jsonrpc === "2.0"

/** Why a parsed body is refused, or `undefined`. */
export const refusal = (body: unknown): string | undefined => {
  if (Array.isArray(body)) {
    if (body.length === 0) return "Invalid request: an empty batch"
    if (body.length > maxBatch) return `Invalid request: a batch holds at most ${maxBatch} messages, got ${body.length}`
    return body.every(isVersion2) ? undefined : `Invalid request: every message needs "jsonrpc": "2.0"`
  }
  return isVersion2(body) ? undefined : `Invalid request: "jsonrpc" must be "2.0"`
}

/** `request` with its body already read: `text` and `json` answer from `text`. */
const withText = (
  request: HttpServerRequest.HttpServerRequest,
  text: string,
  json: unknown
): HttpServerRequest.HttpServerRequest => {
  const read: HttpServerRequest.HttpServerRequest = Object.create(request, {
    text: { value: Effect.succeed(text) },
    json: { value: Effect.succeed(json) }
  })
  return read
}

/**
 * Runs `app` on a `POST` whose body passed every rule, or answers the refusal; other methods
 * go to `app` as they are.
 */
export const guard = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (request.method !== "POST") return yield* app
    const read = yield* Effect.either(readBody(request, maxBodyBytes))
    if (Either.isLeft(read)) return envelope(400, -32700, "Parse error: the body could not be read")
    const text = read.right
    if (typeof text !== "string") {
      const refused = envelope(413, -32600, `Invalid request: the body is larger than ${maxBodyBytes} bytes`)
      return text.drained ? refused : HttpServerResponse.setHeader(refused, "connection", "close")
    }
    if (nestsDeeperThan(text, maxDepth)) {
      return envelope(400, -32600, `Invalid request: JSON nested deeper than ${maxDepth} levels`)
    }
    const parsed = Either.try((): unknown => JSON.parse(text))
    if (Either.isLeft(parsed)) return envelope(400, -32700, "Parse error")
    const refused = refusal(parsed.right)
    if (refused !== undefined) return envelope(400, -32600, refused)
    return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, withText(request, text, parsed.right))
  })
