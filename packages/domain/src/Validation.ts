/**
 * Turning a schema failure on a request into `InvalidRequest`, naming the field and the rule.
 *
 * @since 0.1.0
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { InvalidRequest } from "./FeeShareError.js"

/**
 * `a.b[2].c` from a parse-issue path.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (out, key) => typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`,
    ""
  )

/**
 * The first issue of a parse error as `InvalidRequest`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toInvalidRequest = (operation: string, error: ParseResult.ParseError): InvalidRequest => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  const field = first === undefined ? "" : formatPath(first.path)
  const rule = first === undefined ? error.message : first.message
  return new InvalidRequest({
    operation,
    field,
    rule,
    message: field === "" ? `${operation}: ${rule}` : `${operation}: ${field} ${rule}`
  })
}

/**
 * Checks a request value against its schema and encodes it for the wire, failing with
 * `InvalidRequest` (nothing is sent).
 *
 * @since 0.1.0
 * @category validation
 */
export const encodeRequest = <A, I>(
  schema: Schema.Schema<A, I, never>,
  operation: string
) => {
  const encode = Schema.encodeEither(schema, { errors: "first" })
  return (input: A): Either.Either<I, InvalidRequest> =>
    Either.mapLeft(encode(input), (error) => toInvalidRequest(operation, error))
}

/**
 * Decodes an untrusted request body, failing with `InvalidRequest` (used by servers).
 *
 * @since 0.1.0
 * @category validation
 */
export const decodeRequest = <A, I>(schema: Schema.Schema<A, I, never>, operation: string) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "first" })
  return (input: unknown): Effect.Effect<A, InvalidRequest> =>
    Effect.mapError(decode(input), (error) => toInvalidRequest(operation, error))
}
