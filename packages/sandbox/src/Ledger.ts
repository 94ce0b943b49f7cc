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
import type { Address } from "@solana/kit"
import { Duration, Effect, Layer, Option } from "effect"
import { LiteSVM } from "litesvm"
import * as BlockClock from "./internal/model/ledger/clock.js"
import * as Faucet from "./internal/model/ledger/faucet.js"
import * as Landing from "./internal/model/ledger/landing.js"
import * as Records from "./internal/model/ledger/records.js"
import { Ledger } from "./internal/model/ledger/service.js"
import * as Watchers from "./internal/model/ledger/watchers.js"
import { decode } from "./internal/model/ledger/wire.js"
import type { Options } from "./Options.js"

export { blockHeightOffset } from "./internal/model/ledger/clock.js"
export { maxAirdropLamports, maxLamports } from "./internal/model/ledger/faucet.js"
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
} from "./internal/model/ledger/models.js"
export { commitmentLag, recentStatusSlots } from "./internal/model/ledger/records.js"

export { Ledger } from "./internal/model/ledger/service.js"

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
      bundle: landing.bundle,
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
