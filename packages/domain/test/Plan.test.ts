import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Envelope, Plan } from "../src/index.js"
import { dagDependencies, encodedPlan, mutate } from "./arbitraries.js"
import { assertInvalid } from "./assertions.js"
import { endpoint } from "./endpoints.js"

const decodePlan = Schema.decodeUnknownSync(Plan.TransactionPlan)
const planSchema = endpoint("claims", "createPlan").successSchema

/** A decoded, valid plan over a random DAG (dependencies point to earlier stages). */
const plan = (maxStages: number) =>
  dagDependencies(maxStages).chain((deps) => fc.tuple(fc.constant(deps), encodedPlan(deps, "v1"))).map((
    [deps, encoded]
  ) => ({ deps, encoded, plan: decodePlan(encoded) }))

/** Reference depth: longest chain over the graph, by memoised recursion. */
const referenceDepth = (deps: ReadonlyArray<ReadonlyArray<number>>): number => {
  const memo = new Map<number, number>()
  const depthOf = (i: number): number => {
    const known = memo.get(i)
    if (known !== undefined) return known
    const d = 1 + Math.max(0, ...deps[i]!.map(depthOf))
    memo.set(i, d)
    return d
  }
  return Math.max(0, ...deps.map((_, i) => depthOf(i)))
}

describe("Plan schemas", () => {
  it.prop("a plan decodes with bigint heights and fees; encode ∘ decode is the identity", [
    dagDependencies(8).chain((deps) =>
      fc.constantFrom("v0" as const, "v1" as const).chain((format) => encodedPlan(deps, format))
    )
  ], ([encoded]) => {
    const decoded = decodePlan(encoded)
    decoded.transactions.forEach((stage, i) => {
      const wire = encoded.transactions[i]!
      assert.strictEqual(stage.lifetime.lastValidBlockHeight, BigInt(wire.lifetime.lastValidBlockHeight))
      assert.strictEqual(stage.budget.priorityFee.amount, BigInt(wire.budget.priorityFee.amount))
      assert.strictEqual(typeof stage.budget.priorityFee.amount, "bigint")
    })
    assert.deepStrictEqual(Schema.encodeSync(Plan.TransactionPlan)(decoded), encoded)
  })

  it.prop("the priority-fee unit must match the stage format", [
    dagDependencies(6).filter((deps) => deps.length > 0).chain((deps) =>
      fc.tuple(encodedPlan(deps, "v1"), fc.nat(deps.length - 1), fc.constantFrom("v0" as const, "v1" as const))
    )
  ], ([[encoded, i, format]]) => {
    const other = format === "v1" ? Plan.priorityFeeUnit.v0 : Plan.priorityFeeUnit.v1
    const transactions = encoded.transactions.map((stage, j) =>
      j === i
        ? { ...stage, format, budget: { ...stage.budget, priorityFee: { ...stage.budget.priorityFee, unit: other } } }
        : stage
    )
    assertInvalid(
      Plan.TransactionPlan,
      { encoded: { ...encoded, transactions } },
      `transactions[${i}].budget.priorityFee.unit`,
      Plan.rules.priorityFeeUnit
    )
  })

  it.prop("contractVersion other than 1, a bad height or a bad hash is rejected at its field", [
    dagDependencies(4).filter((deps) => deps.length > 0).chain((deps) => encodedPlan(deps)),
    fc.integer().filter((n) => n !== 1)
  ], ([encoded, version]) => {
    const field = (input: unknown) =>
      Either.getLeft(Schema.decodeUnknownEither(Plan.TransactionPlan, { errors: "first" })(input))
    assert.isTrue(
      Either.isLeft(Schema.decodeUnknownEither(Plan.TransactionPlan)({ ...encoded, contractVersion: version }))
    )
    const stage = encoded.transactions[0]!
    const withStage = (patch: object) => ({
      ...encoded,
      transactions: [{ ...stage, ...patch }, ...encoded.transactions.slice(1)]
    })
    assertInvalid(
      Plan.TransactionPlan,
      { encoded: withStage({ lifetime: { ...stage.lifetime, lastValidBlockHeight: "-1" } }) },
      "transactions[0].lifetime.lastValidBlockHeight",
      "must be an integer from 0 to 2^64-1, written in canonical decimal"
    )
    assertInvalid(
      Plan.TransactionPlan,
      { encoded: withStage({ messageSha256: stage.messageSha256.toUpperCase() + "0" }) },
      "transactions[0].messageSha256",
      "must be 64 lowercase hex digits"
    )
    assert.isTrue(field(withStage({ encoding: "base58" }))._tag === "Some")
    assert.isTrue(field(withStage({ transaction: "not base64!" }))._tag === "Some")
  })

  it("readiness keeps unknown fields", () => {
    const readiness = { status: "setup_required", lookupTable: "x", warmupSlots: 2 }
    assert.deepStrictEqual(
      Schema.encodeSync(Plan.Readiness)(Schema.decodeUnknownSync(Plan.Readiness)(readiness)),
      readiness
    )
  })

  it.prop("a plan round-trips through the createPlan envelope", [
    dagDependencies(10).chain((deps) => encodedPlan(deps))
  ], ([encoded]) => {
    const text = JSON.stringify({ success: true, response: encoded })
    const decoded = Envelope.decode(planSchema, text, { status: 200, operation: "claims.createPlan" })
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    assert.deepStrictEqual(JSON.parse(JSON.stringify(Schema.encodeSync(planSchema)(decoded.right))), JSON.parse(text))
  })
})

