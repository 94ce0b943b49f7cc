/**
 * What the sandbox did, for its explorer: the transactions that landed on the ledger (with
 * their kind, fee, compute units, logs, decoded instructions and error), the claim plans the
 * service served (each stage's state: built, landed, failed, expired or superseded by a
 * rebuild) and the last API requests (operation, status, latency, rate-limit headers, the key's
 * id: never the key). Every list is a bounded ring: the oldest entries go first.
 *
 * The ledger feeds the transactions (`Ledger.onLanded`); `tracked` wraps a `Market` so that the
 * transactions it hands out (launches, swaps, fee-share updates, partner claims) are
 * recognised when they land; the HTTP layer records the plans it serves and the requests.
 *
 * @since 0.1.0
 */
import type { Plan } from "@feeshare/domain"
import {
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder
} from "@solana/kit"
import { Context, Effect, Layer, Option } from "effect"
import { createHash } from "node:crypto"
import { Ledger, type TransactionRecord } from "./Ledger.js"
import { Market } from "./Market.js"

/**
 * How much the history keeps: the newest entries of each list, and the most of a
 * transaction's logs (lines, characters per line).
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = {
  transactions: 1_000,
  plans: 200,
  requests: 500,
  /** Messages of handed-out transactions remembered to name what lands. */
  served: 4_000,
  logLines: 60,
  logLineChars: 400
} as const

/**
 * An instruction of a transaction, decoded as far as the sandbox knows its program.
 *
 * @since 0.1.0
 * @category models
 */
export interface DecodedInstruction {
  readonly program: string
  /** `System`, `Token`, ... or the program id. */
  readonly programName: string
  /** `transfer`, `memo "..."`, ... or `data 0x...` (the first bytes). */
  readonly name: string
  readonly accounts: ReadonlyArray<string>
}

/**
 * A landed transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionEntry {
  readonly signature: string
  readonly slot: string
  readonly blockTime: number
  /** `launch`, `swap`, `claim stage`, `setup`, `airdrop`, `update-config`, `partner-claim`, or `other`. */
  readonly kind: string
  /** More about the kind: the stage id and plan, the memo. */
  readonly label: string
  readonly status: "success" | "failed"
  readonly fee: string
  readonly computeUnits: string
  readonly logs: ReadonlyArray<string>
  readonly instructions: ReadonlyArray<DecodedInstruction>
  /** The ledger's error of a failed transaction, as JSON-RPC reports it. */
  readonly error: string | null
}

/**
 * A stage's state: `built` (served, not landed), `landed`, `failed` (landed with an error),
 * `expired` (its blockhash is past its last valid block height), or `superseded` (a later plan
 * for the same operation was built before it landed).
 *
 * @since 0.1.0
 * @category models
 */
export type StageState = "built" | "landed" | "failed" | "expired" | "superseded"

/**
 * A stage of a served plan.
 *
 * @since 0.1.0
 * @category models
 */
export interface StageEntry {
  readonly id: string
  readonly kind: string
  readonly dependsOn: ReadonlyArray<string>
  readonly format: string
  readonly messageSha256: string
  readonly requiredSigners: ReadonlyArray<string>
  readonly lastValidBlockHeight: string
  readonly computeUnitLimit: number
  readonly bytes: number
  readonly state: StageState
  readonly signature: string | null
}

/**
 * A claim plan the service served.
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanEntry {
  readonly id: number
  readonly at: number
  readonly operation: string
  readonly baseMint: string
  readonly wallet: string
  readonly readiness: string
  /** The `--tamper` change made to it, when it was served tampered. */
  readonly tampered: string | null
  readonly stages: ReadonlyArray<StageEntry>
}

/**
 * An API request, as answered.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestEntry {
  readonly id: number
  readonly at: number
  readonly method: string
  readonly path: string
  readonly operation: string
  readonly status: number
  readonly latencyMillis: number
  /** The id of the API key that made it (never the key), when it carried a known one. */
  readonly keyId: string | null
  readonly rateLimit: { readonly limit: string; readonly remaining: string; readonly reset: string } | null
}

/**
 * A request to record (its id is given by the history).
 *
 * @since 0.1.0
 * @category models
 */
export type RequestInput = Omit<RequestEntry, "id">

