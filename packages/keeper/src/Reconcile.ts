/**
 * Recovery: settles every journaled stage whose fate is unknown with the chain, before the
 * keeper builds anything new.
 *
 * @since 0.1.0
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as Chain from "@feeshare/solana/Chain"
import { Effect, Metric, Option } from "effect"
import * as Journal from "./Journal.js"
import * as JournalWrites from "./JournalWrites.js"
import * as Metrics from "./Metrics.js"
import { Settings } from "./Settings.js"

const sendableOf = (row: Journal.StageRow): Chain.Sendable => ({
  bytes: Uint8Array.from(Buffer.from(row.bytes, "base64")),
  signature: row.signature,
  lastValidBlockHeight: Option.some(row.lastValidBlockHeight)
})

/**
 * Settles every journaled stage with no known fate (all, or one wallet's position): landed,
 * failed, or, when the chain does not know it, the same bytes are sent again while they can
 * still land (`expired` once they cannot). A stage whose dependency never landed was never
 * sent (the executor sends a stage only after its dependencies landed): `abandoned`. The
 * commitment and the rebroadcast interval are the keeper's `Settings`.
 *
 * @since 0.1.0
 * @category recovery
 */
export const reconcile = (
  filter?: { readonly wallet: string; readonly mint: string }
): Effect.Effect<
  { readonly landed: number; readonly rebroadcast: number; readonly dead: number },
  SqlError | Chain.ChainUnavailable | Chain.PreflightFailed,
  Journal.Journal | Chain.Chain | Settings
> =>
  Effect.gen(function*() {
    const journal = yield* Journal.Journal
    const chain = yield* Chain.Chain
    const { commitment, rebroadcastInterval } = yield* Settings
    const rows = yield* journal.unsettled(filter)
    const counts = { landed: 0, rebroadcast: 0, dead: 0 }
    const groups = new Map<string, Array<Journal.StageRow>>()
    for (const row of rows) {
      const id = `${row.key}#${row.round}`
      groups.set(id, [...(groups.get(id) ?? []), row])
    }
    const settle = (row: Journal.StageRow, status: Journal.StageStatus, slot: bigint | null) =>
      Effect.zipRight(
        JournalWrites.settle.run(row, status, slot),
        Effect.sync(() => {
          if (status === "landed") counts.landed++
          else counts.dead++
        })
      )
    yield* Effect.forEach([...groups.values()], (group) =>
      Effect.gen(function*() {
        const first = group[0]
        if (first === undefined) return
        const landed = new Set(
          (yield* journal.stagesOf(first.key)).filter((row) => row.round === first.round && row.status === "landed")
            .map((
              row
            ) => row.stage)
        )
        for (const row of group) {
          const known = yield* chain.signatureStatus(row.signature, { searchHistory: true })
          let outcome: { readonly status: Journal.StageStatus; readonly slot: bigint | null }
          if (Option.isSome(known) && known.value.err !== null && known.value.err !== undefined) {
            outcome = { status: "failed", slot: known.value.slot }
          } else if (
            Option.isSome(known) && known.value.confirmationStatus !== null &&
            Chain.meets(known.value.confirmationStatus, commitment)
          ) {
            outcome = { status: "landed", slot: known.value.slot }
          } else if (Option.isNone(known) && !row.dependsOn.every((dep) => landed.has(dep))) {
            outcome = { status: "abandoned", slot: null }
          } else {
            // known but not yet at the commitment, or unknown: the same bytes, until landed or expired
            if (Option.isNone(known)) {
              counts.rebroadcast++
              yield* Metric.increment(Metrics.rebroadcasts)
              yield* Effect.logInfo("rebroadcasting a journaled transaction").pipe(
                Effect.annotateLogs({ wallet: row.wallet, mint: row.mint, stage: row.stage, signature: row.signature })
              )
            }
            const confirmOptions = {
              commitment,
              rebroadcastInterval,
              skipPreflight: true
            }
            outcome = yield* Chain.submit(sendableOf(row), confirmOptions).pipe(
              Effect.flatMap((submitted) => Chain.confirm(submitted, confirmOptions)),
              Effect.map((done) => ({ status: "landed" as const, slot: done.slot })),
              Effect.catchTags({
                BlockhashExpired: () => Effect.succeed({ status: "expired" as const, slot: null }),
                TransactionFailed: (error) => Effect.succeed({ status: "failed" as const, slot: error.slot })
              })
            )
          }
          if (outcome.status === "landed") landed.add(row.stage)
          yield* settle(row, outcome.status, outcome.slot)
        }
      }), { concurrency: 8, discard: true })
    return counts
  })
