/**
 * The policy the human sets for the MCP server: which wallets may sign, which mints may be
 * touched, caps on lamports swapped and network fees spent, read-only mode, and how long a
 * preview stays valid. Read from a JSON file and flags only: no tool call can change it.
 * (Named `Policy` before: renamed for what it governs, the agent's writes.)
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { PublicKey, RawAmount } from "@feeshare/domain"
import * as WalletSource from "@feeshare/solana/WalletSource"
import { Clock, Effect, Either, ParseResult, Ref, Schema } from "effect"

/**
 * The policy file (JSON). Every field is optional; absent caps mean no cap.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Policy = Schema.Struct({
  readOnly: Schema.optionalWith(Schema.Boolean, { exact: true, default: () => false }).annotations({
    description: "no signer is loaded at all; every prepare and execute tool is refused"
  }),
  wallets: Schema.optionalWith(Schema.Array(Schema.Union(Schema.NonEmptyString, WalletSource.WalletSource)), {
    exact: true,
    default: () => []
  }).annotations({
    description: "the wallets that may sign, besides --keypair: a solana-keygen file (a path), or { keypair }, " +
      "{ directory } (its *.json files) or { env } (a variable holding the keygen array), as in the keeper's " +
      "config; paths relative to the policy file"
  }),
  allowedMints: Schema.optionalWith(Schema.Array(PublicKey.PublicKey), { exact: true }).annotations({
    description: "the only token mints a write may touch (SOL is always allowed); absent: every mint"
  }),
  maxSwapLamports: Schema.optionalWith(RawAmount.LamportsNumber, { exact: true }).annotations({
    description: "the most lamports of SOL one swap may spend"
  }),
  maxSwapLamportsPerDay: Schema.optionalWith(RawAmount.LamportsNumber, { exact: true }).annotations({
    description: "the most lamports of SOL the swaps of any 24 hours may spend together"
  }),
  maxNetworkFeesPerDayLamports: Schema.optionalWith(RawAmount.LamportsNumber, { exact: true }).annotations({
    description: "the most network fees (base + priority, in lamports) the transactions of any 24 hours may cost"
  }),
  askHuman: Schema.optionalWith(Schema.Boolean, { exact: true, default: () => false }).annotations({
    description:
      "execute asks the human to approve each preview (MCP elicitation); a client that cannot ask gets every execute refused"
  }),
  previewTtlSeconds: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 3600)), { exact: true, default: () => 120 })
    .annotations({ description: "how long a preview id may be executed (default 120)" }),
  transactionFormat: Schema.optionalWith(Schema.Literal("v0", "v1"), { exact: true, default: () => "v0" as const })
    .annotations({ description: "the transaction format of claim plans when prepare_claim leaves it out (default v0)" })
}).annotations({ identifier: "McpPolicy" })

/**
 * @since 0.1.0
 * @category models
 */
export type Policy = typeof Policy.Type

/**
 * The rule names a `PolicyViolation` reports: the policy's fields, and `wallet` for a wallet
 * no loaded key belongs to.
 *
 * @since 0.1.0
 * @category models
 */
export type Rule = keyof Policy | "wallet"

/**
 * The native SOL mint (wrapped SOL): always allowed, and what swaps spend lamports of.
 *
 * @since 0.1.0
 * @category constants
 */
export const nativeMint = "So11111111111111111111111111111111111111112"

/**
 * A write the policy refuses; `rule` names the policy field at fault.
 *
 * @since 0.1.0
 * @category errors
 */
export class PolicyViolation extends Schema.TaggedError<PolicyViolation>()("PolicyViolation", {
  rule: Schema.String,
  message: Schema.String
}) {}

/**
 * The policy file is unreadable or invalid (`issues` name the fields).
 *
 * @since 0.1.0
 * @category errors
 */
export class PolicyInvalid extends Schema.TaggedError<PolicyInvalid>()("PolicyInvalid", {
  source: Schema.String,
  message: Schema.String
}) {}

const decodeEither = Schema.decodeUnknownEither(Policy, { errors: "all", onExcessProperty: "error" })

/**
 * Decodes a policy; unknown fields are refused (a misspelt cap must not pass silently).
 *
 * @since 0.1.0
 * @category constructors
 */
export const decode = (input: unknown, source = "policy"): Effect.Effect<Policy, PolicyInvalid> =>
  Either.match(decodeEither(input), {
    onLeft: (error) =>
      Effect.fail(
        new PolicyInvalid({
          source,
          message: `${source}: ${
            ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
              `${issue.path.join(".") || "(root)"} ${issue.message}`
            )
              .join("; ")
          }`
        })
      ),
    onRight: Effect.succeed
  })

