// A deterministic in-memory Chain on the Clock (TestClock in tests): each new transaction
// gets the next behaviour (latency, dropped, failing); block height advances with time; a
// transaction lands only if it lands before its lastValidBlockHeight.
import { PublicKey } from "@feeshare/domain"
import { getTransactionDecoder } from "@solana/kit"
import { Chunk, Clock, Duration, Effect, Fiber, Option, TestClock } from "effect"
import * as Chain from "../../src/Chain.js"

export interface Behaviour {
  readonly latencyMs: number
  readonly drop?: boolean
  readonly fail?: boolean
}

export interface Send {
  readonly at: number
  readonly signature: string
  readonly first: boolean
  readonly skipPreflight: boolean
}

interface Tx {
  readonly firstSentAt: number
  readonly landAt: number | undefined
  readonly fail: boolean
}

export interface FakeChain {
  readonly service: Chain.Chain.Service
  readonly sends: Array<Send>
  /** Landing time of a signature, if it landed by now. */
  readonly landedAt: (signature: string) => Effect.Effect<Option.Option<number>>
  readonly height: Effect.Effect<bigint>
}

export const signatureOf = (wire: Uint8Array): string => {
  const transaction = getTransactionDecoder().decode(wire)
  const first = Object.values(transaction.signatures)[0]
  return first ? PublicKey.base58.encode(first) : ""
}

export const make = (options: {
  readonly behaviours: ReadonlyArray<Behaviour>
  readonly blockMillis: number
  readonly pollMillis: number
  readonly baseHeight?: bigint
  /** lastValidBlockHeight of a signature (the test knows what it built). */
  readonly lifetimeOf: (signature: string) => bigint
}): FakeChain => {
  const base = options.baseHeight ?? 1000n
  let origin: number | undefined // the time of the first question: block heights count from there
  const heightAt = (millis: number) => {
    origin ??= millis
    return base + BigInt(Math.floor((millis - origin) / options.blockMillis))
  }
  const txs = new Map<string, Tx>()
  const sends: Array<Send> = []
  let next = 0

  const landedAt = (signature: string) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const tx = txs.get(signature)
      return tx === undefined || tx.landAt === undefined || now < tx.landAt ? Option.none() : Option.some(tx.landAt)
    })

  const service: Chain.Chain.Service = {
    send: (wire, { skipPreflight }) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const signature = signatureOf(wire)
        const known = txs.get(signature)
        sends.push({ at: now, signature, first: known === undefined, skipPreflight })
        if (known === undefined) {
          const behaviour = options.behaviours[next++ % options.behaviours.length] ?? { latencyMs: 0 }
          const landAt = now + behaviour.latencyMs
          const lands = behaviour.drop !== true && heightAt(landAt) <= options.lifetimeOf(signature)
          txs.set(signature, { firstSentAt: now, landAt: lands ? landAt : undefined, fail: behaviour.fail === true })
        }
        return signature
      }),
    signatureStatus: (signature) =>
      Effect.map(
        landedAt(signature),
        Option.map((at) => ({
          slot: heightAt(at),
          confirmationStatus: "finalized" as const,
          err: txs.get(signature)?.fail === true ? { InstructionError: [0, { Custom: 6001 }] } : null
        }))
      ),
    blockHeight: () => Effect.map(Clock.currentTimeMillis, heightAt),
    lastValidBlockHeight: () => Effect.map(Clock.currentTimeMillis, (now) => heightAt(now) + 150n),
    logs: (signature) => Effect.succeed([`Program log: ${signature.slice(0, 8)} failed`]),
    pollInterval: Duration.millis(options.pollMillis)
  }
  return { service, sends, landedAt, height: Effect.map(Clock.currentTimeMillis, heightAt) }
}

/**
 * Runs a fiber to completion on the TestClock: whenever every fiber is asleep, jumps to
 * the earliest wake-up; while something is busy (e.g. WebCrypto), waits for the event loop.
 */
export const drive = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, maxSteps = 200_000) =>
  Effect.gen(function*() {
    for (let step = 0; step < maxSteps; step++) {
      for (let i = 0; i < 5; i++) yield* Effect.yieldNow()
      const exit = yield* Fiber.poll(fiber)
      if (Option.isSome(exit)) return exit.value
      const sleeps = yield* TestClock.sleeps()
      if (Chunk.isEmpty(sleeps)) {
        yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
        continue
      }
      const now = yield* TestClock.currentTimeMillis
      const wake = Math.min(...Chunk.toReadonlyArray(sleeps))
      yield* TestClock.adjust(Math.max(0, wake - now))
    }
    return yield* Effect.dieMessage(`the execution did not finish within ${maxSteps} steps`)
  })
