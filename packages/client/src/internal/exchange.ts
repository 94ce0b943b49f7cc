/**
 * One HTTP exchange as the client needs it against a server that may be hostile: the request,
 * redirects followed only within the base URL's origin (a bounded number of hops, so the API
 * key is never sent anywhere else), and the body read within a byte cap (counted after any
 * decompression, so neither an endless body nor a compression bomb is buffered beyond it).
 */
import type { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { HttpClientRequest } from "@effect/platform"
import { Envelope, FeeShareError, RateLimit } from "@feeshare/domain"
import { Effect, Option, Stream } from "effect"
import type { Scope } from "effect"

export interface Limits {
  readonly maxRedirects: number
  readonly maxResponseBytes: number
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

/** The body as text, failing once more than `max` bytes arrived (the rest is never read). */
const boundedText = (
  response: HttpClientResponse.HttpClientResponse,
  max: number,
  operation: string
): Effect.Effect<string, HttpClientError.ResponseError | FeeShareError.UnexpectedResponse> => {
  const tooLarge = () =>
    refused(response, operation, `the response body exceeds maxResponseBytes (${max} bytes); nothing more was read`)
  const length = response.headers["content-length"]
  const declared = length === undefined ? Number.NaN : Number(length)
  if (declared > max) return Effect.fail(tooLarge())
  // a declared length the transport enforces, on a body that is not decompressed: read it whole
  if (Number.isSafeInteger(declared) && response.headers["content-encoding"] === undefined) return response.text
  let size = 0
  const chunks: Array<Uint8Array> = []
  return Stream.runForEach(response.stream, (chunk) => {
    size += chunk.length
    if (size > max) return Effect.fail(tooLarge())
    chunks.push(chunk)
    return Effect.void
  }).pipe(Effect.map(() => {
    const bytes = new Uint8Array(size)
    let at = 0
    for (const chunk of chunks) {
      bytes.set(chunk, at)
      at += chunk.length
    }
    return decoder.decode(bytes)
  }))
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
  const origin = new URL(request.url).origin
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
      const shown = (location ?? "(none)").slice(0, Envelope.bodyPreviewLength)
      if (target === undefined) {
        return Effect.fail(refused(response, operation, `redirected (${response.status}) without a usable Location: ${shown}`))
      }
      if (target.origin !== origin) {
        return Effect.fail(refused(
          response,
          operation,
          `redirected (${response.status}) to another origin, ${shown}; not followed, so the API key was not sent there`
        ))
      }
      if (hops >= limits.maxRedirects) {
        return Effect.fail(refused(response, operation, `more than ${limits.maxRedirects} redirects; the last to ${shown}`))
      }
      // the redirect's own body is read (a little of it) so that the connection can be reused
      return Effect.zipRight(
        Effect.ignore(boundedText(response, 64 * 1024, operation)),
        step(follow(current, response.status, target), hops + 1)
      )
    })
  return step(request, 0)
}
