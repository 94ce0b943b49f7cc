/**
 * One HTTP exchange as the client needs it against a server that may be hostile: the request,
 * redirects followed only within the base URL's origin (a bounded number of hops, so the API
 * key is never sent anywhere else), and the body read within a byte cap (counted after any
 * decompression, so neither an endless body nor a compression bomb is buffered beyond it).
 */
import type { HttpClient, HttpClientResponse } from "@effect/platform"
import { HttpClientError, HttpClientRequest } from "@effect/platform"
import { Envelope, FeeShareError, RateLimit, Redaction } from "@feeshare/domain"
import { Effect, Option } from "effect"
import type { Scope } from "effect"

export interface Limits {
  readonly maxRedirects: number
  readonly maxResponseBytes: number
  /** The origin of the base URL: the only one a redirect may lead to. */
  readonly origin: string
}

export interface Exchanged {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

const refused = (
  response: HttpClientResponse.HttpClientResponse,
  operation: string,
  message: string
) => {
  const rateLimit = Option.getOrUndefined(RateLimit.fromHeaders(response.headers))
  return new FeeShareError.UnexpectedResponse({
    status: response.status,
    message,
    operation,
    body: "",
    ...(rateLimit === undefined ? {} : { rateLimit })
  })
}

const decoder = new TextDecoder()

/** Chunks of a body as the transports hand them over, read without buffering past `max`. */
type Chunks = AsyncIterable<Uint8Array> | { readonly getReader: () => ReadableStreamDefaultReader<Uint8Array> }

const isRecord = (value: unknown): value is Record<PropertyKey, unknown> => typeof value === "object" && value !== null

const isChunks = (value: unknown): value is Chunks =>
  isRecord(value) && (typeof value["getReader"] === "function" || typeof value[Symbol.asyncIterator] === "function")

/**
 * The raw body of a response of the platform's transports: the web `Response.body` (fetch),
 * undici's `body`, or the `IncomingMessage` itself (node:http). Read directly, so that
 * bounding a body costs no stream machinery in a browser bundle.
 */
const rawBody = (response: HttpClientResponse.HttpClientResponse): Chunks | undefined => {
  const source: unknown = Reflect.get(response, "source")
  if (!isRecord(source)) return undefined
  const body = source["body"]
  if (isChunks(body)) return body
  return isChunks(source) ? source : undefined
}

/** Reads `body` up to `max` bytes; `undefined` when it has more (the rest is not read). */
const readUpTo = async (body: Chunks, max: number): Promise<Uint8Array | undefined> => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  if ("getReader" in body) {
    const reader = body.getReader()
    while (true) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.length
      if (size > max) {
        await reader.cancel().catch(() => undefined)
        return undefined
      }
      chunks.push(value)
    }
  } else {
    for await (const chunk of body) {
      size += chunk.length
      // leaving the loop early closes (destroys) the source
      if (size > max) return undefined
      chunks.push(chunk)
    }
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

/**
 * The body as text, failing once more than `max` bytes arrived (the rest is never read). A
 * transport other than fetch, undici and node:http is read whole: it must bound its own
 * bodies.
 */
const boundedText = (
  response: HttpClientResponse.HttpClientResponse,
  max: number,
  operation: string
): Effect.Effect<string, HttpClientError.HttpClientError | FeeShareError.UnexpectedResponse> => {
  const tooLarge = () =>
    refused(response, operation, `the response body exceeds maxResponseBytes (${max} bytes); nothing more was read`)
  const length = response.headers["content-length"]
  const declared = length === undefined ? Number.NaN : Number(length)
  if (declared > max) return Effect.fail(tooLarge())
  // a declared length the transport enforces, on a body that is not decompressed: read it whole
  if (Number.isSafeInteger(declared) && response.headers["content-encoding"] === undefined) return response.text
  const body = rawBody(response)
  if (body === undefined) return response.text
  return Effect.tryPromise({
    try: () => readUpTo(body, max),
    catch: (cause) =>
      new HttpClientError.ResponseError({ request: response.request, response, reason: "Decode", cause })
  }).pipe(
    Effect.flatMap((bytes) => bytes === undefined ? Effect.fail(tooLarge()) : Effect.succeed(decoder.decode(bytes)))
  )
}

const parseUrl = (text: string, base: string): URL | undefined => {
  try {
    return new URL(text, base)
  } catch {
    return undefined
  }
}

/** The request a redirect leads to: same headers; 303 (and 301/302 of a POST) become a GET. */
const follow = (
  request: HttpClientRequest.HttpClientRequest,
  status: number,
  location: URL
): HttpClientRequest.HttpClientRequest => {
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === "POST")
  return HttpClientRequest.make(toGet ? "GET" : request.method)(location.href, { headers: request.headers }).pipe(
    (next) => (toGet || request.body._tag === "Empty" ? next : HttpClientRequest.setBody(next, request.body))
  )
}

/**
 * Sends `request` and reads its answer. A redirect to the same origin is followed (at most
 * `limits.maxRedirects` hops); to another origin, or past the hop limit, it fails with
 * `UnexpectedResponse` naming the Location, and nothing is sent there.
 */
export const run = (
  http: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>,
  request: HttpClientRequest.HttpClientRequest,
  limits: Limits,
  operation: string
): Effect.Effect<Exchanged, HttpClientError.HttpClientError | FeeShareError.UnexpectedResponse, Scope.Scope> => {
  const origin = limits.origin
  const step = (
    current: HttpClientRequest.HttpClientRequest,
    hops: number
  ): Effect.Effect<Exchanged, HttpClientError.HttpClientError | FeeShareError.UnexpectedResponse, Scope.Scope> =>
    Effect.flatMap(http.execute(current), (response) => {
      if (!redirectStatuses.has(response.status)) {
        return Effect.map(boundedText(response, limits.maxResponseBytes, operation), (text) => ({ response, text }))
      }
      const location = response.headers["location"]
      const target = location === undefined ? undefined : parseUrl(location, current.url)
      // server-supplied: no control characters, no userinfo or secret parameters
      const shown = Redaction.line(location ?? "(none)").slice(0, Envelope.bodyPreviewLength)
      if (target === undefined) {
        return Effect.fail(
          refused(response, operation, `redirected (${response.status}) without a usable Location: ${shown}`)
        )
      }
      if (target.origin !== origin) {
        return Effect.fail(refused(
          response,
          operation,
          `redirected (${response.status}) to another origin, ${shown}; not followed, so the API key was not sent there`
        ))
      }
      if (hops >= limits.maxRedirects) {
        return Effect.fail(
          refused(response, operation, `more than ${limits.maxRedirects} redirects; the last to ${shown}`)
        )
      }
      // the redirect's own body is read (a little of it) so that the connection can be reused
      return Effect.zipRight(
        Effect.ignore(boundedText(response, 64 * 1024, operation)),
        step(follow(current, response.status, target), hops + 1)
      )
    })
  return step(request, 0)
}
