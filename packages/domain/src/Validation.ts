/**
 * Turning a schema failure on a request into `InvalidRequest`, naming the field and the rule.
 *
 * @since 0.1.0
 */
import { Effect, Either, Option, ParseResult, Schema, SchemaAST } from "effect"
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

const membersOf = (issues: ParseResult.Composite["issues"]): ReadonlyArray<ParseResult.ParseIssue> =>
  "_tag" in issues ? [issues] : issues

/**
 * Whether an issue says something about the value (a failed rule, or a wrong type below the
 * top), rather than only "this is not the expected shape" (a top-level type mismatch or a
 * missing key).
 */
const isInformative = (issue: ParseResult.ParseIssue, top: boolean): boolean => {
  switch (issue._tag) {
    case "Type":
      return !top
    case "Missing":
      return false
    case "Pointer":
      return isInformative(issue.issue, false)
    case "Composite": {
      const first = membersOf(issue.issues)[0]
      return first !== undefined && isInformative(first, top)
    }
    case "Refinement":
      return issue.kind === "Predicate" || isInformative(issue.issue, top)
    case "Transformation":
      return issue.kind !== "Encoded" || isInformative(issue.issue, top)
    default:
      return true
  }
}

/** The property names a member of a union of structs declares (none for other members). */
const declaredKeys = (ast: SchemaAST.AST): ReadonlyArray<PropertyKey> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.map((signature) => signature.name)
    case "Refinement":
      return declaredKeys(ast.from)
    case "Transformation":
      return declaredKeys(ast.to)
    default:
      return []
  }
}

/** How many of the input's own keys a union member declares: the member the caller meant. */
const shapeMatch = (member: ParseResult.ParseIssue, actual: unknown): number => {
  if (typeof actual !== "object" || actual === null || member._tag !== "Composite") return 0
  const keys = declaredKeys(member.ast)
  return Object.keys(actual).filter((key) => keys.includes(key)).length
}

/**
 * Rewrites the failures of unions so that the first issue is the telling one: when no member
 * matched even in shape (`"v2"` for `"v0" | "v1"`) the union is reported as a whole; otherwise
 * the first member whose failure is informative is kept (an MFA payload with a blank `mfaCode`
 * is reported at `mfaCode`, not as the signature payload's missing `signature`), and when none
 * is, the member sharing the most keys with the input (an MFA payload without `mfaCode` is
 * reported as missing `mfaCode`).
 */
const focus = (issue: ParseResult.ParseIssue): ParseResult.ParseIssue => {
  switch (issue._tag) {
    case "Pointer":
      return new ParseResult.Pointer(issue.path, issue.actual, focus(issue.issue))
    case "Refinement":
      return new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, focus(issue.issue))
    case "Transformation":
      return new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, focus(issue.issue))
    case "Composite": {
      const issues = membersOf(issue.issues)
      if (SchemaAST.isUnion(issue.ast) && Option.isNone(SchemaAST.getMessageAnnotation(issue.ast))) {
        if (issues.every((member) => member._tag === "Type")) return new ParseResult.Type(issue.ast, issue.actual)
        const chosen = issues.find((member) => isInformative(member, true)) ??
          issues.reduce((best, member) =>
            shapeMatch(member, issue.actual) > shapeMatch(best, issue.actual) ? member : best
          )
        if (chosen !== undefined) return focus(chosen)
      }
      const [first, ...rest] = issues.map(focus)
      return first === undefined
        ? issue
        : new ParseResult.Composite(issue.ast, issue.actual, [first, ...rest], issue.output)
    }
    default:
      return issue
  }
}

/**
 * The first issue of a parse error as `InvalidRequest`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toInvalidRequest = (operation: string, error: ParseResult.ParseError): InvalidRequest => {
  const issues = ParseResult.ArrayFormatter.formatIssueSync(focus(error.issue))
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