/**
 * Reads a policy file (JSON, at most 64 KiB).
 *
 * @since 0.1.0
 * @category constructors
 */
export const load = Effect.fn("WritePolicy.load")(function*(path: string) {
  const fs = yield* FileSystem.FileSystem
  const size = yield* fs.stat(path).pipe(
    Effect.map((info) => Number(info.size)),
    Effect.mapError(() => new PolicyInvalid({ source: path, message: `${path}: cannot be read` }))
  )
  if (size > 64 * 1024) return yield* new PolicyInvalid({ source: path, message: `${path}: larger than 64 KiB` })
  const text = yield* fs.readFileString(path).pipe(
    Effect.mapError(() => new PolicyInvalid({ source: path, message: `${path}: cannot be read` }))
  )
  const json = yield* Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: () => new PolicyInvalid({ source: path, message: `${path}: not JSON` })
  })
  return yield* decode(json, path)
})

/**
 * Whether a write may touch `mint`.
 *
 * @since 0.1.0
 * @category rules
 */
export const checkMint = (policy: Policy, mint: string): Effect.Effect<void, PolicyViolation> =>
  policy.allowedMints === undefined || mint === nativeMint || policy.allowedMints.includes(mint)
    ? Effect.void
    : Effect.fail(
      new PolicyViolation({ rule: "allowedMints", message: `the mint ${mint} is not in the policy's allowedMints` })
    )

/**
 * Refuses every write in read-only mode.
 *
 * @since 0.1.0
 * @category rules
 */
export const checkWritable = (policy: Policy): Effect.Effect<void, PolicyViolation> =>
  policy.readOnly
    ? Effect.fail(new PolicyViolation({ rule: "readOnly", message: "the server runs read-only: no wallet may sign" }))
    : Effect.void

const dayMillis = 24 * 60 * 60 * 1000

/** Lamports counted at a time, kept for 24 hours. */
interface Entry {
  readonly at: number
  readonly lamports: bigint
}

interface Entries {
  readonly swap: ReadonlyArray<Entry>
  readonly fees: ReadonlyArray<Entry>
}

/**
 * The lamports swapped and the network fees spent in the last 24 hours, counted against the
 * policy's daily caps (in memory: a restart starts a new count; at most 10,000 entries each).
 *
 * @since 0.1.0
 * @category models
 */
export interface Spending {
  /** Fails when `lamports` more would pass the cap; otherwise counts them. */
  readonly spend: (
    kind: "swap" | "fees",
    lamports: bigint
  ) => Effect.Effect<void, PolicyViolation>
  /** What is left of each daily cap (`null`: no cap). */
  readonly remaining: Effect.Effect<
    { readonly swapLamports: bigint | null; readonly networkFeesLamports: bigint | null }
  >
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeSpending = (policy: Policy): Effect.Effect<Spending> =>
  Effect.gen(function*() {
    const entries = yield* Ref.make<Entries>({ swap: [], fees: [] })
    const caps = {
      swap: policy.maxSwapLamportsPerDay === undefined ? null : BigInt(policy.maxSwapLamportsPerDay),
      fees: policy.maxNetworkFeesPerDayLamports === undefined ? null : BigInt(policy.maxNetworkFeesPerDayLamports)
    }
    const rules = { swap: "maxSwapLamportsPerDay", fees: "maxNetworkFeesPerDayLamports" } as const
    const recent = (list: ReadonlyArray<Entry>, now: number) => list.filter((entry) => now - entry.at < dayMillis)
    const sum = (list: ReadonlyArray<Entry>) => list.reduce((total, entry) => total + entry.lamports, 0n)
    const spend = (kind: "swap" | "fees", lamports: bigint) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatten(Ref.modify(entries, (all): readonly [Effect.Effect<void, PolicyViolation>, Entries] => {
          const list = recent(all[kind], now)
          const cap = caps[kind]
          if (cap !== null && sum(list) + lamports > cap) {
            return [
              Effect.fail(
                new PolicyViolation({
                  rule: rules[kind],
                  message: `${lamports} lamports more would pass ${rules[kind]} (${cap}; ${
                    sum(list)
                  } spent in the last 24 hours)`
                })
              ),
              { ...all, [kind]: list }
            ] as const
          }
          return [Effect.void, { ...all, [kind]: [...list, { at: now, lamports }].slice(-10_000) }] as const
        })))
    const remaining = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(Ref.get(entries), (all) => ({
        swapLamports: caps.swap === null ? null : caps.swap - sum(recent(all.swap, now)),
        networkFeesLamports: caps.fees === null ? null : caps.fees - sum(recent(all.fees, now))
      })))
    return { spend, remaining }
  })
