/**
 * Hostile claim plans (`--tamper`): the kinds, their schema and `make`; `Tamper.ts`
 * re-exports every name.
 */
import type { FeeShare, Plan } from "@feeshare/domain"
import { priorityFeeUnit } from "@feeshare/domain/Plan"
import * as PublicKey from "@feeshare/domain/PublicKey"
import * as Wire from "@feeshare/domain/WireTransaction"
import type * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Schema } from "effect"
import { createHash } from "node:crypto"
import * as Seeded from "./seeded.js"

/**
 * The kinds that tamper a claim plan's stage.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanKind = Schema.Literal(
  "flip-byte",
  "wrong-hash",
  "extra-signer",
  "missing-signer",
  "forged-signature",
  "trailing-bytes",
  "forward-depends-on",
  "wrong-lifetime",
  "wrong-budget",
  "wrong-size",
  "wrong-format"
).annotations({ identifier: "TamperPlanKind" })

/**
 * @since 0.1.0
 * @category models
 */
export type PlanKind = typeof PlanKind.Type

/**
 * The kinds that tamper a transaction served without plan metadata: one of config creation's
 * (`POST /fee-share/config`: a bundle's or a transaction's entry) or the launch transaction
 * (`create-launch-transaction`; `tx-wrong-blockhash` does not apply to it, it states none).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionKind = Schema.Literal(
  "tx-fee-payer",
  "tx-empty-slot",
  "tx-forged-signature",
  "tx-trailing-bytes",
  "tx-wrong-blockhash"
).annotations({ identifier: "TamperTransactionKind" })

/**
 * @since 0.1.0
 * @category models
 */
export type TransactionKind = typeof TransactionKind.Type

/**
 * The kinds that tamper a gas-sponsored claim (the vault sweep of `claim-vault` and the first
 * transaction of a deployer claim batch): the sandbox builds and signs the hostile variant as
 * it builds the real one, so that only the check named by the kind can catch it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SponsoredKind = Schema.Literal(
  "sponsor-fee-payer",
  "sponsor-destination",
  "sponsor-extra-transfer"
).annotations({ identifier: "TamperSponsoredKind" })

/**
 * @since 0.1.0
 * @category models
 */
export type SponsoredKind = typeof SponsoredKind.Type

/**
 * Every kind of tampering.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Kind = Schema.Union(PlanKind, TransactionKind, SponsoredKind).annotations({ identifier: "TamperKind" })

/**
 * @since 0.1.0
 * @category models
 */
export type Kind = typeof Kind.Type

/**
 * The endpoints a transaction kind tampers (`v3`: the v3 claim's transactions).
 *
 * @since 0.1.0
 * @category models
 */
export type Endpoint = "config" | "launch" | "v3"

/**
 * The endpoints a sponsored kind tampers.
 *
 * @since 0.1.0
 * @category models
 */
export type SponsoredEndpoint = "vault" | "deployer"

/**
 * The refusal a client gives a plan tampered in some way: a `WireTransaction.Refusal` tag,
 * or `InvalidPlan` (`Plan.validate`).
 *
 * @since 0.1.0
 * @category models
 */
export type RefusalTag = WireTransaction.Refusal["_tag"] | "InvalidPlan"

/**
 * What each kind does to the tampered stage, and the refusal that the client's checks give
 * it (assuming the client holds the fee payer's key, as a claimer does).
 *
 * @since 0.1.0
 * @category constants
 */