/**
 * Everything the history holds, newest first, with the stages' states as of `blockHeight`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Snapshot {
  /** Grows with every change: the explorer refetches when it moves. */
  readonly version: number
  readonly transactions: ReadonlyArray<TransactionEntry>
  readonly plans: ReadonlyArray<PlanEntry>
  readonly requests: ReadonlyArray<RequestEntry>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class History extends Context.Tag("@feeshare/sandbox/History")<History, History.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace History {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Records a landed transaction (its wire, as the ledger keeps it). */
    readonly transaction: (record: LandedRecord) => void
    /** Remembers a transaction handed out (any wire encoding's bytes) as `kind`. */
    readonly served: (kind: string, label: string, wire: Uint8Array) => void
    /** Records a served claim plan (`tampered`: the `--tamper` change made to it). */
    readonly plan: (plan: Plan.TransactionPlan, wallet: string, tampered: string | null) => void
    /** Records an API request (operation, status, latency, key id, rate-limit headers). */
    readonly request: (request: RequestInput) => void
    /** The snapshot's version now: it grows with every change. */
    readonly version: () => number
    /** Everything recorded, with each stage's state as of `blockHeight`. */
    readonly snapshot: (blockHeight: bigint) => Snapshot
  }
}

/**
 * What the history reads of a landed transaction (a `Ledger.TransactionRecord`).
 *
 * @since 0.1.0
 * @category models
 */
export type LandedRecord = Pick<
  TransactionRecord,
  "signature" | "slot" | "blockTime" | "wire" | "fee" | "logs" | "computeUnitsConsumed" | "err"
>

const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()
const base58 = getBase58Encoder()
const base64 = getBase64Encoder()

const programNames: Readonly<Record<string, string>> = {
  "11111111111111111111111111111111": "System",
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: "Token",
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: "Token-2022",
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: "Associated Token",
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: "Memo",
  ComputeBudget111111111111111111111111111111: "Compute Budget",
  AddressLookupTab1e1111111111111111111111111: "Address Lookup Table"
}

const systemInstructions: Readonly<Record<number, string>> = {
  0: "createAccount",
  1: "assign",
  2: "transfer",
  3: "createAccountWithSeed",
  8: "allocate",
  11: "transferWithSeed"
}

const tokenInstructions: Readonly<Record<number, string>> = {
  0: "initializeMint",
  1: "initializeAccount",
  3: "transfer",
  7: "mintTo",
  8: "burn",
  9: "closeAccount",
  12: "transferChecked",
  17: "syncNative",
  18: "initializeAccount3",
  20: "initializeMint2",
  26: "transferFeeExtension"
}

const computeBudgetInstructions: Readonly<Record<number, string>> = {
  2: "setComputeUnitLimit",
  3: "setComputeUnitPrice",
  4: "setLoadedAccountsDataSizeLimit"
}

const lookupTableInstructions: Readonly<Record<number, string>> = { 0: "create", 2: "extend", 3: "deactivate", 4: "close" }

const hex = (bytes: Uint8Array, max: number): string =>
  Buffer.from(bytes.subarray(0, max)).toString("hex") + (bytes.length > max ? "…" : "")

const instructionName = (programName: string, data: Uint8Array): string => {
  const first = data[0]
  const named = (table: Readonly<Record<number, string>>, code: number | undefined) =>
    code === undefined ? undefined : table[code]
  const u32 = data.length >= 4 ? Buffer.from(data).readUInt32LE(0) : undefined
  const name = programName === "System"
    ? named(systemInstructions, u32)
    : programName === "Token" || programName === "Token-2022"
    ? named(tokenInstructions, first)
    : programName === "Compute Budget"
    ? named(computeBudgetInstructions, first)
    : programName === "Address Lookup Table"
    ? named(lookupTableInstructions, u32)
    : programName === "Memo"
    ? `memo ${JSON.stringify(Buffer.from(data.subarray(0, 120)).toString("utf8"))}`
    : programName === "Associated Token"
    ? (first === 1 ? "createIdempotent" : "create")
    : undefined
  return name ?? `data 0x${hex(data, 16)}`
}

/** The message bytes of a wire transaction, or undefined when it does not decode. */
const messageOf = (wire: Uint8Array): Uint8Array | undefined => {
  try {
    return new Uint8Array(transactionDecoder.decode(wire).messageBytes)
  } catch {
    return undefined
  }
}

const abbreviated = (address: string): string => `${address.slice(0, 4)}…${address.slice(-4)}`

