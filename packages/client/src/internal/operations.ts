/**
 * The operation table: every endpoint of the domain's `HttpApi`, read once into what a call
 * needs (method, URL, headers, input encoders, success schema), and the request of one call.
 */
import type { HttpMethod } from "@effect/platform"
import { HttpApiSchema, HttpClientRequest } from "@effect/platform"
import { Api, type FeeShareError, Validation } from "@feeshare/domain"
import type { Schema } from "effect"
import { Either, Option, Redacted } from "effect"
import * as Multipart from "./multipart.js"
import type { Settings } from "./settings.js"

type Encode = (input: unknown) => Either.Either<unknown, FeeShareError.InvalidRequest>

/** One endpoint of the `HttpApi`, read once and ready to run. */
export interface Operation {
  readonly group: string
  readonly endpoint: string
  /** `group.endpoint`, as in errors and spans. */
  readonly operation: string
  readonly method: HttpMethod.HttpMethod
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** `false` for operations that must never be repeated automatically. */
  readonly retried: boolean
  readonly urlParams: Encode | undefined
  readonly payload: Encode | undefined
  /** The body is multipart/form-data (the payload schema is `HttpApiSchema.Multipart`), not JSON. */
  readonly multipart: boolean
  readonly success: Schema.Schema.AnyNoContext
}

/** What the executor reads from an endpoint of the `HttpApi`. */
interface EndpointView {
  readonly name: string
  readonly path: string
  readonly method: HttpMethod.HttpMethod
  readonly urlParamsSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly payloadSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly successSchema: Schema.Schema.AnyNoContext
}

/**
 * The operations that are never sent twice: the agent-auth callback consumes its nonce and
 * creates a key.
 */
export const notRetried: ReadonlySet<string> = new Set([Api.operationName("agentAuth", "callback")])

const trimSlashes = (url: string): string => url.replace(/\/+$/, "")

/** `{base_url}` and `{root_url}` from the configured base URL. */
export const urls = (baseUrl: string): { readonly baseUrl: string; readonly rootUrl: string } => {
  const base = trimSlashes(baseUrl)
  return { baseUrl: base, rootUrl: base.endsWith(Api.basePath) ? base.slice(0, -Api.basePath.length) : base }
}

const encoder = (
  schema: Option.Option<Schema.Schema.AnyNoContext>,
  operation: string
): Encode | undefined => {
  if (Option.isNone(schema)) return undefined
  const encode = Validation.encodeRequest(schema.value, operation)
  return (input) => encode(input)
}

/** Reads every endpoint of `Api.Api` into an `Operation`. */
export const operations = (
  settings: Pick<Settings, "apiKey" | "baseUrl" | "rootUrl">
): ReadonlyArray<Operation> => {
  const out: Array<Operation> = []
  for (const group of Object.values(Api.Api.groups)) {
    const underBase = Api.isUnderBaseUrl(group.identifier)
    // ping reads the caller's own rate limit, so it carries the key like the guarded groups
    const sendsKey = Array.from(group.middlewares).some((tag) => tag.key === Api.ApiKey.key) || !underBase
    const headers: Record<string, string> = Option.isSome(settings.apiKey) && sendsKey
      ? { [Api.apiKeyHeader]: Redacted.value(settings.apiKey.value) }
      : {}
    const endpoints: ReadonlyArray<EndpointView> = Object.values(group.endpoints)
    for (const endpoint of endpoints) {
      const operation = Api.operationName(group.identifier, endpoint.name)
      const path = underBase && endpoint.path.startsWith(Api.basePath)
        ? `${settings.baseUrl}${endpoint.path.slice(Api.basePath.length)}`
        : `${settings.rootUrl}${endpoint.path}`
      out.push({
        group: group.identifier,
        endpoint: endpoint.name,
        operation,
        method: endpoint.method,
        url: path,
        headers,
        retried: !notRetried.has(operation),
        urlParams: encoder(endpoint.urlParamsSchema, operation),
        payload: encoder(endpoint.payloadSchema, operation),
        multipart: Option.isSome(endpoint.payloadSchema) &&
          HttpApiSchema.getMultipart(endpoint.payloadSchema.value.ast) !== undefined,
        success: endpoint.successSchema
      })
    }
  }
  return out
}

/** The request of an operation with no input yet: built once per operation. */
export const baseRequest = (op: Operation): HttpClientRequest.HttpClientRequest =>
  HttpClientRequest.make(op.method)(op.url, { headers: op.headers, acceptJson: true })

/** The request of one call: the input validated and encoded into the query or the body. */
export const request = (
  op: Operation,
  base: HttpClientRequest.HttpClientRequest,
  input: unknown
): Either.Either<HttpClientRequest.HttpClientRequest, FeeShareError.InvalidRequest> => {
  let request = base
  if (op.urlParams !== undefined) {
    const encoded = op.urlParams(input ?? {})
    if (Either.isLeft(encoded)) return Either.left(encoded.left)
    request = HttpClientRequest.setUrlParams(request, toUrlParams(encoded.right))
  }
  if (op.payload !== undefined) {
    const encoded = op.payload(input)
    if (Either.isLeft(encoded)) return Either.left(encoded.left)
    if (op.multipart) {
      const form = Multipart.encode(encoded.right)
      request = HttpClientRequest.bodyUint8Array(request, form.body, form.contentType)
    } else request = HttpClientRequest.bodyUnsafeJson(request, encoded.right)
  }
  return Either.right(request)
}

const toUrlParams = (encoded: unknown): Record<string, string> => {
  const out: Record<string, string> = {}
  if (typeof encoded === "object" && encoded !== null) {
    for (const [key, value] of Object.entries(encoded)) {
      if (typeof value === "string") out[key] = value
      else if (typeof value === "number" || typeof value === "boolean") out[key] = String(value)
    }
  }
  return out
}
