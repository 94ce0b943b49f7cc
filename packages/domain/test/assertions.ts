/** Assertions on request validation through `Validation.encodeRequest` / `decodeRequest`. */
import { assert } from "@effect/vitest"
import { Effect, Either, Option, type Schema } from "effect"
import { Validation } from "../src/index.js"
import { decodeFailure } from "./arbitraries.js"

/**
 * Asserts that `Validation.decodeRequest` rejects `encoded` (and, when given,
 * `Validation.encodeRequest` rejects `type`) with the given field and rule.
 */
export const assertInvalid = <A, I>(
  schema: Schema.Schema<A, I, never>,
  inputs: { readonly encoded: unknown; readonly type?: A },
  field: string,
  rule: string
): void => {
  const decoded = decodeFailure(Validation.decodeRequest(schema, "test.op")(inputs.encoded))
  assert.deepStrictEqual({ field: decoded?.field, rule: decoded?.rule }, { field, rule }, "decodeRequest")
  assert.strictEqual(decoded?.operation, "test.op")
  if (inputs.type !== undefined) {
    const encoded = Either.getLeft(Validation.encodeRequest(schema, "test.op")(inputs.type))
    assert.deepStrictEqual(
      Option.map(encoded, (e) => ({ field: e.field, rule: e.rule })),
      Option.some({ field, rule }),
      "encodeRequest"
    )
  }
}

/** Asserts that a request decodes and encodes (both ways through `Validation`). */
export const assertValid = <A, I>(schema: Schema.Schema<A, I, never>, encoded: I): A => {
  const decoded = Effect.runSync(Effect.either(Validation.decodeRequest(schema, "test.op")(encoded)))
  if (Either.isLeft(decoded)) assert.fail(`rejected: ${decoded.left.message}`)
  const reencoded = Validation.encodeRequest(schema, "test.op")(decoded.right)
  if (Either.isLeft(reencoded)) assert.fail(`encode rejected: ${reencoded.left.message}`)
  return decoded.right
}
