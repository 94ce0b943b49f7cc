import { Clock, Deferred, Duration, Effect, Exit, type Scope } from "effect"

/** One attempt under a deadline. */
export interface Deadline {
  /** `true` once the deadline passed while the attempt was in flight (it has been cancelled). */
  timedOut: boolean
  /** The attempt settled (or was interrupted): forget its deadline. */
  done: () => void
}

interface Entry extends Deadline {
  readonly at: number
  /** Cancels the attempt's request (closes the scope its `AbortController` is tied to). */
  readonly cancel: Effect.Effect<void>
  timedOut: boolean
}

/** Keeps the deadline of every attempt of one client with one fiber. */
export interface Watchdog {
  /** Registers an attempt starting now; `cancel` runs if it is still in flight at its deadline. */
  readonly start: (cancel: Effect.Effect<void>) => Deadline
}

/**
 * A per-request time limit without a timer or a fiber per request: each attempt registers
 * its deadline and the way to cancel its request (the request's `AbortController`, tied to a
 * scope by `HttpClient.withScope`); one watchdog fiber (scoped to the client) sleeps until
 * the earliest deadline and cancels whatever is still in flight then. The attempt itself
 * runs on the caller's fiber; the cancelled request fails, and the attempt reports
 * `Timeout` because its deadline says so. All deadlines of a client use the same limit, so
 * registration order is deadline order.
 */
export const make = (timeoutMillis: number): Effect.Effect<Watchdog, never, Scope.Scope> =>
  Effect.gen(function*() {
    const inFlight = new Set<Entry>()
    let idle: Deferred.Deferred<void> | undefined
    const clock = yield* Effect.clock

    // not a Schedule: it sleeps until a deadline that moves with every request, or until a
    // request arrives (a signal, not a time)
    const watch = Effect.gen(function*() {
      while (true) {
        const first = inFlight.values().next()
        if (first.done === true) {
          const signal = yield* Deferred.make<void>()
          idle = signal
          yield* Deferred.await(signal)
          continue
        }
        const wait = first.value.at - (yield* Clock.currentTimeMillis)
        if (wait > 0) {
          yield* Effect.sleep(Duration.millis(wait))
          continue
        }
        inFlight.delete(first.value)
        first.value.timedOut = true
        yield* first.value.cancel
      }
    })
    yield* Effect.forkScoped(watch)

    const start = (cancel: Effect.Effect<void>): Deadline => {
      const entry: Entry = {
        at: clock.unsafeCurrentTimeMillis() + timeoutMillis,
        cancel,
        timedOut: false,
        done: () => {
          inFlight.delete(entry)
        }
      }
      inFlight.add(entry)
      if (idle !== undefined) {
        Deferred.unsafeDone(idle, Exit.void)
        idle = undefined
      }
      return entry
    }
    return { start }
  })

/**
 * The deadline of one attempt under another limit than the client's (a call's override):
 * a timer fiber of its own, interrupted when the attempt settles.
 */
export const single = (cancel: Effect.Effect<void>, timeoutMillis: number): Effect.Effect<Deadline> =>
  Effect.suspend(() => {
    const deadline: Deadline = { timedOut: false, done: () => {} }
    const timer = Effect.zipRight(
      Effect.sleep(Duration.millis(timeoutMillis)),
      Effect.suspend(() => {
        deadline.timedOut = true
        return cancel
      })
    )
    return Effect.map(Effect.forkDaemon(timer), (fiber) => {
      deadline.done = () => {
        if (!deadline.timedOut) fiber.unsafeInterruptAsFork(fiber.id())
      }
      return deadline
    })
  })
