/**
 * The sandbox's ledger: LiteSVM in-process with a block clock. Slots advance on a timer
 * (`Options.slotMillis`, driven by Effect's `Clock`, so `TestClock` controls it) or by
 * `advance(n)`; every slot has a new blockhash, valid until its block height +
 * `Options.blockhashValidity`. The ledger checks blockhash validity itself (LiteSVM's own
 * check only accepts its latest blockhash), reports signature statuses with a commitment
 * derived from the slot lag, drops a deterministic share (`Options.dropRate`, from the seed)
 * of sent transactions, keeps a history, and tells its listeners about every landed
 * transaction (that is how the market learns that a transaction it built has landed) and,
 * through `watch`, about every new slot (that is how `/rpc`'s WebSocket subscriptions notify).
 * Airdrops are real transfers from a faucet key (derived from the seed) that the ledger
 * refills as needed, so they never run dry and each one is in the history.
 *
 * @since 0.1.0
 */
import {
  type Address,
  getBase58Decoder,
  type Instruction,
  type KeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isAddress,
  lamports,
  type Transaction
} from "@solana/kit"
import { createHash } from "node:crypto"
import { Context, Duration, Effect, Layer, Option, Schema, type Scope } from "effect"
import { FailedTransactionMetadata, LiteSVM } from "litesvm"
import { build } from "@feeshare/solana/StageBuilder"
import { deriveSigner } from "./internal/keys.js"
import { memo, SYSTEM_PROGRAM, transferSol } from "./internal/programs.js"
import * as TransactionError from "./internal/transactionError.js"
import type { Options } from "./Options.js"

/**
 * A transaction error as a Solana JSON-RPC reports it (`"BlockhashNotFound"`,
 * `{ InstructionError: [0, { Custom: 1 }] }`, ...).
 *
 * @since 0.1.0
 * @category models
 */
export type RpcTransactionError = TransactionError.RpcTransactionError

/**
 * Commitment levels by slot lag: `confirmed` one slot after landing, `finalized` after
 * `finalizedAfterSlots`.
 *
 * @since 0.1.0
 * @category constants
 */
export const commitmentLag = { confirmedAfterSlots: 1n, finalizedAfterSlots: 32n } as const

/**
 * Block height = slot − this offset (the ledger has no skipped slots).
 *
 * @since 0.1.0
 * @category constants
 */
export const blockHeightOffset = 47_552_000n

/**
 * Slots a signature status stays in the recent-status cache; older ones need
 * `searchTransactionHistory`.
 *
 * @since 0.1.0
 * @category constants
 */
export const recentStatusSlots = 300n

/**
 * The most lamports one airdrop credits: 1,000,000 SOL. A larger request is refused.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxAirdropLamports = 1_000_000_000_000_000n

/**
 * The largest balance an account can hold (u64).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLamports = 18_446_744_073_709_551_615n

/**
 * A refusal the JSON-RPC endpoint reports as `{ code, message, data }` (−32602 bad
 * parameters, −32003 signature verification, −32002 preflight failure with the logs).
 *
 * @since 0.1.0
 * @category errors
 */
