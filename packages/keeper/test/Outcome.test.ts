/**
 * The outcome rules, written once: which error ends a run as `fee-cap`, `refused` or `failed`,
 * and which kinds are failures.
 */
import { assert, describe, it } from "@effect/vitest"
import * as TransactionRefusal from "@feeshare/solana/TransactionRefusal"
import * as Claim from "../src/Claim.js"
import * as Outcome from "../src/Outcome.js"

describe("Outcome", () => {
  it("an error's kind: the fee cap, a refusal (verification or an invalid plan), else a failure", () => {
    const cap = new Claim.FeeCapReached({ spentLamports: 1n, neededLamports: 2n, capLamports: 2n, message: "cap" })
    const refusal = new TransactionRefusal.MessageHashMismatch({ stage: "claim", message: "the hash differs" })
    assert.strictEqual(Outcome.kindOfError(cap), "fee-cap")
    assert.strictEqual(Outcome.kindOfError(refusal), "refused")
    assert.strictEqual(Outcome.kindOfError({ _tag: "InvalidPlan" }), "refused")
    assert.strictEqual(Outcome.kindOfError({ _tag: "RateLimited" }), "failed")
    assert.deepStrictEqual(
      Outcome.fromError(refusal, 5000n),
      Outcome.make({ outcome: "refused", tag: "MessageHashMismatch", message: "the hash differs", fees: 5000n })
    )
  })

  it("failures are refused, failed and fee-cap", () => {
    assert.deepStrictEqual(
      Outcome.Kind.literals.filter(Outcome.isFailure),
      ["refused", "failed", "fee-cap"]
    )
  })
})
