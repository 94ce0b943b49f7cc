// End to end on a real SVM (LiteSVM): plans built and partially signed by a "service" key,
// co-signed by the caller, executed through the Chain port; balances checked on the ledger.
import { assert, describe, it } from "@effect/vitest"
import type { Plan } from "@feeshare/domain"
import {
  findAddressLookupTablePda,
  getCreateLookupTableInstructionAsync,
  getExtendLookupTableInstruction
} from "@solana-program/address-lookup-table"
import {
  type Address,
  createNoopSigner,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  lamports
} from "@solana/kit"
import { Effect, Layer } from "effect"
import { LiteSVM } from "litesvm"
import * as Chain from "../src/Chain.js"
import * as LocalSigner from "../src/LocalSigner.js"
import * as PlanExecutor from "../src/PlanExecutor.js"
import * as Signers from "../src/Signers.js"
import * as LiteSvmChain from "./helpers/LiteSvmChain.js"
import { buildStage, plan, type StageSpec, transfer } from "./helpers/StageBuilder.js"

interface World {
  readonly svm: LiteSVM
  readonly service: KeyPairSigner
  readonly caller: KeyPairSigner
  readonly recipients: ReadonlyArray<Address>
}

const world = (recipients: number) =>
  Effect.promise(async (): Promise<World> => {
    const svm = new LiteSVM()
    const [service, caller] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    svm.airdrop(service.address, lamports(10_000_000_000n))
    svm.airdrop(caller.address, lamports(10_000_000_000n))
    const list: Array<Address> = []
    for (let i = 0; i < recipients; i++) list.push((await generateKeyPairSigner()).address)
    return { svm, service, caller, recipients: list }
  })

const balance = (svm: LiteSVM, address: Address): bigint => svm.getBalance(address) ?? 0n

const stageOf = (w: World, spec: Omit<StageSpec, "feePayer" | "lifetime">) =>
  Effect.promise(() =>
    buildStage({
      ...spec,
      feePayer: w.service,
      lifetime: { blockhash: w.svm.latestBlockhash(), lastValidBlockHeight: 10_000n }
    })
  )

/** The lookup-table setup stage: the service's key is the authority, the caller pays the rent. */
const lookupTableSetup = (w: World, format: "v0" | "v1") =>
  Effect.gen(function*() {
    const recentSlot = w.svm.getClock().slot
    const [table] = yield* Effect.promise(() => findAddressLookupTablePda({ authority: w.service.address, recentSlot }))
    const payer = createNoopSigner(w.caller.address)
    const create = yield* Effect.promise(() =>
      getCreateLookupTableInstructionAsync({ authority: w.service.address, payer, recentSlot })
    )
    const extend = getExtendLookupTableInstruction({
      address: table,
      authority: w.service,
      payer,
      addresses: [...w.recipients]
    })
    const stage = yield* stageOf(w, {
      id: "lookup-table",
      kind: "lookup_table_setup",
      format,
      instructions: [create as Instruction, extend as Instruction]
    })
    return { table, stage }
  })

const run = (w: World, first: Plan.TransactionPlan, rebuild: () => Effect.Effect<Plan.TransactionPlan>) => {
  const chain = LiteSvmChain.make(w.svm)
  return PlanExecutor.execute(first, { rebuild, warmupInterval: "10 millis", commitment: "finalized" }).pipe(
    Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
    Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(w.caller))),
    Effect.map((result) => ({ result, chain }))
  )
}