describe("Plan.validate", () => {
  it.prop("plans whose dependencies point to earlier stages are valid", [plan(30)], ([{ plan }]) => {
    assert.deepStrictEqual(Plan.validate(plan), Either.right(plan))
  })

  it.prop("each violation names the stage and the rule", [
    plan(12).filter(({ deps }) => deps.length >= 2).chain((p) =>
      fc.tuple(
        fc.constant(p),
        fc.integer({ min: 1, max: p.deps.length - 1 }),
        fc.constantFrom("duplicate" as const, "self" as const, "later" as const, "unknown" as const)
      )
    )
  ], ([[{ plan }, i, kind]]) => {
    const stages = [...plan.transactions]
    // "later": stage i-1 depends on stage i; otherwise stage i is broken
    const target = kind === "later" ? i - 1 : i
    const stage = stages[target]!
    stages[target] = kind === "duplicate"
      ? { ...stage, id: stages[i - 1]!.id }
      : kind === "self"
      ? { ...stage, dependsOn: [...stage.dependsOn, stage.id] }
      : kind === "later"
      ? { ...stage, dependsOn: [...stage.dependsOn, stages[i]!.id] }
      : { ...stage, dependsOn: [...stage.dependsOn, "nowhere"] }
    const rule = {
      duplicate: Plan.rules.duplicateId,
      self: Plan.rules.selfDependency,
      later: Plan.rules.laterDependency,
      unknown: Plan.rules.unknownDependency
    }[kind]
    const result = Plan.validate({ ...plan, transactions: stages })
    if (Either.isRight(result)) return assert.fail(`${kind} accepted`)
    const blamed = stages[target]!.id
    assert.deepInclude(result.left.violations, { stage: blamed, rule })
    // only the broken stage is blamed (a renamed stage also orphans its dependents)
    for (const violation of result.left.violations) {
      if (violation.stage !== blamed) {
        assert.isTrue(kind === "duplicate" && violation.rule === Plan.rules.unknownDependency)
      }
    }
    assert.include(result.left.message, `stage ${stages[target]!.id}: ${rule}`)
  })

  it("empty transactions only with readiness setup_required", () => {
    assert.isTrue(Either.isRight(Plan.validate({ transactions: [], readiness: { status: Plan.setupRequired } })))
    const result = Plan.validate({ transactions: [], readiness: { status: "ready" } })
    assert.deepStrictEqual(Either.getLeft(result).pipe((o) => o._tag === "Some" ? o.value.violations : []), [{
      stage: "",
      rule: Plan.rules.emptyTransactions
    }])
  })
})

