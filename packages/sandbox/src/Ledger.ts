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
import type { Address, Instruction, KeyPairSigner } from "@solana/kit"
import { Context, Duration, Effect, Layer, Option, type Scope } from "effect"
import { LiteSVM } from "litesvm"
import * as BlockClock from "./internal/ledger/clock.js"
import * as Faucet from "./internal/ledger/faucet.js"
import * as Landing from "./internal/ledger/landing.js"
import type {
  AccountView,
  ClockState,
  Landed,
  LedgerError,
  SendOptions,
  SignatureStatus,
  SimulateOptions,
  Simulation,
  TransactionRecord,
  Watcher
} from "./internal/ledger/models.js"
import * as Records from "./internal/ledger/records.js"
import * as Watchers from "./internal/ledger/watchers.js"
import { decode } from "./internal/ledger/wire.js"
import type { Options } from "./Options.js"

export { blockHeightOffset } from "./internal/ledger/clock.js"
export { maxAirdropLamports, maxLamports } from "./internal/ledger/faucet.js"
export {
  type AccountView,
  type ClockState,
  type Commitment,
  type Landed,
  LedgerError,
  type RpcTransactionError,
  type SendOptions,
  type SignatureStatus,
  type SimulateOptions,
  type Simulation,
  type TransactionRecord,
  type Watcher
} from "./internal/ledger/models.js"
export { commitmentLag, recentStatusSlots } from "./internal/ledger/records.js"

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
    const clock = BlockClock.make(svm, options.blockhashValidity)
    const records = Records.make()
    const watchers = Watchers.make()
    const landing = yield* Landing.make({
      svm,
      clock,
      records,
      watchers,
      seed: options.seed,
      dropRate: options.dropRate
    })
    const airdrop = yield* Faucet.make({ svm, clock, landing, seed: options.seed })

    const service: Ledger.Service = {
      clock: Effect.sync(clock.state),
      advance: (slots) =>
        Effect.suspend(() => watchers.slots(clock.step(slots))).pipe(Effect.zipRight(Effect.sync(clock.state))),
      epoch: Effect.sync(clock.epoch),
      advanceEpochs: (epochs) => Effect.sync(() => clock.advanceEpochs(epochs)),
      submit: landing.submit,
      isBlockhashValid: (blockhash) => Effect.sync(() => clock.isValid(blockhash)),
      send: landing.send,
      simulate: (wire, simulate = {}) => Effect.map(decode(wire), (decoded) => landing.simulate(decoded, simulate)),
      statuses: (signatures, search) =>
        Effect.sync(() => signatures.map((signature) => records.status(signature, search, clock.slot()))),
      transaction: (signature) => Effect.sync(() => Option.fromNullable(records.transaction(signature))),
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
      onLanded: watchers.onLanded,
      watch: watchers.watch
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
