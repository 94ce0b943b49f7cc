/**
 * A compiled decoder for the subset of schema ASTs the response schemas use. It accepts
 * exactly what Effect's parser accepts and returns the same value, but only answers the
 * question "does it decode, and to what": on any failure (or when it cannot decide, e.g.
 * an asynchronous transformation) it returns `FAIL`, and the caller runs Effect's parser to
 * get the authoritative result and the error message. Schemas outside the subset are not
 * compiled at all (`compile` returns `undefined`).
 *
 * Equivalence with Effect's parser is property-tested in test/FastDecode.test.ts.
 */
import { Either, Option, type Schema, SchemaAST as AST } from "effect"

/** Returned when the input does not decode (or the compiled decoder cannot decide). */
export const FAIL: unique symbol = Symbol.for("@feeshare/domain/FastDecode/FAIL")

/** @internal */
export type FAIL = typeof FAIL

type Decoder = (input: unknown) => unknown

/**
 * Marks a transformation whose `to` side is the type side of what its `from` side decodes
 * (the success envelope): the compiled decoder skips re-validating it.
 */
export const SkipTypeCheck: unique symbol = Symbol.for("@feeshare/domain/FastDecode/SkipTypeCheck")

const parseOptions: AST.ParseOptions = { errors: "first" }

const hasOwn = (o: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(o, key)

// ---------------------------------------------------------------------------
// union exclusivity: a union is compiled only when at most one member can accept any
// input, so that trying members in declaration order gives Effect's answer
// ---------------------------------------------------------------------------

interface Footprint {
  /** JS kinds the node may accept: typeof, with "null" and "array" apart; "any" = unknown. */
  readonly kinds: ReadonlySet<string>
  /** When the node accepts only literals: which. */
  readonly literals?: ReadonlySet<unknown>
  /** For object nodes: required properties whose values are literal-only. */
  readonly tags?: ReadonlyMap<PropertyKey, ReadonlySet<unknown>>
}

const kindOf = (value: unknown) => value === null ? "null" : typeof value
const anything: Footprint = { kinds: new Set(["any"]) }

const footprint = (ast: AST.AST): Footprint => {
  switch (ast._tag) {
    case "Literal":
      return { kinds: new Set([kindOf(ast.literal)]), literals: new Set([ast.literal]) }
    case "StringKeyword":
      return { kinds: new Set(["string"]) }
    case "NumberKeyword":
      return { kinds: new Set(["number"]) }
    case "BooleanKeyword":
      return { kinds: new Set(["boolean"]) }
    case "BigIntKeyword":
      return { kinds: new Set(["bigint"]) }
    case "TupleType":
      return { kinds: new Set(["array"]) }
    case "TypeLiteral": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) return anything
      const tags = new Map<PropertyKey, ReadonlySet<unknown>>()
      for (const ps of ast.propertySignatures) {
        const literals = ps.isOptional ? undefined : footprint(ps.type).literals
        if (literals !== undefined) tags.set(ps.name, literals)
      }
      return { kinds: new Set(["object"]), tags }
    }
    case "Refinement":
    case "Transformation":
      return footprint(ast.from)
    case "Union": {
      const members = ast.types.map(footprint)
      const kinds = new Set(members.flatMap((m) => [...m.kinds]))
      const literals = members.every((m) => m.literals !== undefined)
        ? new Set(members.flatMap((m) => [...(m.literals ?? [])]))
        : undefined
      return literals === undefined ? { kinds } : { kinds, literals }
    }
    default:
      return anything
  }
}

const intersects = (a: ReadonlySet<unknown>, b: ReadonlySet<unknown>) => [...a].some((x) => b.has(x))

const disjoint = (a: Footprint, b: Footprint): boolean => {
  if (a.kinds.has("any") || b.kinds.has("any")) return false
  if (a.literals !== undefined && b.literals !== undefined) return !intersects(a.literals, b.literals)
  const shared = [...a.kinds].filter((k) => b.kinds.has(k))
  if (shared.length === 0) return true
  if (shared.length === 1 && shared[0] === "object" && a.tags !== undefined && b.tags !== undefined) {
    for (const [key, values] of a.tags) {
      const other = b.tags.get(key)
      if (other !== undefined && !intersects(values, other)) return true
    }
  }
  return false
}

const isExclusive = (members: ReadonlyArray<AST.AST>): boolean => {
  const prints = members.map(footprint)
  for (let i = 0; i < prints.length; i++) {
    for (let j = i + 1; j < prints.length; j++) if (!disjoint(prints[i]!, prints[j]!)) return false
  }
  return true
}

// ---------------------------------------------------------------------------
// compiler
// ---------------------------------------------------------------------------

const memo = new WeakMap<AST.AST, Decoder | null>()

const guard = (test: (u: unknown) => boolean): Decoder => (u) => test(u) ? u : FAIL

