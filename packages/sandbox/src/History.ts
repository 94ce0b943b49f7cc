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
import { getBase58Encoder } from "@solana/kit"
import { Effect, Layer, Option } from "effect"
import type { LandedRecord, RequestEntry, TransactionEntry } from "./internal/model/history/models.js"
import { limits } from "./internal/model/history/models.js"
import * as Plans from "./internal/model/history/plans.js"
import { push, remember } from "./internal/model/history/rings.js"
import { History } from "./internal/model/history/service.js"
import { entryOf, type Kind, messageOf } from "./internal/model/history/transactions.js"
import { messageSha256 } from "./internal/model/ledger/wire.js"
import { Ledger } from "./Ledger.js"
import { Market } from "./Market.js"

export {
  type DecodedInstruction,
  type LandedRecord,
  limits,
  type PlanEntry,
  type RequestEntry,
  type RequestInput,
  type Snapshot,
  type StageEntry,
  type StageState,
  type TransactionEntry
} from "./internal/model/history/models.js"

export { History } from "./internal/model/history/service.js"

const base58 = getBase58Encoder()

const abbreviated = (address: string): string => `${address.slice(0, 4)}…${address.slice(-4)}`

/**
 * A new, empty history.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (now: () => number = Date.now): History.Service => {
  let version = 0
  const transactions: Array<TransactionEntry> = []
  const plans = Plans.make()
  const requests: Array<RequestEntry> = []
  let nextRequest = 1
  // message SHA-256 -> what handed it out (insertion order: the oldest go first)
  const served = new Map<string, Kind>()

  const transaction = (record: LandedRecord): void => {
    const message = messageOf(record.wire)
    const hash = message === undefined ? undefined : messageSha256(message)
    const known = hash === undefined
      ? undefined
      : plans.landed(hash, record.signature, record.err !== null) ?? served.get(hash)
    push(transactions, entryOf(record, message, known), limits.transactions)
    version++
  }

  return {
    transaction,
    served: (kind, label, wire) => {
      const message = messageOf(wire)
      if (message !== undefined) remember(served, messageSha256(message), { kind, label }, limits.served)
    },
    plan: (plan, wallet, tampered) => {
      plans.record(plan, wallet, tampered, now())
      version++
    },
    request: (input) => {
      push(requests, { id: nextRequest++, ...input }, limits.requests)
      version++
    },
    version: () => version,
    snapshot: (blockHeight) => ({
      version,
      transactions: [...transactions].reverse(),
      plans: plans.entries(blockHeight),
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
    Effect.map(
      ledger.transaction(landed.signature),
      Option.match({
        onNone: () => undefined,
        onSome: (record) => history.transaction(record)
      })
    )
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
 * claims, vault sweeps, v3 claims) remembered by the history, so that they are named when they land.
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
      const entries =
        (kind: string) =>
        <A extends { readonly transactions: ReadonlyArray<{ readonly transaction: string }> }>(
          result: A
        ): A => {
          for (const entry of result.transactions) {
            history.served(kind, "", new Uint8Array(base58.encode(entry.transaction)))
          }
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
              `${request.quoteResponse.inAmount} ${abbreviated(request.quoteResponse.inputMint)} → ${
                abbreviated(request.quoteResponse.outputMint)
              }`,
              new Uint8Array(base58.encode(result.swapTransaction))
            )),
        createConfig: (request) =>
          Effect.map(inner.createConfig(request), (answer) => {
            for (const entry of [...(answer.bundles ?? []).flat(), ...(answer.transactions ?? [])]) {
              history.served("create-config", request.baseMint, new Uint8Array(base58.encode(entry.transaction)))
            }
            return answer
          }),
        updateConfig: (request) =>
          Effect.map(inner.updateConfig(request), entries("update-config")),
        partnerClaim: (wallet) => Effect.map(inner.partnerClaim(wallet), entries("partner-claim")),
        claimVault: (request, hostile) =>
          Effect.tap(inner.claimVault(request, hostile), (answer) =>
            history.served(
              "vault-sweep",
              `${request.kind} vault of ${abbreviated(request.wallet)}: ${answer.claimable.claimableAmount} raw ${
                abbreviated(request.quoteMint)
              }`,
              new Uint8Array(base58.encode(answer.transaction))
            )),
        deployerClaim: (request, hostile) =>
          Effect.map(inner.deployerClaim(request, hostile), (batch) => {
            for (const entry of batch.transactions) {
              history.served(
                "vault-sweep",
                `deployer vault of ${abbreviated(request.wallet)}`,
                new Uint8Array(base58.encode(entry.transaction))
              )
            }
            return batch
          }),
        claimV3: (request) =>
          Effect.map(inner.claimV3(request), (answer) => {
            for (const entry of answer) {
              history.served("claim-v3", request.tokenMint, new Uint8Array(base58.encode(entry.tx)))
            }
            return answer
          })
      }
      return service
    })
  ).pipe(Layer.provide(market))
