/**
 * The calls a `FeeShare` has in flight, as fibers of its runtime. A caller's `AbortSignal`
 * gets one listener however many calls share it, removed when the last of them settles, so
 * that a thousand concurrent calls neither leak listeners nor trip Node's
 * `MaxListenersExceededWarning`. `interruptAll` ends every call (on `close()`).
 */
import type { Exit, Fiber, ManagedRuntime } from "effect"
import { Effect } from "effect"

type Running = Fiber.RuntimeFiber<unknown, unknown>

export class Calls {
  readonly #running = new Set<Running>()
  readonly #bySignal = new Map<AbortSignal, { readonly fibers: Set<Running>; readonly onAbort: () => void }>()

  /** Number of listeners this registry holds on callers' signals (one per distinct signal). */
  get signalListeners(): number {
    return this.#bySignal.size
  }

  /** Runs `effect`; `settle` turns its exit into the call's outcome. */
  run<A, E, R, ER, B>(
    runtime: ManagedRuntime.ManagedRuntime<R, ER>,
    effect: Effect.Effect<A, E, R>,
    signal: AbortSignal | undefined,
    settle: (exit: Exit.Exit<A, E | ER>) => B
  ): Promise<B> {
    const fiber = runtime.runFork(effect)
    const running: Running = fiber
    this.#running.add(running)
    if (signal !== undefined) this.#attach(signal, running)
    return new Promise<B>((resolve, reject) => {
      fiber.addObserver((exit) => {
        this.#running.delete(running)
        if (signal !== undefined) this.#detach(signal, running)
        try {
          resolve(settle(exit))
        } catch (error) {
          reject(error)
        }
      })
    })
  }

  /** Interrupts every call still running and waits until they have ended. */
  interruptAll(): Promise<void> {
    const fibers = [...this.#running]
    return Effect.runPromise(Effect.forEach(fibers, (fiber) =>
      fiber.interruptAsFork(fiber.id()).pipe(
        Effect.zipRight(fiber.await)
      ), { concurrency: "unbounded", discard: true }))
  }

  #attach(signal: AbortSignal, fiber: Running): void {
    if (signal.aborted) {
      fiber.unsafeInterruptAsFork(fiber.id())
      return
    }
    const found = this.#bySignal.get(signal)
    if (found !== undefined) {
      found.fibers.add(fiber)
      return
    }
    const fibers = new Set<Running>([fiber])
    const onAbort = () => {
      for (const each of fibers) each.unsafeInterruptAsFork(each.id())
    }
    this.#bySignal.set(signal, { fibers, onAbort })
    signal.addEventListener("abort", onAbort, { once: true })
  }

  #detach(signal: AbortSignal, fiber: Running): void {
    const found = this.#bySignal.get(signal)
    if (found === undefined) return
    found.fibers.delete(fiber)
    if (found.fibers.size > 0) return
    this.#bySignal.delete(signal)
    signal.removeEventListener("abort", found.onAbort)
  }
}
