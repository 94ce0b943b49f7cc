/**
 * Who subscribes to what: the open connections, their subscriptions (by id, by signature,
 * to slots), the per-connection bound, the counts (`Stats`) and waiting for counts.
 */
import { Deferred, Effect, Exit } from "effect"
import type { WebSocket } from "ws"
import { type Commitment, LedgerError } from "../../model/ledger/models.js"

/**
 * The most subscriptions a connection may hold; past it a subscribe is answered `-32603`.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxSubscriptionsPerConnection = 1000

/**
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  /** Open WebSocket connections. */
  readonly connections: number
  /** Live subscriptions, over all connections. */
  readonly subscriptions: number
}

/** An open connection and the subscriptions it holds, by id. */
export interface Connection {
  readonly socket: WebSocket
  readonly subscriptions: Map<number, Subscription>
}

/** A `signatureSubscribe`: `received` asks for a notification when the transaction lands. */
export interface SignatureSubscription {
  readonly _tag: "Signature"
  readonly id: number
  readonly connection: Connection
  readonly signature: string
  readonly commitment: Commitment
  readonly received: boolean
}

/** A `slotSubscribe`. */
export interface SlotSubscription {
  readonly _tag: "Slot"
  readonly id: number
  readonly connection: Connection
}

/** Either kind of subscription. */
export type Subscription = SignatureSubscription | SlotSubscription

/** The connections and subscriptions of one service. */
export interface Registry {
  /** How many connections are open. */
  readonly connections: () => number
  /** A new connection on `socket`. */
  readonly open: (socket: WebSocket) => Connection
  /** A closed connection: its subscriptions end with it. */
  readonly drop: (connection: Connection) => void
  /** A new subscription under the next id, refused `-32603` past `maxSubscriptionsPerConnection`. */
  readonly subscribe: <S extends Subscription>(
    connection: Connection,
    make: (id: number) => S
  ) => Effect.Effect<S, LedgerError>
  readonly remove: (subscription: Subscription) => void
  /** The subscriptions to `signature`. */
  readonly toSignature: (signature: string) => ReadonlyArray<SignatureSubscription>
  /** Every signature subscription. */
  readonly signatures: () => ReadonlyArray<SignatureSubscription>
  /** Every slot subscription. */
  readonly slots: () => ReadonlyArray<SlotSubscription>
  readonly stats: () => Stats
  /** Waits until the counts satisfy `predicate` (at once if they already do). */
  readonly waitFor: (predicate: (stats: Stats) => boolean) => Effect.Effect<Stats>
}

/** No connections yet. */
export const make = (): Registry => {
  const connections = new Set<Connection>()
  const bySignature = new Map<string, Set<SignatureSubscription>>()
  const slotSubscriptions = new Set<SlotSubscription>()
  let nextId = 0
  const waiters = new Set<{ readonly predicate: (stats: Stats) => boolean; readonly done: Deferred.Deferred<Stats> }>()

  const stats = (): Stats => {
    let subscriptions = 0
    for (const connection of connections) subscriptions += connection.subscriptions.size
    return { connections: connections.size, subscriptions }
  }

  /** Wakes the waiters whose predicate the counts now satisfy. */
  const changed = (): void => {
    if (waiters.size === 0) return
    const now = stats()
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(now)) continue
      waiters.delete(waiter)
      Deferred.unsafeDone(waiter.done, Exit.succeed(now))
    }
  }

  const add = (subscription: Subscription): void => {
    subscription.connection.subscriptions.set(subscription.id, subscription)
    if (subscription._tag === "Slot") {
      slotSubscriptions.add(subscription)
    } else {
      const forSignature = bySignature.get(subscription.signature)
      if (forSignature === undefined) bySignature.set(subscription.signature, new Set([subscription]))
      else forSignature.add(subscription)
    }
    changed()
  }

  const remove = (subscription: Subscription): void => {
    subscription.connection.subscriptions.delete(subscription.id)
    if (subscription._tag === "Slot") {
      slotSubscriptions.delete(subscription)
    } else {
      const forSignature = bySignature.get(subscription.signature)
      forSignature?.delete(subscription)
      if (forSignature?.size === 0) bySignature.delete(subscription.signature)
    }
    changed()
  }

  const open = (socket: WebSocket): Connection => {
    const connection: Connection = { socket, subscriptions: new Map() }
    connections.add(connection)
    changed()
    return connection
  }

  const drop = (connection: Connection): void => {
    for (const subscription of [...connection.subscriptions.values()]) remove(subscription)
    connections.delete(connection)
    changed()
  }

  const subscribe = <S extends Subscription>(connection: Connection, make: (id: number) => S) =>
    Effect.suspend((): Effect.Effect<S, LedgerError> => {
      if (connection.subscriptions.size >= maxSubscriptionsPerConnection) {
        return Effect.fail(
          new LedgerError({
            code: -32603,
            message: `Subscription refused: a connection holds at most ${maxSubscriptionsPerConnection} subscriptions`
          })
        )
      }
      const subscription = make(nextId++)
      add(subscription)
      return Effect.succeed(subscription)
    })

  const waitFor = (predicate: (stats: Stats) => boolean) =>
    Effect.suspend(() => {
      const now = stats()
      if (predicate(now)) return Effect.succeed(now)
      return Effect.acquireUseRelease(
        Effect.map(Deferred.make<Stats>(), (done) => {
          const waiter = { predicate, done }
          waiters.add(waiter)
          return waiter
        }),
        (waiter) => Deferred.await(waiter.done),
        (waiter) => Effect.sync(() => void waiters.delete(waiter))
      )
    })

  return {
    connections: () => connections.size,
    open,
    drop,
    subscribe,
    remove,
    toSignature: (signature) => [...(bySignature.get(signature) ?? [])],
    signatures: () => [...bySignature.values()].flatMap((subscriptions) => [...subscriptions]),
    slots: () => [...slotSubscriptions],
    stats,
    waitFor
  }
}
