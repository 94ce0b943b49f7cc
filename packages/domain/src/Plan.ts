/**
 * Claim plans: staged transactions with dependencies, and the pure rules for ordering them.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import { FeeLimit, TransactionFormat } from "./Claims.js"
import { KeepUnknown, NonEmptyText } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"
import { Base64Transaction } from "./WireTransaction.js"

/**
 * The only contract version this library understands.
 *
 * @since 0.1.0
 * @category constants
 */
export const contractVersion = 1

const Flow = Schema.Literal("dbc", "damm_v2_direct")

/**
 * What the plan does, discriminated by `kind`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Operation = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("config"), baseMint: Schema.String, flow: Flow }),
  Schema.Struct({ kind: Schema.Literal("manager_update"), baseMint: Schema.String, flow: Flow }),
  Schema.Struct({ kind: Schema.Literal("launch"), baseMint: Schema.String, flow: Flow }),
  Schema.Struct({
    kind: Schema.Literal("holding_claim"),
    baseMint: Schema.String,
    wallet: Schema.String,
    authority: Schema.String
  }),
  Schema.Struct({ kind: Schema.Literal("position_claim"), baseMint: Schema.String, wallet: Schema.String })
).annotations({ identifier: "Operation" })

/**
 * @since 0.1.0
 * @category models
 */
export type Operation = typeof Operation.Type

/**
 * The asset a plan pays out; `decimals` is null when not observable.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanAsset = Schema.Struct({
  mint: Schema.String,
  tokenProgram: Schema.String,
  decimals: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "PlanAsset" })

/**
 * Whether the transactions are ready, or a lookup table must first be set up.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Readiness = Schema.Struct({ status: Schema.String }, KeepUnknown).annotations({ identifier: "Readiness" })

/**
 * @since 0.1.0
 * @category models
 */
export type Readiness = typeof Readiness.Type

/**
 * The readiness status that asks for `lookup_table_setup` stages to land first.
 *
 * @since 0.1.0
 * @category constants
 */
export const setupRequired = "setup_required"

/**
 * @since 0.1.0
 * @category schemas
 */
export const StageKind = Schema.Literal("config", "claim", "manager_update", "launch", "lookup_table_setup")

/**
 * @since 0.1.0
 * @category models
 */
export type StageKind = typeof StageKind.Type

/**
 * The priority-fee unit each format uses.
 *
 * @since 0.1.0
 * @category constants
 */
export const priorityFeeUnit = {
  v1: "total_lamports",
  v0: "micro_lamports_per_compute_unit"
} as const

/**
 * @since 0.1.0
 * @category schemas
 */
export const PriorityFee = Schema.Struct({
  unit: Schema.Literal(priorityFeeUnit.v1, priorityFeeUnit.v0),
  amount: RawAmount
}).annotations({ identifier: "PriorityFee" })

const U32 = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff, {
    message: () => "must be an integer from 0 to 2^32-1"
  })
)

/**
 * @since 0.1.0
 * @category schemas
 */
export const Budget = Schema.Struct({
  computeUnitLimit: U32,
  loadedAccountsDataSizeLimit: U32,
  priorityFee: PriorityFee
}).annotations({ identifier: "Budget" })

/**
 * @since 0.1.0
 * @category models
 */
export type Budget = typeof Budget.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const Lifetime = Schema.Struct({
  blockhash: PublicKey,
  lastValidBlockHeight: RawAmount
}).annotations({ identifier: "Lifetime" })

/**
 * @since 0.1.0
 * @category schemas
 */
export const Size = Schema.Struct({
  bytes: Schema.NonNegativeInt,
  accounts: Schema.NonNegativeInt,
  signatures: Schema.NonNegativeInt
}).annotations({ identifier: "Size" })

/**
 * Hex SHA-256 (64 lowercase hex digits).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Sha256Hex = Schema.String.pipe(
  Schema.filter((text) => /^[0-9a-f]{64}$/.test(text), { message: () => "must be 64 lowercase hex digits" })
)

/**
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  priorityFeeUnit: "priorityFee.unit must be total_lamports for v1 and micro_lamports_per_compute_unit for v0",
  duplicateId: "stage ids must be unique",
  selfDependency: "a stage must not depend on itself",
  laterDependency: "dependsOn must name an earlier stage",
  unknownDependency: "dependsOn must name a stage of the plan",
  emptyTransactions: "transactions may be empty only when readiness.status is setup_required"
} as const

/**
 * One transaction of a plan, with everything needed to verify it before signing.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Stage = Schema.Struct({
  id: NonEmptyText,
  kind: StageKind,
  dependsOn: Schema.Array(Schema.String),
  format: TransactionFormat,
  encoding: Schema.Literal("base64"),
  transaction: Base64Transaction,
  messageSha256: Sha256Hex,
  requiredSigners: Schema.Array(PublicKey),
  lifetime: Lifetime,
  budget: Budget,
  size: Size
}).pipe(
  Schema.filter((stage) =>
    stage.budget.priorityFee.unit === priorityFeeUnit[stage.format] ||
    { path: ["budget", "priorityFee", "unit"], message: rules.priorityFeeUnit }
  ),
  Schema.annotations({ identifier: "Stage" })
)

/**
 * @since 0.1.0
 * @category models
 */