export class LedgerError extends Schema.TaggedError<LedgerError>()("LedgerError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalWith(Schema.Unknown, { exact: true })
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface ClockState {
  readonly slot: bigint
  readonly blockHeight: bigint
  /** The latest blockhash and the last block height at which it is valid. */
  readonly blockhash: string
  readonly lastValidBlockHeight: bigint
}

/**
 * A transaction that landed (successfully or with an error) at `slot`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Landed {
  readonly signature: string
  readonly slot: bigint
  readonly err: RpcTransactionError | null
  /** Hex SHA-256 of the message bytes: the same whoever signed it. */
  readonly messageSha256: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type Commitment = "processed" | "confirmed" | "finalized"

/**
 * @since 0.1.0
 * @category models
 */
export interface SignatureStatus {
  readonly slot: bigint
  /** `null` once finalized, like a real RPC. */
  readonly confirmations: bigint | null
  readonly err: RpcTransactionError | null
  readonly confirmationStatus: Commitment
}

/**
 * A landed transaction, as `getTransaction` reports it.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionRecord {
  readonly signature: string
  readonly slot: bigint
  /** Unix seconds. */
  readonly blockTime: number
  readonly wire: Uint8Array
  readonly version: "legacy" | 0 | 1
  readonly fee: bigint
  readonly accountKeys: ReadonlyArray<string>
  readonly preBalances: ReadonlyArray<bigint>
  readonly postBalances: ReadonlyArray<bigint>
  readonly logs: ReadonlyArray<string>
  readonly computeUnitsConsumed: bigint
  readonly err: RpcTransactionError | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Simulation {
  readonly err: RpcTransactionError | null
  readonly logs: ReadonlyArray<string>
  readonly unitsConsumed: bigint
  readonly replacementBlockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint } | null
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AccountView {
  readonly lamports: bigint
  readonly owner: string
  readonly data: Uint8Array
  readonly executable: boolean
}

/**
 * What `watch` runs, synchronously with the change: `landed` for every landed transaction
 * (before `send` answers), `slots` with the new slots of every clock move, ascending, once the
 * clock shows the last of them (at most 512 per move: the slots that got a blockhash).
 *
 * @since 0.1.0
 * @category models
 */
export interface Watcher {
  readonly landed?: ((landed: Landed) => Effect.Effect<void>) | undefined
  readonly slots?: ((slots: ReadonlyArray<bigint>) => Effect.Effect<void>) | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SendOptions {
  /** Skip the simulation: a failing transaction then lands with its error. */
  readonly skipPreflight?: boolean
}

/**
 * @since 0.1.0
 * @category models
 */
export interface SimulateOptions {
  /** Check signatures (default false, as a real RPC's `sigVerify`). */
  readonly sigVerify?: boolean
  /** Simulate against the latest blockhash whatever the transaction's. */
  readonly replaceRecentBlockhash?: boolean
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Ledger extends Context.Tag("@feeshare/sandbox/Ledger")<Ledger, Ledger.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Ledger {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    readonly clock: Effect.Effect<ClockState>
    /** Moves the block clock `slots` forward (each slot gets a new blockhash). */
    readonly advance: (slots: number) => Effect.Effect<ClockState>
    /** The epoch of the Clock sysvar (what programs such as Token-2022 read). */
    readonly epoch: Effect.Effect<bigint>
    /**
     * Moves the Clock sysvar's epoch `epochs` forward, and nothing else: slots, block heights and
     * blockhashes stay, so transactions built before stay valid. Answers the new epoch.
     */
    readonly advanceEpochs: (epochs: number) => Effect.Effect<bigint>
    /**
     * Lands a transaction of the sandbox itself (a set-up step: a mint, a fee schedule) at once,
     * on the latest blockhash, paid by the first signer, with a numbered memo; never dropped. When it would fail it is
     * refused with code −32002 and the ledger's error, and nothing changes.
     */
    readonly submit: (
      instructions: ReadonlyArray<Instruction>,
      signers: readonly [KeyPairSigner, ...Array<KeyPairSigner>]
    ) => Effect.Effect<string, LedgerError>
    /** Whether a blockhash is known and still valid at the current block height. */
    readonly isBlockhashValid: (blockhash: string) => Effect.Effect<boolean>
    /** Accepts a wire transaction; answers its signature (landed now, or dropped). */
    readonly send: (wire: Uint8Array, options?: SendOptions) => Effect.Effect<string, LedgerError>
    readonly simulate: (wire: Uint8Array, options?: SimulateOptions) => Effect.Effect<Simulation, LedgerError>
    readonly statuses: (
      signatures: ReadonlyArray<string>,
      searchTransactionHistory: boolean
    ) => Effect.Effect<ReadonlyArray<SignatureStatus | null>>
    readonly transaction: (signature: string) => Effect.Effect<Option.Option<TransactionRecord>>
    /**
     * Credits `lamports` (1 to `maxAirdropLamports`) to `address` with a transfer from the
     * ledger's faucet that lands at once and is in the history like any transaction. The faucet
     * is refilled whenever it cannot cover a request, so it never runs dry; each airdrop carries
     * a numbered memo, so identical requests in one slot are distinct transactions. Refused with
     * code −32602 (and nothing credited) past the per-request limit, past the u64 balance limit,
     * or when it would leave a new account below the rent-exempt minimum.
     */
    readonly airdrop: (address: string, lamports: bigint) => Effect.Effect<string, LedgerError>
    readonly balance: (address: string) => Effect.Effect<bigint>
    readonly account: (address: string) => Effect.Effect<Option.Option<AccountView>>
    readonly minimumBalance: (dataLength: number) => bigint
    /** Registers a listener run for every landed transaction, before `send` answers. */
    readonly onLanded: (listener: (landed: Landed) => Effect.Effect<void>) => Effect.Effect<void>
    /** Registers a `Watcher` until the scope closes. */
    readonly watch: (watcher: Watcher) => Effect.Effect<void, never, Scope.Scope>
  }
}

const base58 = getBase58Decoder()
const transactionDecoder = getTransactionDecoder()
const messageDecoder = getCompiledTransactionMessageDecoder()

const sha256 = (bytes: Uint8Array | string): Buffer => createHash("sha256").update(bytes).digest()

/** A number in [0, 1) from the seed and a label: deterministic drops. */
const uniform = (seed: string, label: string): number =>
  Number(sha256(`${seed}\u0000${label}`).readBigUInt64BE(0) >> 11n) / 2 ** 53

const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111"

interface Bytes {
  readonly buffer: ArrayBufferLike
  readonly byteOffset: number
  readonly byteLength: number
  readonly length: number
  readonly [index: number]: number
}

const u32At = (data: Bytes, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)
const u64At = (data: Bytes, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)

/** 5000 lamports per signature plus the priority fee the message asks for. */
const feeOf = (messageBytes: Transaction["messageBytes"]): bigint => {
  const compiled = messageDecoder.decode(messageBytes)
  const base = 5_000n * BigInt(compiled.header.numSignerAccounts)
  if (compiled.version === 1) {
    const mask = u32At(messageBytes, 4)
    if ((mask & 3) !== 3) return base
    return base + u64At(messageBytes, 42 + 32 * compiled.staticAccounts.length)
  }
  let limit: bigint | undefined
  let price = 0n
  let others = 0n
  for (const instruction of compiled.instructions) {
    const data = instruction.data
    if (compiled.staticAccounts[instruction.programAddressIndex] !== COMPUTE_BUDGET || data === undefined) {
      others++
      continue
    }
    if (data[0] === 2 && data.length >= 5) limit = BigInt(u32At(data, 1))
    if (data[0] === 3 && data.length >= 9) price = u64At(data, 1)
  }
  const units = limit ?? (others * 200_000n > 1_400_000n ? 1_400_000n : others * 200_000n)
  return base + (units * price + 999_999n) / 1_000_000n
}

interface Decoded {
  readonly transaction: Transaction
  readonly signature: string | undefined
  readonly lifetimeToken: string
  readonly accountKeys: ReadonlyArray<Address>
  readonly version: "legacy" | 0 | 1
  readonly messageSha256: string
  readonly fee: bigint
}

const decode = (wire: Uint8Array): Effect.Effect<Decoded, LedgerError> =>
  Effect.try({
    try: (): Decoded => {
      const transaction = transactionDecoder.decode(wire)
      const [compiled, end] = messageDecoder.read(transaction.messageBytes, 0)
      if (end !== transaction.messageBytes.length) throw new Error("trailing bytes after the message")
      const first = Object.values(transaction.signatures)[0]
      return {
        transaction,
        signature: first ? base58.decode(first) : undefined,
        lifetimeToken: compiled.lifetimeToken,
        accountKeys: compiled.staticAccounts,
        version: compiled.version,
        messageSha256: sha256(new Uint8Array(transaction.messageBytes)).toString("hex"),
        fee: feeOf(transaction.messageBytes)
      }
    },
    catch: (cause) =>
      new LedgerError({
        code: -32602,
        message: `invalid transaction: ${cause instanceof Error ? cause.message : String(cause)}`
      })
  })

const invalidParams = (message: string) => new LedgerError({ code: -32602, message })

/** The fee of an airdrop (one signature), paid by the faucet. */
const faucetFee = 5_000n

/** What the faucet holds after a refill: ten requests at the limit. */
const faucetRefill = 10n * maxAirdropLamports

const preflightFailure = (err: RpcTransactionError, logs: ReadonlyArray<string>, unitsConsumed: bigint) =>
  new LedgerError({
    code: -32002,
    message: `Transaction simulation failed: ${typeof err === "string" ? err : JSON.stringify(err)}`,
    data: { err, logs, accounts: null, unitsConsumed: Number(unitsConsumed), returnData: null }
  })

/**
 * A ledger on a fresh LiteSVM, deterministic from `options.seed`. The block clock ticks
 * every `options.slotMillis` (no ticking when it is 0 or less) in a fiber of the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Pick<Options, "seed" | "slotMillis" | "dropRate" | "blockhashValidity">) =>
  Effect.gen(function*() {
    const svm = new LiteSVM().withNativeMints().withBlockhashCheck(false)
    const validity = BigInt(Math.max(0, Math.floor(options.blockhashValidity)))
    let slot = svm.getClock().slot
    const heightOf = (s: bigint) => s - blockHeightOffset
    let latest: string = svm.latestBlockhash()
    const blockhashes = new Map<string, bigint>([[latest, heightOf(slot) + validity]])
    let slotHashes: Array<{ slot: bigint; hash: string }> = svm.getSlotHashes().map((s) => ({ slot: s.slot, hash: s.hash }))
    const statuses = new Map<string, { slot: bigint; err: RpcTransactionError | null }>()
    const history = new Map<string, TransactionRecord>()
    const watchers = new Set<Watcher>()

    const clockState = (): ClockState => ({
      slot,
      blockHeight: heightOf(slot),
      blockhash: latest,
      lastValidBlockHeight: blockhashes.get(latest) ?? heightOf(slot) + validity
    })

    /** Moves the clock; answers the slots that got a blockhash, ascending. */
    const step = (n: number): ReadonlyArray<bigint> => {
      if (n <= 0) return []
      const fresh = Math.min(n, 512)
      slot += BigInt(n - fresh)
      const added: Array<{ slot: bigint; hash: string }> = []
      for (let i = 0; i < fresh; i++) {
        slot += 1n
        svm.expireBlockhash()
        latest = svm.latestBlockhash()
        blockhashes.set(latest, heightOf(slot) + validity)
        added.push({ slot, hash: latest })
      }
      svm.warpToSlot(slot)
      slotHashes = [...[...added].reverse(), ...slotHashes].slice(0, 512)
      svm.setSlotHashes(slotHashes)
      const height = heightOf(slot)
      for (const [hash, lastValid] of blockhashes) if (lastValid < height) blockhashes.delete(hash)
      return added.map((entry) => entry.slot)
    }

    const advance = (n: number) =>
      Effect.gen(function*() {
        const slots = step(n)
        if (slots.length > 0) {
          for (const watcher of [...watchers]) if (watcher.slots !== undefined) yield* watcher.slots(slots)
        }
        return clockState()
      })

    const isValid = (blockhash: string) => {
      const lastValid = blockhashes.get(blockhash)
      return lastValid !== undefined && heightOf(slot) <= lastValid
    }

    const land = (decoded: Decoded, signature: string, wire: Uint8Array, skipPreflight: boolean) =>
      Effect.gen(function*() {
        const pre = decoded.accountKeys.map((key) => svm.getBalance(key) ?? 0n)
        const result = svm.sendTransaction(decoded.transaction)
        const failed = result instanceof FailedTransactionMetadata
        const meta = failed ? result.meta() : result
        const err = failed ? TransactionError.fromFailed(result) : null
        if (failed && !skipPreflight) return yield* preflightFailure(err ?? "", meta.logs(), meta.computeUnitsConsumed())
        statuses.set(signature, { slot, err })
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        history.set(signature, {
          signature,
          slot,
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
        const landed: Landed = { signature, slot, err, messageSha256: decoded.messageSha256 }
        for (const watcher of [...watchers]) if (watcher.landed !== undefined) yield* watcher.landed(landed)
        return signature
      })

    const simulateDecoded = (decoded: Decoded, simulate: SimulateOptions): Simulation => {
      const replacement = simulate.replaceRecentBlockhash === true
      if (!replacement && !isValid(decoded.lifetimeToken)) {
        return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n, replacementBlockhash: null }
      }
      const sigVerify = simulate.sigVerify === true
      if (!sigVerify) svm.withSigverify(false)
      try {
        const result = svm.simulateTransaction(decoded.transaction)
        const meta = result.meta()
        return {
          err: result instanceof FailedTransactionMetadata ? TransactionError.fromFailed(result) : null,
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          replacementBlockhash: replacement
            ? { blockhash: latest, lastValidBlockHeight: clockState().lastValidBlockHeight }
            : null
        }
      } finally {
        if (!sigVerify) svm.withSigverify(true)
      }
    }

    const send = Effect.fn("Ledger.send")(function*(wire: Uint8Array, sendOptions?: SendOptions) {
      const decoded = yield* decode(wire)
      const skipPreflight = sendOptions?.skipPreflight === true
      if (decoded.signature === undefined) {
        return yield* new LedgerError({ code: -32003, message: "Transaction signature verification failure" })
      }
      const signature = decoded.signature
      if (statuses.has(signature)) return signature
      if (!isValid(decoded.lifetimeToken)) {
        if (skipPreflight) return signature
        return yield* preflightFailure("BlockhashNotFound", [], 0n)
      }
      if (!skipPreflight) {
        const simulation = simulateDecoded(decoded, { sigVerify: true })
        if (simulation.err !== null) return yield* preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed)
      }
      if (options.dropRate > 0 && uniform(options.seed, `drop:${signature}`) < options.dropRate) return signature
      return yield* land(decoded, signature, wire, skipPreflight)
    })

    const faucet = yield* Effect.promise(() => deriveSigner(options.seed, "ledger/faucet"))
    const airdropLock = yield* Effect.makeSemaphore(1)
    let airdrops = 0

    /** Mints lamports into the faucet when it cannot cover `amount` and the fee. */
    const refillFaucet = (amount: bigint) => {
      if ((svm.getBalance(faucet.address) ?? 0n) >= amount + faucetFee) return
      svm.setAccount({
        address: faucet.address,
        lamports: lamports(faucetRefill),
        data: new Uint8Array(),
        programAddress: SYSTEM_PROGRAM,
        executable: false,
        space: 0n
      })
    }

    const airdrop = Effect.fn("Ledger.airdrop")(function*(recipient: string, amount: bigint) {
      if (!isAddress(recipient)) return yield* invalidParams(`address: ${recipient} is not a base58 public key`)
      if (amount <= 0n || amount > maxAirdropLamports) {
        return yield* invalidParams(
          `lamports must be between 1 and ${maxAirdropLamports} (1,000,000 SOL) per airdrop; got ${amount}`
        )
      }
      if (recipient === faucet.address) return yield* invalidParams(`address: ${recipient} is the faucet itself`)
      const life = clockState()
      const built = yield* Effect.tryPromise({
        try: () =>
          build({
            format: "legacy",
            feePayer: faucet.address,
            instructions: [transferSol(faucet.address, recipient, amount), memo(`sandbox airdrop #${++airdrops}`)],
            lifetime: { blockhash: life.blockhash, lastValidBlockHeight: life.lastValidBlockHeight },
            signers: [faucet]
          }),
        catch: (error) =>
          invalidParams(
            `address: ${recipient} cannot receive lamports (${error instanceof Error ? error.message : String(error)})`
          )
      })
      const decoded = yield* decode(built.wire)
      const signature = decoded.signature ?? ""
      return yield* airdropLock.withPermits(1)(Effect.gen(function*() {
        const balance = svm.getBalance(recipient) ?? 0n
        if (balance + amount > maxLamports) {
          return yield* invalidParams(
            `lamports: ${amount} would take the balance of ${recipient} (${balance}) past the u64 maximum ${maxLamports}`
          )
        }
        refillFaucet(amount)
        const simulation = simulateDecoded(decoded, { sigVerify: false, replaceRecentBlockhash: true })
        if (simulation.err !== null) return yield* invalidParams(airdropRefusal(recipient, amount, simulation.err))
        return yield* land(decoded, signature, built.wire, false)
      }))
    })

    const airdropRefusal = (recipient: string, amount: bigint, err: RpcTransactionError): string => {
      if (typeof err === "object" && "InsufficientFundsForRent" in err) {
        return `lamports: ${amount} would leave ${recipient} below the rent-exempt minimum of ${
          svm.minimumBalanceForRentExemption(0n)
        } lamports`
      }
      if (JSON.stringify(err) === JSON.stringify({ InstructionError: [0, "ReadonlyLamportChange"] })) {
        return `address: ${recipient} is a reserved account (a sysvar or a builtin program) whose lamports cannot change`
      }
      return `address: ${recipient} cannot receive lamports (the transfer fails with ${JSON.stringify(err)})`
    }

    const submitLock = yield* Effect.makeSemaphore(1)
    let submitted = 0

    const submit = Effect.fn("Ledger.submit")(function*(
      instructions: ReadonlyArray<Instruction>,
      signers: readonly [KeyPairSigner, ...Array<KeyPairSigner>]
    ) {
      const life = clockState()
      const built = yield* Effect.tryPromise({
        try: () =>
          build({
            format: "legacy",
            feePayer: signers[0].address,
            // numbered like airdrops, so identical set-up steps in one slot are distinct transactions
            instructions: [...instructions, memo(`sandbox set-up #${++submitted}`)],
            lifetime: { blockhash: life.blockhash, lastValidBlockHeight: life.lastValidBlockHeight },
            signers
          }),
        catch: (error) => invalidParams(`invalid set-up transaction: ${error instanceof Error ? error.message : String(error)}`)
      })
      const decoded = yield* decode(built.wire)
      return yield* submitLock.withPermits(1)(Effect.gen(function*() {
        const simulation = simulateDecoded(decoded, { sigVerify: true, replaceRecentBlockhash: true })
        if (simulation.err !== null) return yield* preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed)
        return yield* land(decoded, decoded.signature ?? "", built.wire, false)
      }))
    })

    const advanceEpochs = (epochs: number) =>
      Effect.sync(() => {
        const clock = svm.getClock()
        clock.epoch = clock.epoch + BigInt(Math.max(0, Math.floor(epochs)))
        clock.leaderScheduleEpoch = clock.epoch + 1n
        clock.epochStartTimestamp = clock.unixTimestamp
        svm.setClock(clock)
        return clock.epoch
      })

    const statusOf = (signature: string, search: boolean): SignatureStatus | null => {
      const status = statuses.get(signature)
      if (status === undefined) return null
      const lag = slot - status.slot
      if (!search && lag > recentStatusSlots) return null
      const confirmationStatus: Commitment = lag >= commitmentLag.finalizedAfterSlots
        ? "finalized"
        : lag >= commitmentLag.confirmedAfterSlots
        ? "confirmed"
        : "processed"
      return {
        slot: status.slot,
        confirmations: confirmationStatus === "finalized" ? null : lag,
        err: status.err,
        confirmationStatus
      }
    }

    const service: Ledger.Service = {
      clock: Effect.sync(clockState),
      advance,
      epoch: Effect.sync(() => svm.getClock().epoch),
      advanceEpochs,
      submit,
      isBlockhashValid: (blockhash) => Effect.sync(() => isValid(blockhash)),
      send,
      simulate: (wire, simulate = {}) => Effect.map(decode(wire), (decoded) => simulateDecoded(decoded, simulate)),
      statuses: (signatures, search) => Effect.sync(() => signatures.map((signature) => statusOf(signature, search))),
      transaction: (signature) => Effect.sync(() => Option.fromNullable(history.get(signature))),
      airdrop,
      balance: (address) => Effect.sync(() => svm.getBalance(address as Address) ?? 0n),
      account: (address) =>
        Effect.sync(() => {
          const account = svm.getAccount(address as Address)
          return account.exists
            ? Option.some({
              lamports: account.lamports,
              owner: account.programAddress,
              data: new Uint8Array(account.data),
              executable: account.executable
            })
            : Option.none()
        }),
      minimumBalance: (dataLength) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
      onLanded: (listener) => Effect.sync(() => void watchers.add({ landed: listener })),
      watch: (watcher) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            // a watcher of its own, so the same one can be registered twice and removed once
            const registered: Watcher = { landed: watcher.landed, slots: watcher.slots }
            watchers.add(registered)
            return registered
          }),
          (registered) => Effect.sync(() => void watchers.delete(registered))
        ).pipe(Effect.asVoid)
    }

    if (options.slotMillis > 0) {
      yield* Effect.forkScoped(
        Effect.forever(Effect.zipRight(Effect.sleep(Duration.millis(options.slotMillis)), service.advance(1)))
      )
    }
    return service
  })

/**
 * The ledger as a layer; its block clock runs while the layer is alive.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Pick<Options, "seed" | "slotMillis" | "dropRate" | "blockhashValidity">) =>
  Layer.scoped(Ledger, make(options))