const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const decodeInstructions = (message: Uint8Array): ReadonlyArray<DecodedInstruction> => {
  try {
    const compiled = messageDecoder.decode(message)
    // v1 messages lay their instructions out otherwise: shown by their logs only
    if (!("instructions" in compiled)) return []
    const keys: ReadonlyArray<string> = compiled.staticAccounts
    const account = (index: number) => keys[index] ?? `lookup #${index - keys.length}`
    return compiled.instructions.slice(0, 32).map((instruction) => {
      const program = account(instruction.programAddressIndex)
      const programName = programNames[program] ?? program
      return {
        program,
        programName,
        name: instructionName(programName, new Uint8Array(instruction.data ?? new Uint8Array())),
        accounts: (instruction.accountIndices ?? []).slice(0, 24).map(account)
      }
    })
  } catch {
    return []
  }
}

const memoPattern = /^Program log: Memo \(len \d+\)(?:: "(.*)")?$/
const logPrefix = "Program log: "

/** The text of each memo in the logs: `Memo (len N): "text"`, or `Memo (len N)` then the text on the next line. */
const memos = (logs: ReadonlyArray<string>): ReadonlyArray<string> =>
  logs.flatMap((line, i) => {
    const match = memoPattern.exec(line)
    if (match === null) return []
    if (match[1] !== undefined) return [match[1]]
    const next = logs[i + 1]
    return next?.startsWith(logPrefix) === true ? [next.slice(logPrefix.length)] : []
  })

/** The kind of a transaction the sandbox did not hand out, from its memo. */
const kindOfMemo = (logs: ReadonlyArray<string>): { readonly kind: string; readonly label: string } => {
  for (const memo of memos(logs)) {
    if (memo.startsWith("sandbox airdrop")) return { kind: "airdrop", label: memo }
    if (memo.startsWith("sandbox set-up")) return { kind: "setup", label: memo }
    if (memo.startsWith("feeshare:")) return { kind: memo.slice("feeshare:".length).split(" ")[0] ?? "other", label: memo }
  }
  return { kind: "other", label: "" }
}

const boundedLogs = (logs: ReadonlyArray<string>): ReadonlyArray<string> => {
  const kept = logs.slice(0, limits.logLines).map((line) =>
    line.length > limits.logLineChars ? `${line.slice(0, limits.logLineChars)}…` : line
  )
  return logs.length > limits.logLines ? [...kept, `… ${logs.length - limits.logLines} more lines`] : kept
}

/** Appends to a ring of at most `max` entries. */
const push = <A>(ring: Array<A>, entry: A, max: number): void => {
  ring.push(entry)
  if (ring.length > max) ring.splice(0, ring.length - max)
}

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

