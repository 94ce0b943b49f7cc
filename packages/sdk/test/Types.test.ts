// The facade's types are the Effect client's, with `CallOptions` appended and a Promise
// instead of an Effect (checked by the type checker; `tsc -b` runs over the tests).
import type { FeeShareClient } from "@feeshare/client/FeeShareClient"
import type { Effect } from "effect"
import type {
  CallOptions,
  ClaimPlanRequest,
  Credential,
  FeeShare,
  Landed,
  PlanExecution,
  PlanResult,
  Pong,
  PoolEntry,
  PoolsQuery,
  RateLimitInfo,
  SignerInput,
  SwapResult,
  TransactionPlan
} from "feeshare"
import { describe, expectTypeOf, it } from "vitest"

type Client = FeeShareClient.Service
type Success<T> = T extends (...args: ReadonlyArray<never>) => Effect.Effect<infer A, infer _E, infer _R> ? A : never

describe("types", () => {
  it("a method takes the client's input then CallOptions, and resolves with the client's success", () => {
    expectTypeOf<FeeShare["claims"]["createPlan"]>().parameters.toEqualTypeOf<
      [input: ClaimPlanRequest, options?: CallOptions]
    >()
    expectTypeOf<FeeShare["claims"]["createPlan"]>().returns.toEqualTypeOf<Promise<TransactionPlan>>()
    expectTypeOf<FeeShare["analytics"]["pools"]>().parameters.toEqualTypeOf<
      [input?: PoolsQuery, options?: CallOptions]
    >()
    expectTypeOf<FeeShare["analytics"]["pools"]>().returns.toEqualTypeOf<Promise<ReadonlyArray<PoolEntry>>>()
    expectTypeOf<FeeShare["evm"]["creationFee"]>().parameters.toEqualTypeOf<[options?: CallOptions]>()
    expectTypeOf<FeeShare["trade"]["swap"]>().returns.toEqualTypeOf<Promise<SwapResult>>()
    expectTypeOf<FeeShare["trade"]["quote"]>().returns.toEqualTypeOf<Promise<Success<Client["trade"]["quote"]>>>()
    expectTypeOf<FeeShare["identity"]["me"]>().returns.toEqualTypeOf<Promise<Success<Client["identity"]["me"]>>>()
    expectTypeOf<FeeShare["ping"]>().returns.toEqualTypeOf<Promise<Pong>>()
  })

  it("login, executePlan, signAndSend and rateLimit", () => {
    expectTypeOf<FeeShare["login"]>().parameter(0).toEqualTypeOf<SignerInput>()
    expectTypeOf<FeeShare["login"]>().returns.toEqualTypeOf<Promise<Credential>>()
    expectTypeOf<FeeShare["agentAuth"]["login"]>().toEqualTypeOf<FeeShare["login"]>()
    expectTypeOf<FeeShare["executePlan"]>().returns.toEqualTypeOf<Promise<PlanExecution>>()
    expectTypeOf<PlanExecution>().toMatchTypeOf<PlanResult>()
    expectTypeOf<PlanExecution["paid"]>().toEqualTypeOf<bigint | undefined>()
    expectTypeOf<FeeShare["signAndSend"]["swap"]>().returns.toEqualTypeOf<Promise<Landed>>()
    expectTypeOf<FeeShare["signAndSend"]["partnerClaim"]>().returns.toEqualTypeOf<Promise<ReadonlyArray<Landed>>>()
    expectTypeOf<FeeShare["rateLimit"]>().returns.toEqualTypeOf<Promise<RateLimitInfo | undefined>>()
  })
})
