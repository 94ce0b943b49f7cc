/**
 * Who the ledger tells about its changes: listeners of landed transactions and watchers of
 * new slots, run in registration order, synchronously with the change.
 */
import { Effect, type Scope } from "effect"
import type { Landed, Watcher } from "./models.js"

/** The watchers of one ledger. */
export interface Watchers {
  /** Registers a listener run for every landed transaction, for the ledger's life. */
  readonly onLanded: (listener: (landed: Landed) => Effect.Effect<void>) => Effect.Effect<void>
  /** Registers a `Watcher` until the scope closes. */
  readonly watch: (watcher: Watcher) => Effect.Effect<void, never, Scope.Scope>
  /** Runs every `landed` watcher. */
  readonly landed: (landed: Landed) => Effect.Effect<void>
  /** Runs every `slots` watcher with the new slots (nothing when there are none). */
  readonly slots: (slots: ReadonlyArray<bigint>) => Effect.Effect<void>
}

/** No watchers yet. */
export const make = (): Watchers => {
  const watchers = new Set<Watcher>()
  return {
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
      ).pipe(Effect.asVoid),
    landed: (landed) =>
      Effect.gen(function*() {
        for (const watcher of [...watchers]) if (watcher.landed !== undefined) yield* watcher.landed(landed)
      }),
    slots: (slots) =>
      Effect.gen(function*() {
        if (slots.length === 0) return
        for (const watcher of [...watchers]) if (watcher.slots !== undefined) yield* watcher.slots(slots)
      })
  }
}
