/**
 * The ledger's block clock over LiteSVM: the slot, a new blockhash for every slot (valid
 * until its block height + the validity window), the SlotHashes sysvar, and the Clock
 * sysvar's epoch. The ledger checks blockhash validity here (LiteSVM's own check only accepts
 * its latest blockhash).
 */
import type { LiteSVM } from "litesvm"
import type { ClockState } from "./models.js"

/**
 * Block height = slot − this offset (the ledger has no skipped slots).
 *
 * @since 0.1.0
 * @category constants
 */
export const blockHeightOffset = 47_552_000n

/** The SlotHashes sysvar's capacity, and so the most slots one move gives a blockhash. */
const slotHashesCapacity = 512

/** The clock of one ledger. */
export interface BlockClock {
  readonly state: () => ClockState
  readonly slot: () => bigint
  /** Moves the clock `n` slots forward; answers the slots that got a blockhash, ascending. */
  readonly step: (n: number) => ReadonlyArray<bigint>
  /** Whether a blockhash is known and still valid at the current block height. */
  readonly isValid: (blockhash: string) => boolean
  readonly epoch: () => bigint
  /** Moves the Clock sysvar's epoch forward, and nothing else; answers the new epoch. */
  readonly advanceEpochs: (epochs: number) => bigint
}

/** The clock of `svm`, starting at its current slot and blockhash. */
export const make = (svm: LiteSVM, blockhashValidity: number): BlockClock => {
  const validity = BigInt(Math.max(0, Math.floor(blockhashValidity)))
  let slot = svm.getClock().slot
  const heightOf = (s: bigint) => s - blockHeightOffset
  let latest: string = svm.latestBlockhash()
  // blockhash -> the last block height at which it is valid
  const blockhashes = new Map<string, bigint>([[latest, heightOf(slot) + validity]])
  let slotHashes: Array<{ slot: bigint; hash: string }> = svm.getSlotHashes().map((s) => ({
    slot: s.slot,
    hash: s.hash
  }))

  const state = (): ClockState => ({
    slot,
    blockHeight: heightOf(slot),
    blockhash: latest,
    lastValidBlockHeight: blockhashes.get(latest) ?? heightOf(slot) + validity
  })

  const step = (n: number): ReadonlyArray<bigint> => {
    if (n <= 0) return []
    const fresh = Math.min(n, slotHashesCapacity)
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
    slotHashes = [...[...added].reverse(), ...slotHashes].slice(0, slotHashesCapacity)
    svm.setSlotHashes(slotHashes)
    const height = heightOf(slot)
    for (const [hash, lastValid] of blockhashes) if (lastValid < height) blockhashes.delete(hash)
    return added.map((entry) => entry.slot)
  }

  const isValid = (blockhash: string) => {
    const lastValid = blockhashes.get(blockhash)
    return lastValid !== undefined && heightOf(slot) <= lastValid
  }

  const advanceEpochs = (epochs: number): bigint => {
    const clock = svm.getClock()
    clock.epoch = clock.epoch + BigInt(Math.max(0, Math.floor(epochs)))
    clock.leaderScheduleEpoch = clock.epoch + 1n
    clock.epochStartTimestamp = clock.unixTimestamp
    svm.setClock(clock)
    return clock.epoch
  }

  return { state, slot: () => slot, step, isValid, epoch: () => svm.getClock().epoch, advanceEpochs }
}