describe("Plan.schedule", () => {
  it.prop("offers only stages whose dependencies landed, never skips an unsubmitted stage, and finishes every stage", [
    plan(25),
    fc.infiniteStream(fc.nat())
  ], ([{ plan }, choices]) => {
    const submitted = new Set<string>()
    const landed = new Set<string>()
    const ids = plan.transactions.map((s) => s.id)
    const random = choices[Symbol.iterator]()
    const next = (n: number) => random.next().value! % n
    for (let step = 0; step <= 2 * ids.length + 1; step++) {
      if (Plan.isComplete(plan, { submitted, landed })) break
      const offered = Plan.schedule(plan, { submitted, landed })
      // invariants
      offered.forEach((stage, k) => {
        assert.isFalse(submitted.has(stage.id), "offers a submitted stage")
        for (const dependency of stage.dependsOn) {
          assert.isTrue(landed.has(dependency), `offers ${stage.id} before ${dependency} landed`)
        }
        const position = ids.indexOf(stage.id)
        for (const earlier of ids.slice(0, position)) {
          assert.isTrue(
            submitted.has(earlier) || offered.slice(0, k).some((s) => s.id === earlier),
            `offers ${stage.id} ahead of unsubmitted ${earlier}`
          )
        }
      })
      const inFlight = [...submitted].filter((id) => !landed.has(id))
      if (offered.length > 0 && (inFlight.length === 0 || next(2) === 0)) {
        // submit a non-empty prefix of what is offered
        for (const stage of offered.slice(0, 1 + next(offered.length))) submitted.add(stage.id)
      } else if (inFlight.length > 0) {
        landed.add(inFlight[next(inFlight.length)]!)
      } else {
        return assert.fail(`stuck: nothing offered, nothing in flight, ${landed.size}/${ids.length} landed`)
      }
    }
    assert.isTrue(Plan.isComplete(plan, { submitted, landed }), "did not finish")
    assert.strictEqual(landed.size, ids.length)
  })

  it.prop("the offer is exactly the longest ready run from the first unsubmitted stage", [
    plan(15).chain((p) => fc.tuple(fc.constant(p), fc.nat(p.deps.length))),
    fc.infiniteStream(fc.boolean())
  ], ([[{ plan }, cut], coin]) => {
    // everything before `cut` submitted, a random part of it landed
    const ids = plan.transactions.map((s) => s.id)
    const flips = coin[Symbol.iterator]()
    const submitted = new Set(ids.slice(0, cut))
    const landed = new Set(ids.slice(0, cut).filter(() => flips.next().value === true))
    const offered = Plan.schedule(plan, { submitted, landed }).map((s) => s.id)
    const expected: Array<string> = []
    for (const stage of plan.transactions.slice(cut)) {
      if (!stage.dependsOn.every((d) => landed.has(d))) break
      expected.push(stage.id)
    }
    assert.deepStrictEqual(offered, expected)
  })
})

describe("Plan.depth", () => {
  it.prop("equals the longest dependency chain", [plan(30)], ([{ deps, plan }]) => {
    assert.strictEqual(Plan.depth(plan), referenceDepth(deps))
  })

  it("a chain, a fan and the empty plan", () => {
    assert.strictEqual(referenceDepth([[], [0], [1], [2]]), 4)
    assert.strictEqual(referenceDepth([[], [0], [0], [0]]), 2)
    assert.strictEqual(Plan.depth({ transactions: [] }), 0)
  })
})

describe("large plans", () => {
  it("a 100-stage plan decodes correctly through the createPlan envelope", () => {
    const deps = Array.from({ length: 100 }, (_, i) => (i === 0 ? [] : [i - 1, ...(i > 10 ? [i - 10] : [])]))
    const [encoded] = fc.sample(encodedPlan(deps, "v0"), { seed: 100, numRuns: 1 })
    if (encoded === undefined) return assert.fail("no sample")
    const decoded = Envelope.decode(planSchema, JSON.stringify({ success: true, response: encoded }), {
      status: 200,
      operation: "claims.createPlan"
    })
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    assert.strictEqual(decoded.right.transactions.length, 100)
    assert.deepStrictEqual(decoded.right.transactions.map((s) => s.id), deps.map((_, i) => `s${i}`))
    assert.deepStrictEqual(decoded.right.transactions[99]!.dependsOn, ["s98", "s89"])
    assert.strictEqual(
      decoded.right.transactions[42]!.lifetime.lastValidBlockHeight,
      BigInt(encoded.transactions[42]!.lifetime.lastValidBlockHeight)
    )
    assert.isTrue(Either.isRight(Plan.validate(decoded.right)))
    assert.strictEqual(Plan.depth(decoded.right), 100)
  })
})

describe("hostile plans", () => {
  it.prop("a valid plan with any node replaced by any JSON value never throws", [
    dagDependencies(5).chain((deps) => encodedPlan(deps)),
    fc.array(fc.nat(), { maxLength: 6 }),
    fc.jsonValue({ maxDepth: 2 })
  ], ([encoded, path, replacement]) => {
    const text = JSON.stringify({ success: true, response: mutate(encoded, path, replacement) })
    const result = Envelope.decode(planSchema, text, { status: 200, operation: "claims.createPlan" })
    if (Either.isLeft(result)) assert.strictEqual(result.left._tag, "UnexpectedResponse")
    else assert.doesNotThrow(() => Plan.validate(result.right))
  })
})