export type Stage = typeof Stage.Type

/**
 * The claim plan: ordered stages, the asset, the limits applied, and readiness.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionPlan = Schema.Struct({
  contractVersion: Schema.Literal(contractVersion),
  operation: Operation,
  asset: PlanAsset,
  feeLimits: Schema.Array(FeeLimit),
  transactions: Schema.Array(Stage),
  readiness: Readiness
}).annotations({ identifier: "TransactionPlan" })

/**
 * @since 0.1.0
 * @category models
 */
export type TransactionPlan = typeof TransactionPlan.Type

/**
 * One broken ordering rule, naming the stage.
 *
 * @since 0.1.0
 * @category errors
 */
export const Violation = Schema.Struct({ stage: Schema.String, rule: Schema.String })

/**
 * @since 0.1.0
 * @category errors
 */
export type Violation = typeof Violation.Type

/**
 * A plan that breaks the ordering rules; every violation is listed.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidPlan extends Schema.TaggedError<InvalidPlan>()("InvalidPlan", {
  violations: Schema.Array(Violation),
  message: Schema.String
}) {}

/**
 * Every broken rule of a plan: unique ids; every `dependsOn` names an earlier stage (so the
 * given order is a topological order); no self-dependency; empty `transactions` only with
 * `readiness.status = setup_required`.
 *
 * @since 0.1.0
 * @category rules
 */
export const violations = (plan: Pick<TransactionPlan, "transactions" | "readiness">): ReadonlyArray<Violation> => {
  const found: Array<Violation> = []
  const all = new Set(plan.transactions.map((stage) => stage.id))
  const earlier = new Set<string>()
  for (const stage of plan.transactions) {
    if (earlier.has(stage.id)) found.push({ stage: stage.id, rule: rules.duplicateId })
    for (const dependency of stage.dependsOn) {
      if (dependency === stage.id) found.push({ stage: stage.id, rule: rules.selfDependency })
      else if (earlier.has(dependency)) continue
      else if (all.has(dependency)) found.push({ stage: stage.id, rule: rules.laterDependency })
      else found.push({ stage: stage.id, rule: rules.unknownDependency })
    }
    earlier.add(stage.id)
  }
  if (plan.transactions.length === 0 && plan.readiness.status !== setupRequired) {
    found.push({ stage: "", rule: rules.emptyTransactions })
  }
  return found
}

/**
 * The plan itself when it follows every ordering rule, `InvalidPlan` otherwise.
 *
 * @since 0.1.0
 * @category rules
 */
export const validate = <P extends Pick<TransactionPlan, "transactions" | "readiness">>(
  plan: P
): Either.Either<P, InvalidPlan> => {
  const found = violations(plan)
  return found.length === 0 ? Either.right(plan) : Either.left(
    new InvalidPlan({
      violations: found,
      message: found.map((v) => v.stage === "" ? v.rule : `stage ${v.stage}: ${v.rule}`).join("; ")
    })
  )
}

/**
 * Submission state of a plan's stages. A landed stage counts as submitted.
 *
 * @since 0.1.0
 * @category models
 */
export interface Progress {
  readonly submitted: ReadonlySet<string>
  readonly landed: ReadonlySet<string>
}

/**
 * The stages that may be submitted now: the longest run of not-yet-submitted stages that
 * starts at the first one in the given order and whose `dependsOn` have all landed.
 * Submission never skips ahead of an unsubmitted earlier stage.
 *
 * @since 0.1.0
 * @category rules
 */
export const schedule = (plan: Pick<TransactionPlan, "transactions">, progress: Progress): ReadonlyArray<Stage> => {
  const ready: Array<Stage> = []
  let started = false
  for (const stage of plan.transactions) {
    const submitted = progress.submitted.has(stage.id) || progress.landed.has(stage.id)
    if (!started) {
      if (submitted) continue
      started = true
    }
    if (submitted || !stage.dependsOn.every((id) => progress.landed.has(id))) break
    ready.push(stage)
  }
  return ready
}

/**
 * The number of stages on the longest dependency chain (0 for an empty plan).
 *
 * @since 0.1.0
 * @category rules
 */
export const depth = (plan: Pick<TransactionPlan, "transactions">): number => {
  const depths = new Map<string, number>()
  let deepest = 0
  for (const stage of plan.transactions) {
    let own = 1
    for (const id of stage.dependsOn) own = Math.max(own, (depths.get(id) ?? 0) + 1)
    depths.set(stage.id, own)
    deepest = Math.max(deepest, own)
  }
  return deepest
}

/**
 * `true` when every stage of the plan has landed.
 *
 * @since 0.1.0
 * @category rules
 */
export const isComplete = (plan: Pick<TransactionPlan, "transactions">, progress: Progress): boolean =>
  plan.transactions.every((stage) => progress.landed.has(stage.id))
