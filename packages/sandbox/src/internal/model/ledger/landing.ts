/**
 * Transactions onto the ledger: simulation (against the transaction's blockhash or the
 * latest), landing (status, record, then the watchers, before the sender gets an answer),
 * `send` with its preflight and deterministic drops, and `submit` for the sandbox's own set-up
 * transactions.
 */
import { build } from "@feeshare/solana/StageBuilder"
import type { Instruction, KeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import { FailedTransactionMetadata, type LiteSVM } from "litesvm"
import { memo, memoText } from "../programs.js"
import * as Seeded from "../seeded.js"
import * as TransactionError from "../transactionError.js"
import type { BlockClock } from "./clock.js"
import {
  invalidParams,
  LedgerError,
  preflightFailure,
  type SendOptions,
  type SimulateOptions,
  type Simulation
} from "./models.js"
import type { Records } from "./records.js"
import type { Watchers } from "./watchers.js"
import { decode, type Decoded } from "./wire.js"

/** A number in [0, 1) from the seed and a label: deterministic drops. */
const uniform = (seed: string, label: string): number =>
  Number(Buffer.from(Seeded.derive(seed, label)).readBigUInt64BE(0) >> 11n) / 2 ** 53

/** What landing needs of the ledger. */
export interface Parts {
  readonly svm: LiteSVM
  readonly clock: BlockClock
  readonly records: Records
  readonly watchers: Watchers
  readonly seed: string
  /** The share of sent transactions dropped (decided from the seed and the signature). */
  readonly dropRate: number
}

/** Transactions onto one ledger. */
export interface Landing {
  /** Executes a decoded transaction; unless `skipPreflight`, a failing one is refused and nothing changes. */
  readonly land: (
    decoded: Decoded,
    signature: string,
    wire: Uint8Array,
    skipPreflight: boolean
  ) => Effect.Effect<string, LedgerError>
  readonly simulate: (decoded: Decoded, options: SimulateOptions) => Simulation
  /** Accepts a wire transaction; answers its signature (landed now, or dropped). */
  readonly send: (wire: Uint8Array, options?: SendOptions) => Effect.Effect<string, LedgerError>
  /** Lands a set-up transaction of the sandbox at once, on the latest blockhash, never dropped. */
  readonly submit: (
    instructions: ReadonlyArray<Instruction>,
    signers: readonly [KeyPairSigner, ...Array<KeyPairSigner>]
  ) => Effect.Effect<string, LedgerError>
}

/** Simulating, landing, sending and submitting on one ledger. */
export const make = (parts: Parts) =>
  Effect.gen(function*() {
    const { clock, records, svm, watchers } = parts

    const land = (decoded: Decoded, signature: string, wire: Uint8Array, skipPreflight: boolean) =>
      Effect.gen(function*() {
        const pre = decoded.accountKeys.map((key) => svm.getBalance(key) ?? 0n)
        const result = svm.sendTransaction(decoded.transaction)
        const failed = result instanceof FailedTransactionMetadata
        const meta = failed ? result.meta() : result
        const err = failed ? TransactionError.fromFailed(result) : null
        if (failed && !skipPreflight) {
          return yield* preflightFailure(err ?? "", meta.logs(), meta.computeUnitsConsumed())
        }
        records.landed(signature, clock.slot(), err)
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        records.record({
          signature,
          slot: clock.slot(),
          blockTime: Math.floor(now / 1000),
          wire,
          version: decoded.version,
          fee: failed ? 0n : decoded.fee,
          accountKeys: decoded.accountKeys,
          preBalances: pre,
          postBalances: decoded.accountKeys.map((key) => svm.getBalance(key) ?? 0n),
          logs: meta.logs(),
          computeUnitsConsumed: meta.computeUnitsConsumed(),
          err
        })
        yield* watchers.landed({ signature, slot: clock.slot(), err, messageSha256: decoded.messageSha256 })
        return signature
      })

    const simulate = (decoded: Decoded, options: SimulateOptions): Simulation => {
      const replacement = options.replaceRecentBlockhash === true
      if (!replacement && !clock.isValid(decoded.lifetimeToken)) {
        return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n, replacementBlockhash: null }
      }
      const sigVerify = options.sigVerify === true
      if (!sigVerify) svm.withSigverify(false)
      try {
        const result = svm.simulateTransaction(decoded.transaction)
        const meta = result.meta()
        return {
          err: result instanceof FailedTransactionMetadata ? TransactionError.fromFailed(result) : null,
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          replacementBlockhash: replacement
            ? { blockhash: clock.state().blockhash, lastValidBlockHeight: clock.state().lastValidBlockHeight }
            : null
        }
      } finally {
        if (!sigVerify) svm.withSigverify(true)
      }
    }

    const send = Effect.fn("Ledger.send")(function*(wire: Uint8Array, options?: SendOptions) {
      const decoded = yield* decode(wire)
      const skipPreflight = options?.skipPreflight === true
      if (decoded.signature === undefined) {
        return yield* new LedgerError({ code: -32003, message: "Transaction signature verification failure" })
      }
      const signature = decoded.signature
      if (records.has(signature)) return signature
      if (!clock.isValid(decoded.lifetimeToken)) {
        if (skipPreflight) return signature
        return yield* preflightFailure("BlockhashNotFound", [], 0n)
      }
      if (!skipPreflight) {
        const simulation = simulate(decoded, { sigVerify: true })
        if (simulation.err !== null) {
          return yield* preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed)
        }
      }
      if (parts.dropRate > 0 && uniform(parts.seed, `drop:${signature}`) < parts.dropRate) {
        return signature
      }
      return yield* land(decoded, signature, wire, skipPreflight)
    })

    const submitLock = yield* Effect.makeSemaphore(1)
    let submitted = 0

    const submit = Effect.fn("Ledger.submit")(function*(
      instructions: ReadonlyArray<Instruction>,
      signers: readonly [KeyPairSigner, ...Array<KeyPairSigner>]
    ) {
      const life = clock.state()
      const built = yield* Effect.tryPromise({
        try: () =>
          build({
            format: "legacy",
            feePayer: signers[0].address,
            // numbered like airdrops, so identical set-up steps in one slot are distinct transactions
            instructions: [...instructions, memo(memoText.setup(++submitted))],
            lifetime: { blockhash: life.blockhash, lastValidBlockHeight: life.lastValidBlockHeight },
            signers
          }),
        catch: (error) =>
          invalidParams(`invalid set-up transaction: ${error instanceof Error ? error.message : String(error)}`)
      })
      const decoded = yield* decode(built.wire)
      return yield* submitLock.withPermits(1)(Effect.gen(function*() {
        const simulation = simulate(decoded, { sigVerify: true, replaceRecentBlockhash: true })
        if (simulation.err !== null) {
          return yield* preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed)
        }
        return yield* land(decoded, decoded.signature ?? "", built.wire, false)
      }))
    })

    const landing: Landing = { land, simulate, send, submit }
    return landing
  })
