// The facade's error classes follow the core's one table of failures (`Failures` of
// @feeshare/client, from which the CLI also derives its exit codes): every core failure
// becomes the facade class of its tag, never a Defect. The type-level checks run under
// `tsc -b` (which covers the tests).
import * as Failures from "@feeshare/solana/Failures"
import * as Domain from "@feeshare/domain/FeeShareError"
import { Arbitrary, Cause, FastCheck, type Schema } from "effect"
import * as Facade from "feeshare"
import { describe, expect, expectTypeOf, it } from "vitest"
import { Defect, fromCause, isFeeShareError } from "../src/Errors.js"

/** One value of a failure class, typed as that class's instances. */
const sampleOf = <S extends Schema.Schema.AnyNoContext>(schema: S): Schema.Schema.Type<S> =>
  FastCheck.sample(Arbitrary.make(schema), 1)[0]

/** The exported facade class of a tag, looked up by name as a user's import would. */
const exported = (tag: string): unknown => Object.entries(Facade).find(([name]) => name === tag)?.[1]

describe("the facade and the core's table of failures", () => {
  it("every core failure class converts to the exported facade class of its tag (an instance of both)", () => {
    expect(Failures.all.length).toBeGreaterThanOrEqual(34)
    for (const failure of Failures.all) {
      const sample = sampleOf(failure)
      const converted = fromCause(Cause.fail(sample))
      const facade = exported(failure._tag)
      expect(typeof facade, failure._tag).toBe("function")
      expect(converted).not.toBeInstanceOf(Defect)
      expect(isFeeShareError(converted)).toBe(true)
      expect(converted._tag).toBe(failure._tag)
      expect(converted.tag).toBe(failure._tag)
      expect(converted).toBeInstanceOf(failure)
      if (typeof facade === "function") expect(converted).toBeInstanceOf(facade)
      // the core's fields, unchanged, plus `tag` (and `status` 0 when there is no HTTP answer)
      expect(converted).toMatchObject({ ...sample, message: sample.message })
      expect(typeof converted.status).toBe("number")
      expect(isFeeShareError(sample)).toBe(false)
    }
  })

  it("a failure without an HTTP answer gets status 0 and an own rateLimit; an answer keeps its own", () => {
    const invalid = fromCause(Cause.fail(new Domain.InvalidRequest({ operation: "op", field: "wallet", rule: "r", message: "m" })))
    expect(invalid).toBeInstanceOf(Facade.InvalidRequest)
    expect(Object.keys(invalid)).toEqual(expect.arrayContaining(["tag", "status", "rateLimit"]))
    expect(invalid).toMatchObject({ tag: "InvalidRequest", status: 0, rateLimit: undefined, field: "wallet" })

    const answer = fromCause(Cause.fail(new Domain.BadRequest({ operation: "op", status: 400, message: "nothing to claim" })))
    expect(answer).toBeInstanceOf(Facade.BadRequest)
    expect(answer).toMatchObject({ tag: "BadRequest", status: 400, message: "nothing to claim" })
    expect(Object.keys(answer)).not.toContain("rateLimit")
  })

  it("a facade class built directly is an instance of itself and the core's class, with its tag", () => {
    const error = new Facade.MissingSigner({ stage: "claim", signer: "S", message: "missing" })
    expect(error).toBeInstanceOf(Facade.MissingSigner)
    expect(error).toBeInstanceOf(Error)
    expect(isFeeShareError(error)).toBe(true)
    expect(error).toMatchObject({ tag: "MissingSigner", _tag: "MissingSigner", status: 0, stage: "claim" })
    expect(fromCause(Cause.fail(error))).toBe(error)
  })

  it("types: each class keeps its precise fields; the union's tags are the table's and the facade's own", () => {
    expectTypeOf<Facade.InvalidRequest["tag"]>().toEqualTypeOf<"InvalidRequest">()
    expectTypeOf<Facade.InvalidRequest["status"]>().toEqualTypeOf<0>()
    expectTypeOf<Facade.InvalidRequest["field"]>().toEqualTypeOf<string>()
    expectTypeOf<Facade.RateLimited["status"]>().toEqualTypeOf<number>()
    expectTypeOf<Facade.InvalidRequest>().toMatchTypeOf<Domain.InvalidRequest>()
    expectTypeOf<Facade.FeeShareError>().toMatchTypeOf<Facade.ErrorFields>()
    expectTypeOf<Facade.FeeShareError["tag"]>().toEqualTypeOf<Failures.Tag | "Aborted" | "Closed" | "Defect">()
    expectTypeOf<Facade.BadRequest>().not.toEqualTypeOf<Facade.NotFound>()
    const narrow = (error: Facade.FeeShareError): string =>
      error instanceof Facade.InvalidRequest ? error.rule : error.tag
    expectTypeOf(narrow).returns.toEqualTypeOf<string>()
  })
})
