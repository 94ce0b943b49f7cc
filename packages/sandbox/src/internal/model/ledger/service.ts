/**
 * The `Ledger` service's tag and interface (what the market, the history, `/rpc` and the
 * `Chain` over the ledger call); the implementation is `Ledger.ts`, which re-exports it.
 */
import type { BundleRelay } from "@feeshare/domain"
import type { Instruction, KeyPairSigner } from "@solana/kit"
import { Context, type Effect, type Option, type Scope } from "effect"
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
} from "./models.js"

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
    /**
     * Lands signed wire transactions together, in order, or none of them (the sandbox's bundle
     * relay); the answer names the transaction that failed.
     */
    readonly bundle: (wires: ReadonlyArray<Uint8Array>) => Effect.Effect<BundleRelay.RelayAnswer, LedgerError>
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