export const kinds: { readonly [K in Kind]: { readonly does: string; readonly refusal: RefusalTag } } = {
  "flip-byte": {
    does: "one bit of the message (in its blockhash) flipped; `messageSha256` still states the original",
    refusal: "MessageHashMismatch"
  },
  "wrong-hash": { does: "`messageSha256` states the digest of something else", refusal: "MessageHashMismatch" },
  "extra-signer": {
    does: "the message has a signer that `requiredSigners` does not list (the last one listed is dropped)",
    refusal: "UnexpectedSigner"
  },
  "missing-signer": {
    does: "`requiredSigners` lists one more key, which is not a signer of the message",
    refusal: "MissingSigner"
  },
  "forged-signature": {
    does: "the fee payer's signature slot holds 64 bytes that do not verify",
    refusal: "InvalidSignature"
  },
  "trailing-bytes": { does: "bytes appended after the transaction", refusal: "NonCanonicalTransaction" },
  "forward-depends-on": {
    does: "a stage's `dependsOn` names a later stage (itself, in a plan of one stage)",
    refusal: "InvalidPlan"
  },
  "wrong-lifetime": { does: "`lifetime.blockhash` is not the message's blockhash", refusal: "LifetimeMismatch" },
  "wrong-budget": { does: "`budget.computeUnitLimit` is one off the message's", refusal: "BudgetMismatch" },
  "wrong-size": { does: "`size.bytes` is one more than the wire size", refusal: "SizeMismatch" },
  "wrong-format": {
    does: "`format` (and `priorityFee.unit`) of the other version than the message's",
    refusal: "FormatMismatch"
  },
  "tx-fee-payer": {
    does:
      "the message's first two signers (and their slots) swapped: the service's co-signer (config account, mint) pays",
    refusal: "FeePayerMismatch"
  },
  "tx-empty-slot": {
    does: "the service's signature slot emptied: two slots to fill, the wallet's and another",
    refusal: "SignatureUnavailable"
  },
  "tx-forged-signature": {
    does: "the service's signature slot holds 64 bytes that do not verify",
    refusal: "InvalidSignature"
  },
  "tx-trailing-bytes": { does: "bytes appended after the transaction", refusal: "NonCanonicalTransaction" },
  "tx-wrong-blockhash": {
    does: "the entry states a blockhash that is not the message's (config creation and the v3 claim)",
    refusal: "LifetimeMismatch"
  },
  "sponsor-fee-payer": {
    does: "the wallet pays the fee of a gas-sponsored claim; the sponsor only co-signs",
    refusal: "FeePayerMismatch"
  },
  "sponsor-destination": {
    does: "the vault pays another account than the wallet's own token account for the quote mint",
    refusal: "DestinationMismatch"
  },
  "sponsor-extra-transfer": {
    does: "an extra System transfer moves lamports out of the wallet (the wallet signs it)",
    refusal: "WalletOutflow"
  }
}

/**
 * The endpoints each transaction kind tampers.
 *
 * @since 0.1.0
 * @category constants
 */
export const endpoints: { readonly [K in TransactionKind]: ReadonlyArray<Endpoint> } = {
  "tx-fee-payer": ["config", "launch", "v3"],
  "tx-empty-slot": ["config", "launch", "v3"],
  "tx-forged-signature": ["config", "launch", "v3"],
  "tx-trailing-bytes": ["config", "launch", "v3"],
  "tx-wrong-blockhash": ["config", "v3"]
}

/**
 * What each sponsored kind makes the sandbox build.
 *
 * @since 0.1.0
 * @category constants
 */
export const sponsoredVariants: { readonly [K in SponsoredKind]: "fee-payer" | "destination" | "extra-transfer" } = {
  "sponsor-fee-payer": "fee-payer",
  "sponsor-destination": "destination",
  "sponsor-extra-transfer": "extra-transfer"
}

/**
 * Every kind, in the order of `kinds`.
 *
 * @since 0.1.0
 * @category constants
 */
export const allKinds: ReadonlyArray<Kind> = [
  ...PlanKind.literals,
  ...TransactionKind.literals,
  ...SponsoredKind.literals
]

/**
 * The kinds that tamper claim plans.
 *
 * @since 0.1.0
 * @category constants
 */
export const planKinds: ReadonlyArray<PlanKind> = PlanKind.literals

/**
 * The kinds that tamper transactions served without plan metadata.
 *
 * @since 0.1.0
 * @category constants
 */
export const transactionKinds: ReadonlyArray<TransactionKind> = TransactionKind.literals

