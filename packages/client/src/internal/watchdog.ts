import { Clock, Deferred, Duration, Effect, Exit, Fiber, type Scope } from "effect"

interface Entry {
  readonly deadline: number
  readonly fiber: Fiber.RuntimeFiber<unknown, unknown>
  timedOut: boolean
}

/** Runs effects with a time limit; one fiber per client keeps every deadline. */
export interface Watchdog {
  readonly run: <A, E, E2>(effect: Effect.Effect<A, E>, onTimeout: () => E2) => Effect.Effect<A, E | E2>
}

/**
 * A per-request time limit without a timer per request: each attempt runs in a child fiber
 * and is registered with its deadline; one watchdog fiber (scoped to the client) sleeps until
 * the earliest deadline and interrupts whatever is still running then. All deadlines of a
 * client use the same limit, so registration order is deadline order.
 */
export const make = (timeoutMillis: number): Effect.Effect<Watchdog, never, Scope.Scope> =>
  Effect.gen(function*() {
    const inFlight = new Set<Entry>()
    let idle: Deferred.Deferred<void> | undefined

    const watch = Effect.gen(function*() {
      while (true) {
        const first = inFlight.values().next()
        if (first.done === true) {
          const signal = yield* Deferred.make<void>()
          idle = signal
          yield* Deferred.await(signal)
          continue
        }
        const wait = first.value.deadline - (yield* Clock.currentTimeMillis)
        if (wait > 0) {
          yield* Effect.sleep(Duration.millis(wait))
          continue
        }
        inFlight.delete(first.value)
        first.value.timedOut = true
        yield* Fiber.interruptFork(first.value.fiber)
      }
    })
    yield* Effect.forkScoped(watch)

    const run = <A, E, E2>(effect: Effect.Effect<A, E>, onTimeout: () => E2): Effect.Effect<A, E | E2> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(Effect.fork(restore(effect)), (fiber) =>
          Effect.clockWith((clock) => {
            const entry: Entry = { deadline: clock.unsafeCurrentTimeMillis() + timeoutMillis, fiber, timedOut: false }
            inFlight.add(entry)
            if (idle !== undefined) {
              Deferred.unsafeDone(idle, Exit.void)
              idle = undefined
            }
            return restore(Fiber.await(fiber)).pipe(
              Effect.onInterrupt(() => Effect.zipRight(Effect.sync(() => inFlight.delete(entry)), Fiber.interrupt(fiber))),
              Effect.flatMap((exit): Effect.Effect<A, E | E2> => {
                inFlight.delete(entry)
                return entry.timedOut && Exit.isInterrupted(exit) ? Effect.fail(onTimeout()) : exit
              })
            )
          })))
    return { run }
  })