const go = (ast: AST.AST): Decoder | undefined => {
  const cached = memo.get(ast)
  if (cached !== undefined) return cached ?? undefined
  const compiled =
    Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))
      ? undefined
      : build(ast)
  memo.set(ast, compiled ?? null)
  return compiled
}

const build = (ast: AST.AST): Decoder | undefined => {
  switch (ast._tag) {
    case "Literal": {
      const literal = ast.literal
      return guard((u) => u === literal)
    }
    case "StringKeyword":
      return guard((u) => typeof u === "string")
    case "NumberKeyword":
      return guard((u) => typeof u === "number")
    case "BooleanKeyword":
      return guard((u) => typeof u === "boolean")
    case "BigIntKeyword":
      return guard((u) => typeof u === "bigint")
    case "UndefinedKeyword":
      return guard((u) => u === undefined)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Refinement": {
      const from = go(ast.from)
      if (from === undefined) return undefined
      return (u) => {
        const a = from(u)
        return a === FAIL || Option.isSome(ast.filter(a, parseOptions, ast)) ? FAIL : a
      }
    }
    case "Transformation": {
      const from = go(ast.from)
      const skip = AST.getAnnotation<boolean>(ast, SkipTypeCheck).pipe(Option.getOrElse(() => false))
      const to = skip ? (u: unknown) => u : go(ast.to)
      const transformation = ast.transformation
      if (from === undefined || to === undefined || transformation._tag === "TypeLiteralTransformation") {
        return undefined
      }
      if (transformation._tag === "ComposeTransformation") {
        return (u) => {
          const a = from(u)
          return a === FAIL ? FAIL : to(a)
        }
      }
      const decode = transformation.decode
      return (u) => {
        const a = from(u)
        if (a === FAIL) return FAIL
        const b = decode(a, parseOptions, ast, u)
        return Either.isEither(b) && Either.isRight(b) ? to(b.right) : FAIL
      }
    }
    case "Declaration": {
      const parse = ast.decodeUnknown(...ast.typeParameters)
      return (u) => {
        const result = parse(u, parseOptions, ast)
        return Either.isEither(result) && Either.isRight(result) ? result.right : FAIL
      }
    }
    case "TupleType": {
      const rest = ast.rest[0]
      if (ast.elements.length !== 0 || ast.rest.length !== 1 || rest === undefined) return undefined
      const item = go(rest.type)
      if (item === undefined) return undefined
      return (u) => {
        if (!Array.isArray(u)) return FAIL
        const out: Array<unknown> = []
        for (let i = 0; i < u.length; i++) {
          const v = item(u[i])
          if (v === FAIL) return FAIL
          out.push(v)
        }
        return out
      }
    }
    case "TypeLiteral":
      return typeLiteral(ast)
    case "Union": {
      if (!isExclusive(ast.types)) return undefined
      const members: Array<Decoder> = []
      for (const member of ast.types) {
        const decoder = go(member)
        if (decoder === undefined) return undefined
        members.push(decoder)
      }
      return (u) => {
        for (const member of members) {
          const v = member(u)
          if (v !== FAIL) return v
        }
        return FAIL
      }
    }
    default:
      return undefined
  }
}

const typeLiteral = (ast: AST.TypeLiteral): Decoder | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return guard((u) => u !== null && u !== undefined)
  }
  const properties: Array<readonly [string, boolean, Decoder]> = []
  for (const ps of ast.propertySignatures) {
    const decoder = go(ps.type)
    if (decoder === undefined || typeof ps.name !== "string") return undefined
    properties.push([ps.name, ps.isOptional, decoder])
  }
  const indexValues: Array<Decoder> = []
  for (const is of ast.indexSignatures) {
    const decoder = go(is.type)
    if (decoder === undefined || !AST.isStringKeyword(is.parameter)) return undefined
    indexValues.push(decoder)
  }
  const expected = new Set(properties.map(([name]) => name))
  return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return FAIL
    const input: Record<string, unknown> = u as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const [name, isOptional, decoder] of properties) {
      if (isOptional && !hasOwn(input, name)) continue
      const v = decoder(input[name])
      if (v === FAIL) return FAIL
      out[name] = v
    }
    for (const decoder of indexValues) {
      for (const key of Object.keys(input)) {
        const v = decoder(input[key])
        if (v === FAIL) return FAIL
        if (!expected.has(key)) out[key] = v
      }
    }
    return out
  }
}

/**
 * The compiled decoder of `schema`, or `undefined` when its AST is outside the supported
 * subset. The decoder returns the decoded value, or `FAIL`.
 */
export const compile = <A, I>(schema: Schema.Schema<A, I, never>): ((input: unknown) => A | FAIL) | undefined => {
  const decoder = go(schema.ast)
  return decoder === undefined ? undefined : (input) => decoder(input) as A | FAIL
}