describe("PlanExecutor on LiteSVM", () => {
  it.live("v0: lookup-table setup, warm-up, then a DAG of stages (one compressed by the table)", () =>
    Effect.gen(function*() {
      const w = yield* world(25)
      const extra = (yield* Effect.promise(() => generateKeyPairSigner())).address
      const { stage: setup, table } = yield* lookupTableSetup(w, "v0")
      const callerBefore = balance(w.svm, w.caller.address)
      const each = 1_000_000n
      let rebuilds = 0
      const rebuild = () =>
        Effect.gen(function*() {
          rebuilds++
          if (rebuilds === 1) return plan([], "setup_required") // still warming up
          const stages = [
            yield* stageOf(w, {
              id: "config",
              kind: "config",
              format: "v0",
              instructions: [transfer(w.caller.address, w.service.address, 5_000n)]
            }),
            yield* stageOf(w, {
              id: "claim-a",
              dependsOn: ["config"],
              format: "v0",
              instructions: w.recipients.map((r) => transfer(w.caller.address, r, each)),
              lookupTables: { [table]: [...w.recipients] }
            }),
            yield* stageOf(w, {
              id: "claim-b",
              dependsOn: ["config"],
              format: "v0",
              instructions: [transfer(w.caller.address, extra, 2_000_000n)]
            }),
            yield* stageOf(w, {
              id: "manager",
              kind: "manager_update",
              dependsOn: ["claim-a", "claim-b"],
              format: "v0",
              instructions: [transfer(w.caller.address, w.service.address, 7_000n)]
            })
          ]
          const compressed = stages[1]!
          assert.isAbove(compressed.size.accounts, 25) // static + lookup accounts
          assert.isBelow(compressed.size.bytes, 1232)
          return plan(stages)
        })
      const { chain, result } = yield* run(w, plan([setup], "setup_required"), rebuild)
      assert.deepStrictEqual(result.stages.map((s) => s.id).slice(0, 2), ["lookup-table", "config"])
      assert.sameMembers(result.stages.map((s) => s.id), ["lookup-table", "config", "claim-a", "claim-b", "manager"])
      assert.strictEqual(result.stages[result.stages.length - 1]!.id, "manager")
      assert.strictEqual(rebuilds, 2)
      for (const r of w.recipients) assert.strictEqual(balance(w.svm, r), each)
      assert.strictEqual(balance(w.svm, extra), 2_000_000n)
      const rent = balance(w.svm, table)
      assert.isAbove(Number(rent), 0)
      // the caller paid the transfers and the table's rent; the service paid every fee
      assert.strictEqual(callerBefore - balance(w.svm, w.caller.address), 25n * each + 2_000_000n + 12_000n + rent)
      assert.isTrue(chain.sends.every((s) => s.first), "no stage sent twice")
    }))

  it.live("v1: setup stage, then a diamond of v1 stages with budgets in the config", () =>
    Effect.gen(function*() {
      const w = yield* world(6)
      const { stage: setup } = yield* lookupTableSetup(w, "v1")
      const callerBefore = balance(w.svm, w.caller.address)
      const serviceBefore = balance(w.svm, w.service.address)
      const budget = { computeUnitLimit: 100_000, loadedAccountsDataSizeLimit: 256 * 1024, priorityFee: 3_000n }
      const rebuild = () =>
        Effect.gen(function*() {
          const pay = (from: number, to: number) =>
            w.recipients.slice(from, to).map((r) => transfer(w.caller.address, r, 1_500_000n))
          return plan([
            yield* stageOf(w, { id: "a", format: "v1", budget, instructions: pay(0, 3) }),
            yield* stageOf(w, { id: "b", format: "v1", budget, dependsOn: ["a"], instructions: pay(3, 4) }),
            yield* stageOf(w, { id: "c", format: "v1", budget, dependsOn: ["a"], instructions: pay(4, 5) }),
            yield* stageOf(w, { id: "d", format: "v1", budget, dependsOn: ["b", "c"], instructions: pay(5, 6) })
          ])
        })
      const { result } = yield* run(w, plan([setup], "setup_required"), rebuild)
      assert.deepStrictEqual(result.stages.map((s) => s.id).slice(0, 2), ["lookup-table", "a"])
      assert.strictEqual(result.stages[4]!.id, "d")
      for (const r of w.recipients) assert.strictEqual(balance(w.svm, r), 1_500_000n)
      assert.strictEqual(result.stages.length, 5)
      // v1 fee: 5000 per signature + the total priority fee, paid by the fee payer (the service)
      const fees = serviceBefore - balance(w.svm, w.service.address)
      assert.strictEqual(fees, 4n * (2n * 5_000n + 3_000n) + 2n * 5_000n)
      const rent = callerBefore - balance(w.svm, w.caller.address) - 6n * 1_500_000n
      assert.isAbove(Number(rent), 0)
      // slots are increasing along every dependency
      const slot = new Map(result.stages.map((s) => [s.id, s.slot]))
      assert.isTrue(slot.get("a")! < slot.get("b")! && slot.get("a")! < slot.get("c")!)
      assert.isTrue(slot.get("b")! < slot.get("d")! && slot.get("c")! < slot.get("d")!)
    }))
})
