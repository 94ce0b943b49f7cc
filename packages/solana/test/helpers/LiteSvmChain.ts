// The Chain port over an in-process LiteSVM ledger: every accepted transaction executes at
// once in its own slot (so lookup-table entries extended in one transaction are usable by
// the next); block height is the number of transactions executed; preflight simulates.
import { PublicKey } from "@feeshare/domain"
import { getTransactionDecoder } from "@solana/kit"
import { Duration, Effect, Option } from "effect"
import { FailedTransactionMetadata, type LiteSVM } from "litesvm"
import * as Chain from "../../src/Chain.js"

type SvmTransaction = Parameters<LiteSVM["sendTransaction"]>[0]

interface Status {
  readonly slot: bigint
  readonly err: string | null
  readonly logs: ReadonlyArray<string>
}

export interface LiteSvmChain {
  readonly service: Chain.Chain.Service
  /** Every `send` call: signature and whether it was a first submission. */
  readonly sends: Array<{ readonly signature: string; readonly first: boolean }>
}

export const make = (svm: LiteSVM, options: { readonly baseHeight?: bigint } = {}): LiteSvmChain => {
  const statuses = new Map<string, Status>()
  const sends: Array<{ signature: string; first: boolean }> = []
  let height = options.baseHeight ?? 100n

  const service: Chain.Chain.Service = {
    send: (wire, { skipPreflight }) =>
      Effect.gen(function*() {
        const transaction = getTransactionDecoder().decode(wire)
        const first = Object.values(transaction.signatures)[0]
        const signature = first ? PublicKey.base58.encode(first) : ""
        sends.push({ signature, first: !statuses.has(signature) })
        if (statuses.has(signature)) return signature
        const tx = transaction as SvmTransaction
        if (!skipPreflight) {
          const simulated = svm.simulateTransaction(tx)
          if (simulated instanceof FailedTransactionMetadata) {
            return yield* new Chain.PreflightFailed({
              signature,
              error: String(simulated.err()),
              logs: simulated.meta().logs(),
              message: `preflight failed: ${simulated.toString()}`
            })
          }
        }
        const result = svm.sendTransaction(tx)
        const slot = svm.getClock().slot
        statuses.set(
          signature,
          result instanceof FailedTransactionMetadata
            ? { slot, err: result.toString(), logs: result.meta().logs() }
            : { slot, err: null, logs: result.logs() }
        )
        svm.warpToSlot(slot + 1n)
        height++
        return signature
      }),
    signatureStatus: (signature) =>
      Effect.sync(() =>
        Option.fromNullable(statuses.get(signature)).pipe(
          Option.map((s) => ({ slot: s.slot, confirmationStatus: "finalized" as const, err: s.err }))
        )
      ),
    blockHeight: () => Effect.sync(() => height),
    lastValidBlockHeight: () => Effect.sync(() => height + 150n),
    logs: (signature) => Effect.sync(() => statuses.get(signature)?.logs ?? []),
    pollInterval: Duration.zero
  }
  return { service, sends }
}
