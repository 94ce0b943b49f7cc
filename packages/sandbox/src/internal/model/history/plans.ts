/**
 * The claim plans the service served, and each stage's state: `built`, `landed`, `failed`,
 * `expired` (past its last valid block height) or `superseded` (a later plan for the same
 * operation and wallet was built before it landed). A stage is known by the SHA-256 of its
 * message, so it is recognised whoever signed it.
 */
import type { Plan } from "@feeshare/domain"
import { getBase64Encoder } from "@solana/kit"
import { messageSha256 } from "../ledger/wire.js"
import { limits, type PlanEntry, type StageState } from "./models.js"
import { push, remember } from "./rings.js"
import { type Kind, messageOf } from "./transactions.js"

const base64 = getBase64Encoder()

interface StageRecord {
  readonly planId: number
  readonly stage: Plan.Stage
  readonly computedSha256: string | undefined
  landed: { readonly signature: string; readonly failed: boolean } | undefined
  superseded: boolean
}

interface PlanRecord {
  readonly id: number
  readonly at: number
  readonly plan: Plan.TransactionPlan
  readonly wallet: string
  readonly tampered: string | null
  readonly stages: ReadonlyArray<StageRecord>
}

const stateOf = (record: StageRecord, blockHeight: bigint): StageState =>
  record.landed !== undefined
    ? (record.landed.failed ? "failed" : "landed")
    : record.superseded
    ? "superseded"
    : blockHeight > BigInt(record.stage.lifetime.lastValidBlockHeight)
    ? "expired"
    : "built"

const entryOf = (record: PlanRecord, blockHeight: bigint): PlanEntry => ({
  id: record.id,
  at: record.at,
  operation: record.plan.operation.kind,
  baseMint: record.plan.operation.baseMint,
  wallet: record.wallet,
  readiness: record.plan.readiness.status,
  tampered: record.tampered,
  stages: record.stages.map((stageRecord) => {
    const stage = stageRecord.stage
    return {
      id: stage.id,
      kind: stage.kind,
      dependsOn: stage.dependsOn,
      format: String(stage.format),
      messageSha256: stage.messageSha256,
      requiredSigners: stage.requiredSigners,
      lastValidBlockHeight: stage.lifetime.lastValidBlockHeight.toString(),
      computeUnitLimit: stage.budget.computeUnitLimit,
      bytes: stage.size.bytes,
      state: stateOf(stageRecord, blockHeight),
      signature: stageRecord.landed?.signature ?? null
    }
  })
})

/** The served plans of one history. */
export interface Plans {
  /** Records a served plan at `at` (its stages by their messages' hashes); a rebuild supersedes the earlier plans' stages. */
  readonly record: (plan: Plan.TransactionPlan, wallet: string, tampered: string | null, at: number) => void
  /** A transaction whose message hashes to `sha256` landed: its stage's kind, when it is one (the first landing counts). */
  readonly landed: (sha256: string, signature: string, failed: boolean) => Kind | undefined
  /** Every plan kept, newest first, with its stages' states as of `blockHeight`. */
  readonly entries: (blockHeight: bigint) => ReadonlyArray<PlanEntry>
}

/** No plans yet. */
export const make = (): Plans => {
  const plans: Array<PlanRecord> = []
  let nextPlan = 1
  // message SHA-256 -> the stage (insertion order: the oldest go first)
  const stages = new Map<string, StageRecord>()

  const record = (served: Plan.TransactionPlan, wallet: string, tampered: string | null, at: number): void => {
    const operation = served.operation
    const key = `${operation.kind}|${operation.baseMint}|${wallet}`
    // a rebuild: the stages of earlier plans for the same operation that never landed
    for (const earlier of plans) {
      if (`${earlier.plan.operation.kind}|${earlier.plan.operation.baseMint}|${earlier.wallet}` !== key) continue
      for (const stage of earlier.stages) if (stage.landed === undefined) stage.superseded = true
    }
    const id = nextPlan++
    const records = served.transactions.map((stage): StageRecord => {
      const message = messageOf(new Uint8Array(base64.encode(stage.transaction)))
      return {
        planId: id,
        stage,
        computedSha256: message === undefined ? undefined : messageSha256(message),
        landed: undefined,
        superseded: false
      }
    })
    for (const stage of records) {
      if (stage.computedSha256 !== undefined) remember(stages, stage.computedSha256, stage, limits.served)
    }
    push(plans, { id, at, plan: served, wallet, tampered, stages: records }, limits.plans)
  }

  const landed = (sha256: string, signature: string, failed: boolean): Kind | undefined => {
    const stage = stages.get(sha256)
    if (stage === undefined) return undefined
    if (stage.landed === undefined) stage.landed = { signature, failed }
    return { kind: "claim stage", label: `${stage.stage.id} (${stage.stage.kind}) of plan #${stage.planId}` }
  }

  return {
    record,
    landed,
    entries: (blockHeight) => [...plans].reverse().map((plan) => entryOf(plan, blockHeight))
  }
}
