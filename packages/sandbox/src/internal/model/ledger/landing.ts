/**
 * Transactions onto the ledger: simulation (against the transaction's blockhash or the
 * latest), landing (status, record, then the watchers, before the sender gets an answer),
 * `send` with its preflight and deterministic drops, and `submit` for the sandbox's own set-up
 * transactions.
 */
import type { BundleRelay } from "@feeshare/domain"
import * as LookupTable from "@feeshare/solana/LookupTable"
import { build } from "@feeshare/solana/StageBuilder"
import {
  type Address,
  type EncodedAccount,
  getCompiledTransactionMessageDecoder,
  type Instruction,
  type KeyPairSigner,
  lamports
} from "@solana/kit"
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
  /**
   * Lands signed wire transactions together, in order, or none of them: when one fails, every
   * account any of them touched (static or loaded through a lookup table) is restored and
   * nothing is recorded; the answer names the failed transaction.
   */
  readonly bundle: (wires: ReadonlyArray<Uint8Array>) => Effect.Effect<BundleRelay.RelayAnswer, LedgerError>
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
        yield* watchers.landed({
          signature,
          slot: clock.slot(),
          blockTime: Math.floor(now / 1000),
          err,
          messageSha256: decoded.messageSha256
        })
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

    const messageDecoder = getCompiledTransactionMessageDecoder()

    /** Every account a transaction may touch: its static keys and those its lookup tables load. */
    const touched = (decoded: Decoded): ReadonlyArray<Address> => {
      const compiled = messageDecoder.decode(decoded.transaction.messageBytes)
      const out: Array<Address> = [...decoded.accountKeys]
      if ("addressTableLookups" in compiled) {
        for (const lookup of compiled.addressTableLookups ?? []) {
          const account = svm.getAccount(lookup.lookupTableAddress)
          const held = account.exists ? LookupTable.addressesOf(new Uint8Array(account.data)) ?? [] : []
          for (const i of [...lookup.writableIndexes, ...lookup.readonlyIndexes]) {
            const address = held[i]
            if (address !== undefined) out.push(address)
          }
        }
      }
      return out
    }

    const bundle = Effect.fn("Ledger.bundle")(function*(wires: ReadonlyArray<Uint8Array>) {
      const decoded = yield* Effect.forEach(wires, decode)
      const signatures: Array<string> = []
      for (const [index, d] of decoded.entries()) {
        if (d.signature === undefined) {
          return yield* new LedgerError({ code: -32003, message: `bundle transaction ${index}: not signed` })
        }
        signatures.push(d.signature)
      }
      const refused = (index: number, error: string): BundleRelay.RelayAnswer => ({
        landed: false,
        signatures,
        slot: null,
        failed: { index, signature: signatures[index] ?? "", error }
      })
      for (const [index, d] of decoded.entries()) {
        if (!clock.isValid(d.lifetimeToken)) return refused(index, "BlockhashNotFound")
        if (records.has(d.signature ?? "")) return refused(index, "AlreadyProcessed")
      }
      // synchronous from the snapshot to the commit or the restore: nothing else runs between
      const keys = [...new Set(decoded.flatMap(touched))]
      const snapshot = keys.map((key) => [key, svm.getAccount(key)] as const)
      const executed: Array<{ pre: Array<bigint>; post: Array<bigint>; logs: Array<string>; units: bigint }> = []
      for (const [index, d] of decoded.entries()) {
        const pre = d.accountKeys.map((key) => svm.getBalance(key) ?? 0n)
        const result = svm.sendTransaction(d.transaction)
        if (result instanceof FailedTransactionMetadata) {
          for (const [key, account] of snapshot) {
            const restored: EncodedAccount = account.exists
              ? account
              : {
                address: key,
                data: new Uint8Array(0),
                executable: false,
                lamports: lamports(0n),
                programAddress: "11111111111111111111111111111111" as Address,
                space: 0n
              }
            svm.setAccount(restored)
          }
          return refused(index, JSON.stringify(TransactionError.fromFailed(result)))
        }
        executed.push({
          pre,
          post: d.accountKeys.map((key) => svm.getBalance(key) ?? 0n),
          logs: result.logs(),
          units: result.computeUnitsConsumed()
        })
      }
      const slot = clock.slot()
      const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
      for (const [index, d] of decoded.entries()) {
        const signature = signatures[index]!
        const run = executed[index]!
        records.landed(signature, slot, null)
        records.record({
          signature,
          slot,
          blockTime: Math.floor(now / 1000),
          wire: wires[index]!,
          version: d.version,
          fee: d.fee,
          accountKeys: d.accountKeys,
          preBalances: run.pre,
          postBalances: run.post,
          logs: run.logs,
          computeUnitsConsumed: run.units,
          err: null
        })
        yield* watchers.landed({
          signature,
          slot,
          blockTime: Math.floor(now / 1000),
          err: null,
          messageSha256: d.messageSha256
        })
      }
      const answer: BundleRelay.RelayAnswer = { landed: true, signatures, slot: Number(slot), failed: null }
      return answer
    })

    const landing: Landing = { land, simulate, send, bundle, submit }
    return landing
  })
