/**
 * Raw HTTP for the contract tests: requests built from the `HttpApi` definition (method and
 * path come from the endpoint, never written here) and sent with `fetch`.
 */
import { HttpApi, type HttpApiEndpoint, type HttpMethod } from "@effect/platform"
import { Api, Envelope } from "@feeshare/domain"
import { Effect, Either, Layer, Redacted } from "effect"
import type * as Options from "../../src/Options.js"
import * as Server from "../../src/Server.js"
import * as FakeMarket from "./FakeMarket.js"

export interface Reply {
  readonly status: number
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: unknown
}

export interface Call {
  readonly query?: Record<string, string>
  readonly body?: unknown
  /** `undefined`: the demo key; `null`: no key. */
  readonly apiKey?: string | null
  readonly headers?: Record<string, string>
  /** Raw body text (sent as JSON content). */
  readonly raw?: string
  /** A multipart/form-data body (fetch sets its content type and boundary). */
  readonly form?: FormData
}

const endpoints = new Map<string, HttpApiEndpoint.HttpApiEndpoint<string, HttpMethod.HttpMethod>>()
HttpApi.reflect(Server.FullApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, group }) => endpoints.set(`${group.identifier}.${endpoint.name}`, endpoint)
})

export const endpoint = (group: string, name: string) => {
  const found = endpoints.get(`${group}.${name}`)
  if (found === undefined) throw new Error(`no endpoint ${group}.${name}`)
  return found
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export const fetchReply = (url: string, init: RequestInit = {}): Effect.Effect<Reply> =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    const text = await response.text()
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value
    })
    return { status: response.status, headers, text, json: parse(text) }
  })

/** Calls `group.name` on the running sandbox. */
export const call = (
  group: string,
  name: string,
  options: Call = {}
): Effect.Effect<Reply, never, Server.SandboxInfo> =>
  Effect.gen(function*() {
    const info = yield* Server.SandboxInfo
    const e = endpoint(group, name)
    const query = options.query === undefined ? "" : `?${new URLSearchParams(options.query).toString()}`
    const headers: Record<string, string> = { ...options.headers }
    const apiKey = options.apiKey === undefined ? Redacted.value(info.demoApiKey) : options.apiKey
    if (apiKey !== null) headers[Api.apiKeyHeader] = apiKey
    const body = options.form ?? options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    // every POST is declared JSON (the sandbox refuses one that is not), with or without a body;
    // a form declares itself
    if (options.form === undefined && (body !== undefined || e.method === "POST")) {
      headers["content-type"] ??= "application/json"
    }
    return yield* fetchReply(`${info.rootUrl}${e.path}${query}`, {
      method: e.method,
      headers,
      ...(body === undefined ? {} : { body })
    })
  })

/** Decodes a reply with the endpoint's own success schema (through the domain's envelope rules). */
export const decodeSuccess = (group: string, name: string, reply: Reply): unknown => {
  const schema = endpoint(group, name).successSchema
  const result = Envelope.decode(schema, reply.text, {
    status: reply.status,
    operation: Api.operationName(group, name)
  })
  if (Either.isLeft(result)) throw new Error(`${group}.${name}: ${result.left.message} (${reply.status} ${reply.text})`)
  return result.right
}

/** The sandbox on a free port, over the in-test market. */
export const sandbox = (options: Partial<Options.Options> = {}) =>
  Server.layer(options).pipe(Layer.provide(FakeMarket.layer))