/**
 * A new, empty history.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (now: () => number = Date.now): History.Service => {
  let version = 0
  const transactions: Array<TransactionEntry> = []
  const plans: Array<PlanRecord> = []
  const requests: Array<RequestEntry> = []
  let nextPlan = 1
  let nextRequest = 1
  // message SHA-256 -> what handed it out (insertion order: the oldest go first)
  const served = new Map<string, { readonly kind: string; readonly label: string }>()
  const stages = new Map<string, StageRecord>()

  const remember = <V>(map: Map<string, V>, key: string, value: V): void => {
    map.delete(key)
    map.set(key, value)
    for (const oldest of map.keys()) {
      if (map.size <= limits.served) break
      map.delete(oldest)
    }
  }

  const transaction = (record: LandedRecord): void => {
    const message = messageOf(record.wire)
    const hash = message === undefined ? undefined : sha256Hex(message)
    const stage = hash === undefined ? undefined : stages.get(hash)
    const failed = record.err !== null
    if (stage !== undefined && stage.landed === undefined) {
      stage.landed = { signature: record.signature, failed }
    }
    const known = stage !== undefined
      ? { kind: "claim stage", label: `${stage.stage.id} (${stage.stage.kind}) of plan #${stage.planId}` }
      : hash === undefined
      ? undefined
      : served.get(hash)
    const { kind, label } = known ?? kindOfMemo(record.logs)
    push(transactions, {
      signature: record.signature,
      slot: record.slot.toString(),
      blockTime: record.blockTime,
      kind,
      label,
      status: failed ? "failed" : "success",
      fee: record.fee.toString(),
      computeUnits: record.computeUnitsConsumed.toString(),
      logs: boundedLogs(record.logs),
      instructions: message === undefined ? [] : decodeInstructions(message),
      error: failed ? JSON.stringify(record.err, (_, value) => typeof value === "bigint" ? value.toString() : value) : null
    }, limits.transactions)
    version++
  }

  const plan = (served: Plan.TransactionPlan, wallet: string, tampered: string | null): void => {
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
        computedSha256: message === undefined ? undefined : sha256Hex(message),
        landed: undefined,
        superseded: false
      }
    })
    for (const record of records) if (record.computedSha256 !== undefined) remember(stages, record.computedSha256, record)
    push(plans, { id, at: now(), plan: served, wallet, tampered, stages: records }, limits.plans)
    version++
  }

  const stateOf = (record: StageRecord, blockHeight: bigint): StageState =>
    record.landed !== undefined
      ? (record.landed.failed ? "failed" : "landed")
      : record.superseded
      ? "superseded"
      : blockHeight > BigInt(record.stage.lifetime.lastValidBlockHeight)
      ? "expired"
      : "built"

  return {
    transaction,
    served: (kind, label, wire) => {
      const message = messageOf(wire)
      if (message !== undefined) remember(served, sha256Hex(message), { kind, label })
    },
    plan,
    request: (input) => {
      push(requests, { id: nextRequest++, ...input }, limits.requests)
      version++
    },
    version: () => version,
    snapshot: (blockHeight) => ({
      version,
      transactions: [...transactions].reverse(),
      plans: [...plans].reverse().map((record): PlanEntry => ({
        id: record.id,
        at: record.at,
        operation: record.plan.operation.kind,
        baseMint: record.plan.operation.baseMint,
        wallet: record.wallet,
        readiness: record.plan.readiness.status,
        tampered: record.tampered,
        stages: record.stages.map(({ stage, ...rest }) => ({
          id: stage.id,
          kind: stage.kind,
          dependsOn: stage.dependsOn,
          format: String(stage.format),
          messageSha256: stage.messageSha256,
          requiredSigners: stage.requiredSigners,
          lastValidBlockHeight: stage.lifetime.lastValidBlockHeight.toString(),
          computeUnitLimit: stage.budget.computeUnitLimit,
          bytes: stage.size.bytes,
          state: stateOf({ stage, ...rest }, blockHeight),
          signature: rest.landed?.signature ?? null
        }))
      })),
      requests: [...requests].reverse()
    })
  }
}

/**
 * A history fed by the ledger: every landed transaction is recorded as it lands.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const ledger = yield* Ledger
  const history = makeUnsafe()
  yield* ledger.onLanded((landed) =>
    Effect.map(ledger.transaction(landed.signature), Option.match({
      onNone: () => undefined,
      onSome: (record) => history.transaction(record)
    }))
  )
  return history
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<History, never, Ledger> = Layer.effect(History, make)

/**
 * The market, with the transactions it hands out (launches, swaps, fee-share updates, partner
 * claims) remembered by the history, so that they are named when they land.
 *
 * @since 0.1.0
 * @category layers
 */
export const tracked = <E, R>(market: Layer.Layer<Market, E, R>): Layer.Layer<Market, E, R | History> =>
  Layer.effect(
    Market,
    Effect.gen(function*() {
      const inner = yield* Market
      const history = yield* History
      const entries = (kind: string) => <A extends { readonly transactions: ReadonlyArray<{ readonly transaction: string }> }>(
        result: A
      ): A => {
        for (const entry of result.transactions) history.served(kind, "", new Uint8Array(base58.encode(entry.transaction)))
        return result
      }
      const service: Market.Service = {
        ...inner,
        launch: (request) =>
          Effect.tap(inner.launch(request), (wire) =>
            history.served("launch", request.tokenMint, new Uint8Array(base58.encode(wire)))),
        swap: (request) =>
          Effect.tap(inner.swap(request), (result) =>
            history.served(
              "swap",
              `${request.quoteResponse.inAmount} ${abbreviated(request.quoteResponse.inputMint)} → ${abbreviated(request.quoteResponse.outputMint)}`,
              new Uint8Array(base58.encode(result.swapTransaction))
            )),
        updateConfig: (request) => Effect.map(inner.updateConfig(request), entries("update-config")),
        partnerClaim: (wallet) => Effect.map(inner.partnerClaim(wallet), entries("partner-claim"))
      }
      return service
    })
  ).pipe(Layer.provide(market))