/**
 * Whether a kind tampers claim plans.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPlanKind = (kind: Kind): kind is PlanKind => (PlanKind.literals as ReadonlyArray<string>).includes(kind)

/**
 * Whether a kind tampers gas-sponsored claims.
 *
 * @since 0.1.0
 * @category guards
 */
export const isSponsoredKind = (kind: Kind): kind is SponsoredKind =>
  (SponsoredKind.literals as ReadonlyArray<string>).includes(kind)

/** Rules of a `Tamper`, as the flag parser and the schema word them. */
const rules = {
  probability: "must be a probability, 0 < P <= 1",
  plans: "must be a plan count, an integer >= 1",
  exclusive: "give either probability or plans, not both"
} as const

/**
 * One tampering: `kind` on every claim plan, on the next `plans` plans, or on each plan with
 * `probability`. With several, the first (in order) that applies to a plan tampers it; the
 * others do not count that plan.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Tamper = Schema.Struct({
  kind: Kind,
  probability: Schema.optionalWith(
    Schema.Number.pipe(Schema.filter((p) => p > 0 && p <= 1, { message: () => rules.probability })),
    { exact: true }
  ),
  plans: Schema.optionalWith(
    Schema.Number.pipe(Schema.filter((n) => Number.isSafeInteger(n) && n >= 1, { message: () => rules.plans })),
    { exact: true }
  )
}).pipe(
  Schema.filter((tamper) => tamper.probability === undefined || tamper.plans === undefined || rules.exclusive),
  Schema.annotations({ identifier: "Tamper" })
)

/**
 * @since 0.1.0
 * @category models
 */
export type Tamper = typeof Tamper.Type

/**
 * A tampering as its flag value: `KIND`, `KIND=N` (the next N plans) or `KIND=P` (a
 * probability, always written with a decimal point).
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (tamper: Tamper): string =>
  tamper.plans !== undefined
    ? `${tamper.kind}=${tamper.plans}`
    : tamper.probability !== undefined
    ? `${tamper.kind}=${Number.isInteger(tamper.probability) ? tamper.probability.toFixed(1) : tamper.probability}`
    : tamper.kind

// ---------------------------------------------------------------------------
// the kinds, as pure functions
// ---------------------------------------------------------------------------

/** The source of the tampering's choices (a seeded stream in the sandbox). */
export type Random = Pick<Seeded.Stream, "bytes" | "below">

/**
 * What a tampering did: the plan served, and the id of the stage it changed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Tampered {
  readonly kind: PlanKind
  readonly stage: string
  readonly plan: Plan.TransactionPlan
}

const SIGNATURE = 64

/** Where the signatures and the message sit in wire bytes of a format. */
const layout = (bytes: Uint8Array, format: Plan.Stage["format"]) => {
  if (format === "v1") {
    // v1: the message (its header's first byte is the signature count), then the signatures
    const count = bytes[1] ?? 0
    const messageEnd = bytes.length - SIGNATURE * count
    return { signatures: messageEnd, message: 0, messageEnd }
  }
  // v0: shortvec(signature count) (one byte below 128 signatures), signatures, message
  const count = bytes[0] ?? 0
  return { signatures: 1, message: 1 + SIGNATURE * count, messageEnd: bytes.length }
}

