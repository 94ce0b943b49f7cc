// The facade's error classes follow the core's one table of failures (`Failures` of
// @feeshare/client, from which the CLI also derives its exit codes): every core failure
// becomes the facade class of its tag, never a Defect.
import * as Failures from "@feeshare/client/Failures"
import { Arbitrary, Cause, FastCheck, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Defect, fromCause, isFeeShareError } from "../src/Errors.js"

/** One value of a schema (here: an instance of a failure class, its fields arbitrary). */
const sampleOf = <S extends Schema.Schema.AnyNoContext>(schema: S): Schema.Schema.Type<S> =>
  FastCheck.sample(Arbitrary.make(schema), 1)[0]

describe("the facade and the core's table of failures", () => {
  it("every core failure class converts to the facade class of its tag (an instance of both)", () => {
    expect(Failures.all.length).toBeGreaterThanOrEqual(34)
    for (const failure of Failures.all) {
      const sample = sampleOf(failure)
      const converted = fromCause(Cause.fail(sample))
      expect(converted).not.toBeInstanceOf(Defect)
      expect(isFeeShareError(converted)).toBe(true)
      expect(converted._tag).toBe(failure._tag)
      expect(converted.tag).toBe(failure._tag)
      expect(converted).toBeInstanceOf(failure)
    }
  })
})
