import { type HttpApiEndpoint, type HttpApiGroup, HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Effect, Schema, SchemaAST } from "effect"

type Success<G, N extends string> = HttpApiEndpoint.HttpApiEndpoint.Success<
  HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.Endpoints<G>, N>
>

/** What `respond` reads of a group: each endpoint's success schema. */
interface Group {
  readonly endpoints: Readonly<Record<string, { readonly successSchema: { readonly ast: SchemaAST.AST } }>>
}

/**
 * A handler's success value as the finished response of its endpoint: encoded by the
 * endpoint's own success schema (the contract stays defined once), compiled once, with the
 * endpoint's status and content type, the same bytes the builder would send.
 *
 * `HttpApiBuilder` would otherwise run, for every request, the schema of the success union
 * wrapped in a schema-to-response transformation, reading the status and encoding
 * annotations again and building the response inside an `Effect` pipeline: the largest
 * share of a simple read's cost in the builder that the handlers can avoid. A value the
 * schema refuses is a defect (a 500 envelope), as a server bug should be.
 *
 * Endpoints with several success schemas, an empty success or a non-JSON encoding keep the
 * builder's path: their handlers return the value unchanged.
 */
export const respond = <
  G extends Group,
  N extends HttpApiEndpoint.HttpApiEndpoint.Name<HttpApiGroup.HttpApiGroup.Endpoints<G>>
>(group: G, name: N) => {
  const ast = group.endpoints[name]?.successSchema.ast
  const direct = ast !== undefined && !SchemaAST.isUnion(ast) && !HttpApiSchema.isVoid(ast) &&
    HttpApiSchema.getEncoding(ast).kind === "Json"
  const encode = direct ? Schema.encodeUnknownSync(Schema.make(ast)) : undefined
  const status = direct ? HttpApiSchema.getStatusSuccessAST(ast) : 200
  const contentType = direct ? HttpApiSchema.getEncoding(ast).contentType : undefined
  return <E, R>(
    effect: Effect.Effect<Success<G, N>, E, R>
  ): Effect.Effect<Success<G, N> | HttpServerResponse.HttpServerResponse, E, R> =>
    encode === undefined
      ? effect
      : Effect.map(effect, (value) => HttpServerResponse.unsafeJson(encode(value), { status, contentType }))
}
