/**
 * Preview ids: what a `prepare_*` tool verified, kept under a random id for a short time and
 * handed out once. `take` removes the entry whatever happens next, so an id runs at most once.
 *
 * @since 0.1.0
 */
import { Clock, Effect, Ref, Schema } from "effect"

/**
 * The preview id is unknown (never issued, or already executed) or has expired.
 *
 * @since 0.1.0
 * @category errors
 */
export class PreviewUnavailable extends Schema.TaggedError<PreviewUnavailable>()("PreviewUnavailable", {
  reason: Schema.Literal("unknown", "expired"),
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Store<A> {
  /** Keeps `value` for `ttlMillis`; returns its id and when it expires (epoch ms). */
  readonly put: (value: A) => Effect.Effect<{ readonly id: string; readonly expiresAt: number }>
  /** Removes and returns the entry: the id never works again. */
  readonly take: (id: string) => Effect.Effect<A, PreviewUnavailable>
}

interface Entry<A> {
  readonly value: A
  readonly expiresAt: number
}

/** The most previews kept at once; issuing one more forgets the oldest. */
export const capacity = 64

const randomId = () => {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return `pv_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

/**
 * A store whose entries live `ttlMillis` (on the `Clock`: tests move a `TestClock`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <A>(ttlMillis: number): Effect.Effect<Store<A>> =>
  Effect.map(
    Ref.make(new Map<string, Entry<A>>()),
    (ref): Store<A> => ({
      put: (value) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.modify(ref, (entries) => {
            const next = new Map([...entries].filter(([, entry]) => entry.expiresAt > now))
            while (next.size >= capacity) next.delete(next.keys().next().value!)
            const id = randomId()
            const expiresAt = now + ttlMillis
            next.set(id, { value, expiresAt })
            return [{ id, expiresAt }, next] as const
          })),
      take: (id) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.flatten(
            Ref.modify(ref, (entries): readonly [Effect.Effect<A, PreviewUnavailable>, Map<string, Entry<A>>] => {
              const entry = entries.get(id)
              const next = new Map(entries)
              next.delete(id)
              if (entry === undefined) {
                return [
                  Effect.fail(
                    new PreviewUnavailable({
                      reason: "unknown",
                      message: "unknown preview id: it was never issued or has already been executed (an id works once)"
                    })
                  ),
                  entries
                ] as const
              }
              if (entry.expiresAt <= now) {
                return [
                  Effect.fail(
                    new PreviewUnavailable({ reason: "expired", message: "the preview has expired: prepare again" })
                  ),
                  next
                ] as const
              }
              return [Effect.succeed(entry.value), next] as const
            })
          ))
    })
  )