const indexOf = (haystack: Uint8Array, needle: Uint8Array, from: number, to: number): number => {
  outer: for (let i = from; i + needle.length <= to; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

const wire = (stage: Plan.Stage): Uint8Array => {
  const bytes = Wire.toBytes(stage.transaction, stage.encoding)
  if (bytes === undefined) throw new TypeError(`stage ${stage.id}: the transaction is not ${stage.encoding}`)
  return bytes
}

const withWire = (stage: Plan.Stage, bytes: Uint8Array): Plan.Stage => ({
  ...stage,
  transaction: Wire.fromBytes(bytes, stage.encoding)
})

/** 32 bytes from the stream that are not `avoid`. */
const otherKey = (random: Random, avoid: ReadonlyArray<string>): string => {
  while (true) {
    const key = PublicKey.fromBytes(random.bytes(32))
    if (!avoid.includes(key)) return key
  }
}

const stageTampering: {
  readonly [K in Exclude<PlanKind, "forward-depends-on">]: (stage: Plan.Stage, random: Random) => Plan.Stage
} = {
  "flip-byte": (stage, random) => {
    const bytes = wire(stage)
    const { message, messageEnd } = layout(bytes, stage.format)
    const at = indexOf(bytes, PublicKey.toBytes(stage.lifetime.blockhash), message, messageEnd)
    if (at < 0) throw new TypeError(`stage ${stage.id}: the message does not hold its blockhash`)
    const i = at + random.below(32)
    bytes[i] = bytes[i]! ^ (1 << random.below(8))
    return withWire(stage, bytes)
  },
  "wrong-hash": (stage, random) => {
    const digest = createHash("sha256").update(random.bytes(32)).digest("hex")
    return { ...stage, messageSha256: digest === stage.messageSha256 ? "0".repeat(64) : digest }
  },
  "extra-signer": (stage) => ({ ...stage, requiredSigners: stage.requiredSigners.slice(0, -1) }),
  "missing-signer": (stage, random) => ({
    ...stage,
    requiredSigners: [...stage.requiredSigners, otherKey(random, stage.requiredSigners)]
  }),
  "forged-signature": (stage, random) => {
    const bytes = wire(stage)
    const forged = random.bytes(SIGNATURE)
    // never the all-zero "no signature yet" slot
    forged[0] = forged[0]! | 1
    bytes.set(forged, layout(bytes, stage.format).signatures)
    return withWire(stage, bytes)
  },
  "trailing-bytes": (stage, random) => {
    const bytes = wire(stage)
    const extra = random.bytes(1 + random.below(8))
    const out = new Uint8Array(bytes.length + extra.length)
    out.set(bytes)
    out.set(extra, bytes.length)
    return withWire(stage, out)
  },
  "wrong-lifetime": (stage, random) => ({
    ...stage,
    lifetime: { ...stage.lifetime, blockhash: otherKey(random, [stage.lifetime.blockhash]) }
  }),
  "wrong-budget": (stage) => {
    const limit = stage.budget.computeUnitLimit
    return { ...stage, budget: { ...stage.budget, computeUnitLimit: limit === 0xffff_ffff ? limit - 1 : limit + 1 } }
  },
  "wrong-size": (stage) => ({ ...stage, size: { ...stage.size, bytes: stage.size.bytes + 1 } }),
  "wrong-format": (stage) => {
    const format = stage.format === "v1" ? "v0" : "v1"
    return {
      ...stage,
      format,
      budget: { ...stage.budget, priorityFee: { ...stage.budget.priorityFee, unit: priorityFeeUnit[format] } }
    }
  }
}

/**
 * Tampers one stage of `plan` (chosen by `random`) in the way of `kind`. A plan without
 * stages (a lookup table still warming up) has nothing to tamper: `undefined`.
 *
 * @since 0.1.0
 * @category tampering
 */
export const apply = (plan: Plan.TransactionPlan, kind: PlanKind, random: Random): Tampered | undefined => {
  const stages = plan.transactions
  if (stages.length === 0) return undefined
  if (kind === "forward-depends-on") {
    // a stage that depends on a later one (or, alone, on itself)
    const i = stages.length === 1 ? 0 : random.below(stages.length - 1)
    const j = stages.length === 1 ? 0 : i + 1 + random.below(stages.length - 1 - i)
    const stage = stages[i]!
    const transactions = stages.map((s, k) => k === i ? { ...s, dependsOn: [...s.dependsOn, stages[j]!.id] } : s)
    return { kind, stage: stage.id, plan: { ...plan, transactions } }
  }
  const i = random.below(stages.length)
  const stage = stages[i]!
  const tampered = stageTampering[kind](stage, random)
  return { kind, stage: stage.id, plan: { ...plan, transactions: stages.map((s, k) => k === i ? tampered : s) } }
}

// ---------------------------------------------------------------------------
// the endpoint's tamperer
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// transactions without plan metadata
// ---------------------------------------------------------------------------

/** Where the message and the static account keys sit in legacy or v0 wire bytes. */
const keysLayout = (bytes: Uint8Array) => {
  const count = bytes[0] ?? 0
  const message = 1 + SIGNATURE * count
  const versioned = ((bytes[message] ?? 0) & 0x80) !== 0
  const header = message + (versioned ? 1 : 0)
  // header (3 bytes), then shortvec(key count) (one byte below 128 keys), then the keys
  return { count, keys: header + 4 }
}

const transactionTampering: {
  readonly [K in Exclude<TransactionKind, "tx-wrong-blockhash">]: (bytes: Uint8Array, random: Random) => Uint8Array
} = {
  "tx-fee-payer": (bytes) => {
    const { count, keys } = keysLayout(bytes)
    if (count < 2) throw new TypeError("tx-fee-payer: the transaction has a single signer")
    // the keys and their signature slots, so that each key keeps the signature it had
    const swap = (at: number, size: number) => {
      const first = bytes.slice(at, at + size)
      bytes.copyWithin(at, at + size, at + 2 * size)
      bytes.set(first, at + size)
    }
    swap(keys, 32)
    swap(1, SIGNATURE)
    return bytes
  },
  "tx-empty-slot": (bytes) => {
    if (keysLayout(bytes).count < 2) throw new TypeError("tx-empty-slot: the transaction has a single signer")
    bytes.fill(0, 1 + SIGNATURE, 1 + 2 * SIGNATURE)
    return bytes
  },
  "tx-forged-signature": (bytes, random) => {
    if (keysLayout(bytes).count < 2) throw new TypeError("tx-forged-signature: the transaction has a single signer")
    const forged = random.bytes(SIGNATURE)
    forged[0] = forged[0]! | 1
    bytes.set(forged, 1 + SIGNATURE)
    return bytes
  },
  "tx-trailing-bytes": (bytes, random) => {
    const extra = random.bytes(1 + random.below(8))
    const out = new Uint8Array(bytes.length + extra.length)
    out.set(bytes)
    out.set(extra, bytes.length)
    return out
  }
}

/**
 * Tampers one base58 transaction of an endpoint without plan metadata in the way of `kind`
 * (`tx-wrong-blockhash` changes the stated blockhash, not the bytes).
 *
 * @since 0.1.0
 * @category tampering
 */
export const applyToEntry = (
  entry: {
    readonly transaction: string
    readonly blockhash: { readonly blockhash: string; readonly lastValidBlockHeight: number }
  },
  kind: TransactionKind,
  random: Random
) => {
  if (kind === "tx-wrong-blockhash") {
    return { ...entry, blockhash: { ...entry.blockhash, blockhash: otherKey(random, [entry.blockhash.blockhash]) } }
  }
  return { ...entry, transaction: applyToText(entry.transaction, kind, random) }
}

/**
 * Tampers a base58 transaction (the launch's) in the way of a byte-level `kind`.
 *
 * @since 0.1.0
 * @category tampering
 */
export const applyToText = (
  text: string,
  kind: Exclude<TransactionKind, "tx-wrong-blockhash">,
  random: Random
): string => {
  const bytes = Wire.toBytes(text, "base58")
  if (bytes === undefined) throw new TypeError("the transaction is not base58")
  return Wire.fromBytes(transactionTampering[kind](bytes, random), "base58")
}

/**
 * Tampers one entry of a config-creation answer (a bundle's or a transaction's, chosen by
 * `random` among those the kind applies to: a co-signed one for the kinds that change the
 * co-signer); an answer without such entries (`needsCreation: false`) is served as it is.
 *
 * @since 0.1.0
 * @category tampering
 */
export const applyToConfig = (
  answer: FeeShare.CreateConfigAnswer,
  kind: TransactionKind,
  random: Random
): { readonly answer: FeeShare.CreateConfigAnswer; readonly entry: string } | undefined => {
  // the kinds that change a co-signer need a transaction with one
  const applies = (entry: FeeShare.TransactionEntry) =>
    kind === "tx-trailing-bytes" || kind === "tx-wrong-blockhash" ||
    (Wire.toBytes(entry.transaction, "base58")?.[0] ?? 0) >= 2
  const places = [
    ...(answer.bundles ?? []).flatMap((bundle, i) =>
      bundle.flatMap((entry, j) => applies(entry) ? [{ label: `bundle ${i} transaction ${j}`, i, j }] : [])
    ),
    ...(answer.transactions ?? []).flatMap((entry, j) =>
      applies(entry) ? [{ label: `transaction ${j}`, i: -1, j }] : []
    )
  ]
  if (places.length === 0) return undefined
  const place = places[random.below(places.length)]!
  if (place.i < 0) {
    const transactions = (answer.transactions ?? []).map((e, j) => j === place.j ? applyToEntry(e, kind, random) : e)
    return { answer: { ...answer, transactions }, entry: place.label }
  }
  const bundles = (answer.bundles ?? []).map((bundle, i) =>
    i === place.i ? bundle.map((e, j) => j === place.j ? applyToEntry(e, kind, random) : e) : bundle
  )
  return { answer: { ...answer, bundles }, entry: place.label }
}

// ---------------------------------------------------------------------------
// the endpoint's tamperer
// ---------------------------------------------------------------------------

/**
 * Decides, plan after plan (and transaction after transaction), whether and how to tamper
 * (the state of the counts and of the seeded stream lives in it).
 *
 * @since 0.1.0
 * @category models
 */
export interface Tamperer {
  /** The plan to serve: tampered by the first plan tampering that applies, or unchanged. */
  readonly next: (plan: Plan.TransactionPlan) => Tampered | undefined
  /**
   * The transaction kind to apply to the next answer of `endpoint`, if one applies (the
   * first transaction tampering of that endpoint, in order, counted like plans).
   */
  readonly nextTransaction: (endpoint: Endpoint) => TransactionKind | undefined
  /** The sponsored kind to apply to the next answer of `endpoint`, if one applies (counted like plans). */
  readonly nextSponsored: (endpoint: SponsoredEndpoint) => SponsoredKind | undefined
  /** The stream the transaction kinds draw from. */
  readonly random: Random
}

/**
 * A tamperer over `tampers`, deterministic from `seed`. A plan without stages is served as
 * it is and counts for none of them. Plan kinds count claim plans; transaction kinds count
 * the answers of the endpoints they tamper.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seed: string, tampers: ReadonlyArray<Tamper>): Tamperer => {
  const random = Seeded.stream(seed, "tamper")
  const remaining = tampers.map((tamper) => tamper.plans)
  const applies = (i: number, tamper: Tamper): boolean => {
    const left = remaining[i]
    if (left !== undefined) {
      if (left === 0) return false
      remaining[i] = left - 1
      return true
    }
    return tamper.probability === undefined || random.float() < tamper.probability
  }
  return {
    random,
    next: (plan) => {
      if (plan.transactions.length === 0) return undefined
      for (const [i, tamper] of tampers.entries()) {
        const kind = tamper.kind
        if (!isPlanKind(kind) || !applies(i, tamper)) continue
        return apply(plan, kind, random)
      }
      return undefined
    },
    nextTransaction: (endpoint) => {
      for (const [i, tamper] of tampers.entries()) {
        const kind = tamper.kind
        if (isPlanKind(kind) || isSponsoredKind(kind) || !endpoints[kind].includes(endpoint) || !applies(i, tamper)) {
          continue
        }
        return kind
      }
      return undefined
    },
    nextSponsored: () => {
      for (const [i, tamper] of tampers.entries()) {
        const kind = tamper.kind
        if (!isSponsoredKind(kind) || !applies(i, tamper)) continue
        return kind
      }
      return undefined
    }
  }
}
