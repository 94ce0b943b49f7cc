/**
 * JSON-RPC 2.0 as `/rpc` speaks it, over HTTP (`Rpc`) and over WebSocket (`RpcSubscriptions`):
 * the request schema, the error replies as a Solana RPC node words them, and a body's
 * requests (one or a batch).
 */
import { Validation } from "@feeshare/domain"
import { Cause, Effect, Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { LedgerError } from "../model/ledger/models.js"

/**
 * The most requests a batch may hold; a larger batch is answered with one `-32600` error.
 */
export const maxBatchSize = 100

/** The longest client-derived text an error message repeats. */
const maxEchoed = 200

export const capped = (text: string): string => text.length <= maxEchoed ? text : `${text.slice(0, maxEchoed)}…`

export const invalidParams = (message: string) =>
  new LedgerError({ code: -32602, message: `Invalid params: ${capped(message)}` })

const expected = (ast: SchemaAST.AST): string =>
  SchemaAST.getDescriptionAnnotation(ast).pipe(
    Option.orElse(() => SchemaAST.getIdentifierAnnotation(ast)),
    Option.getOrElse(() => String(ast))
  )

const membersOf = (issues: ParseResult.Composite["issues"]): ReadonlyArray<ParseResult.ParseIssue> =>
  "_tag" in issues ? [issues] : issues

/**
 * The first issue as `path rule`, naming what was expected but never the offending value
 * (which may be huge, or nested too deep to print).
 */
export const describe = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>): string => {
  const at = (rule: string) => path.length === 0 ? rule : `${Validation.formatPath(path)} ${rule}`
  switch (issue._tag) {
    case "Pointer":
      return describe(issue.issue, [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])])
    case "Composite": {
      const members = membersOf(issue.issues)
      // a union is reported as a whole unless the value had a member's shape
      const chosen = SchemaAST.isUnion(issue.ast)
        ? members.find((member) => member._tag === "Composite")
        : members[0]
      return chosen === undefined ? at(`expected ${expected(issue.ast)}`) : describe(chosen, path)
    }
    case "Refinement":
      return issue.kind === "From" ? describe(issue.issue, path) : at(`expected ${expected(issue.ast)}`)
    case "Transformation":
      return issue.kind === "Transformation" ? at(`expected ${expected(issue.ast)}`) : describe(issue.issue, path)
    case "Type":
      return at(`expected ${expected(issue.ast)}`)
    case "Missing":
      return at("is missing")
    case "Unexpected":
      return at("is unexpected")
    case "Forbidden":
      return at("is forbidden")
  }
}

/** A method's `params` decoded, or `-32602` naming the first bad parameter. */
export const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown) =>
  Schema.decodeUnknown(schema)(params ?? []).pipe(
    Effect.mapError((error) => invalidParams(describe(error.issue, ["params"])))
  )

export const Id = Schema.Union(Schema.String, Schema.Number, Schema.Null)
export type Id = typeof Id.Type

export const Request = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  id: Schema.optional(Id),
  method: Schema.String,
  params: Schema.optional(
    Schema.Union(Schema.Array(Schema.Unknown), Schema.Record({ key: Schema.String, value: Schema.Unknown }))
      .annotations({ description: "an array or an object" })
  )
}).annotations({ description: "a request object" })
export type Request = typeof Request.Type

export const errorReply = (id: Id, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) }
})

export const invalidRequest = (id: Id, detail: string) => errorReply(id, -32600, `Invalid request: ${capped(detail)}`)

export const internalError = (id: Id) => errorReply(id, -32603, "Internal error")

export const parseError = errorReply(null, -32700, "Parse error")

/** The id of a request that is otherwise invalid, when it is a valid id. */
const readableId = (body: unknown): Id =>
  typeof body === "object" && body !== null && "id" in body
    ? Option.getOrElse(Schema.decodeUnknownOption(Id)(body.id), () => null)
    : null

/**
 * One request decoded and answered by `handle`; every failure, defects included, is a
 * JSON-RPC error of its own (`-32600` for what is not a request, the `LedgerError`'s code, or
 * `-32603` without detail for a defect, which is logged). `onValid` sees a valid request
 * first and may answer it instead (`Some`), e.g. to leave a notification unanswered.
 */
export const answer = <R, T = never>(
  label: string,
  body: unknown,
  handle: (request: Request) => Effect.Effect<unknown, LedgerError, R>,
  onValid: (request: Request) => Option.Option<T> = () => Option.none()
): Effect.Effect<object | T, never, R> =>
  Either.match(Schema.decodeUnknownEither(Request)(body), {
    onLeft: (error) => Effect.succeed(invalidRequest(readableId(body), describe(error.issue, []))),
    onRight: (request) => {
      const instead = onValid(request)
      if (Option.isSome(instead)) return Effect.succeed(instead.value)
      const id = request.id ?? null
      return handle(request).pipe(
        Effect.map((result): object => ({ jsonrpc: "2.0", id, result })),
        Effect.catchAllCause((cause) =>
          Option.match(Cause.failureOption(cause), {
            onSome: (error) => Effect.succeed(errorReply(id, error.code, error.message, error.data)),
            onNone: () =>
              Cause.isInterruptedOnly(cause)
                ? Effect.interrupt
                : Effect.as(Effect.logError(`${label} ${request.method} failed`, cause), internalError(id))
          })
        )
      )
    }
  })

/**
 * What a body holds: `Single` (one value, maybe not a request), `Batch` (one to
 * `maxBatchSize` values), or `Refused`, the one error answering the whole body (`-32700` for
 * text that is not JSON, `-32600` for an empty or oversized batch).
 */
export type Body =
  | { readonly _tag: "Single"; readonly value: unknown }
  | { readonly _tag: "Batch"; readonly values: ReadonlyArray<unknown> }
  | { readonly _tag: "Refused"; readonly reply: object }

export const parseBody = (text: string): Body => {
  const body = Either.try((): unknown => JSON.parse(text))
  if (Either.isLeft(body)) return { _tag: "Refused", reply: parseError }
  const value = body.right
  if (!Array.isArray(value)) return { _tag: "Single", value }
  if (value.length === 0) return { _tag: "Refused", reply: invalidRequest(null, "empty batch") }
  if (value.length > maxBatchSize) {
    return {
      _tag: "Refused",
      reply: invalidRequest(null, `a batch holds at most ${maxBatchSize} requests, got ${value.length}`)
    }
  }
  return { _tag: "Batch", values: value }
}
