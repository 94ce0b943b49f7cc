/**
 * The ledger's JSON-RPC subscriptions over WebSocket, on the same port and path as `/rpc`
 * (`ws://HOST:PORT/rpc`), enough for `@solana/kit`'s `createSolanaRpcSubscriptions` and its
 * `sendAndConfirmTransactionFactory` to confirm against the sandbox unchanged:
 *
 * - `signatureSubscribe` `[signature, { commitment?, enableReceivedNotification? }]`: one
 *   `signatureNotification` `{ context: { slot }, value: { err } }` when the transaction
 *   reaches the commitment (default `finalized`, as a Solana node; the commitment is the one
 *   `getSignatureStatuses` reports: `processed` on landing, `confirmed` a slot later,
 *   `finalized` 32 slots later), then the subscription ends, as on Solana. A signature that
 *   has already reached it is notified at once, after the subscription id. With
 *   `enableReceivedNotification`, a `{ context: { slot }, value: "receivedSignature" }` comes
 *   first when the transaction lands.
 * - `slotSubscribe` `[]`: a `slotNotification` `{ parent, root, slot }` for every new slot
 *   (`parent` = slot − 1, `root` = slot − 32, the finalized one).
 * - `signatureUnsubscribe` / `slotUnsubscribe` `[id]`: `true`, or `-32602 Invalid
 *   subscription id.` for an id this connection does not hold (as a Solana node, either
 *   method ends any kind of subscription).
 *
 * Bad input is answered as `/rpc` answers it over HTTP (`-32700`, `-32600`, `-32601`,
 * `-32602`; batches of at most 100); a request without an `id` (a JSON-RPC notification, such
 * as Kit's `ping` keep-alive) is not answered and does nothing. Bounds: `maxConnections`
 * connections (more are refused with HTTP 503 before the handshake), `maxSubscriptionsPerConnection`
 * subscriptions per connection (more are refused with `-32603`), messages of at most
 * `maxMessageBytes` (a larger one closes the connection with 1009), and at most
 * `maxBufferedBytes` of notifications the client has not read yet (then the connection is
 * dropped). A closed connection's subscriptions end with it.
 *
 * @since 0.1.0
 */
import { PublicKey } from "@feeshare/domain"
import { Cause, Context, Deferred, Effect, Exit, Layer, Option, Runtime, Schema, type Scope } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { type RawData, WebSocket, WebSocketServer } from "ws"
import * as JsonRpc from "./internal/jsonRpc.js"
import { type Commitment, Ledger, LedgerError, type SignatureStatus } from "./Ledger.js"
import type { UpgradeHandler } from "./Server.js"

/**
 * The most WebSocket connections open at a time; past it the upgrade is answered HTTP 503.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxConnections = 100

/**
 * The most subscriptions a connection may hold; past it a subscribe is answered `-32603`.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxSubscriptionsPerConnection = 1000

/**
 * The largest message (WebSocket frame payload) read, in bytes; a larger one closes the
 * connection (code 1009) without being buffered.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxMessageBytes = 64 * 1024

/**
 * The most bytes of answers and notifications a client may leave unread; past it the
 * connection is dropped.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxBufferedBytes = 4 * 1024 * 1024

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

/**
 * @since 0.1.0
 * @category tags
 */
export class RpcSubscriptions
  extends Context.Tag("@feeshare/sandbox/RpcSubscriptions")<RpcSubscriptions, RpcSubscriptions.Service>()
{}

/**
 * @since 0.1.0
 */
export declare namespace RpcSubscriptions {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * A handler of WebSocket upgrade requests, accepting connections until the scope closes;
     * closing it drops the connections it accepted.
     */
    readonly accept: Effect.Effect<UpgradeHandler, never, Scope.Scope>
    readonly stats: Effect.Effect<Stats>
    /** Waits until the counts satisfy `predicate` (at once if they already do). */
    readonly waitFor: (predicate: (stats: Stats) => boolean) => Effect.Effect<Stats>
  }
}

const commitmentRank: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 }

const reached = (status: SignatureStatus | null, commitment: Commitment): status is SignatureStatus =>
  status !== null && commitmentRank[status.confirmationStatus] >= commitmentRank[commitment]

const Signature = PublicKey.Base58Signature.annotations({ description: "a base58 signature of 64 bytes" })

const SignatureConfig = Schema.Struct({
  commitment: Schema.optional(Schema.Literal("processed", "confirmed", "finalized")),
  enableReceivedNotification: Schema.optional(Schema.Boolean)
}).annotations({ description: "a config object" })

const SignatureSubscribeParams = Schema.Tuple(
  Signature,
  Schema.optionalElement(Schema.NullOr(SignatureConfig).annotations({ description: "a config object or null" }))
).annotations({ description: "[signature, config?]" })

const NoParams = Schema.Tuple().annotations({ description: "[]" })

const SubscriptionId = Schema.Number.annotations({ description: "a subscription id" }).pipe(
  Schema.int(),
  Schema.nonNegative(),
  Schema.annotations({ description: "a subscription id" })
)
const UnsubscribeParams = Schema.Tuple(SubscriptionId).annotations({ description: "[subscription id]" })

interface Connection {
  readonly socket: WebSocket
  readonly subscriptions: Map<number, Subscription>
}

interface SignatureSubscription {
  readonly _tag: "Signature"
  readonly id: number
  readonly connection: Connection
  readonly signature: string
  readonly commitment: Commitment
  readonly received: boolean
}

interface SlotSubscription {
  readonly _tag: "Slot"
  readonly id: number
  readonly connection: Connection
}

type Subscription = SignatureSubscription | SlotSubscription

const textOf = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString("utf8")
    : Buffer.isBuffer(data)
    ? data.toString("utf8")
    : Buffer.from(data).toString("utf8")

/** An HTTP answer written on the raw socket, instead of the handshake. */
const refuse = (socket: Duplex, status: number, reason: string, body: object): void => {
  const text = JSON.stringify(body)
  socket.on("error", () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Connection: close\r\n\r\n${text}`
  )
}

/**
 * The service over the `Ledger`: it watches the ledger (landed transactions, new slots) while
 * the scope is open.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const ledger = yield* Ledger
  const runtime = yield* Effect.runtime<never>()
  const connections = new Set<Connection>()
  const bySignature = new Map<string, Set<SignatureSubscription>>()
  const slotSubscriptions = new Set<SlotSubscription>()
  let nextId = 0
  const waiters = new Set<{ readonly predicate: (stats: Stats) => boolean; readonly done: Deferred.Deferred<Stats> }>()

  const currentStats = (): Stats => {
    let subscriptions = 0
    for (const connection of connections) subscriptions += connection.subscriptions.size
    return { connections: connections.size, subscriptions }
  }

  /** Wakes the waiters whose predicate the counts now satisfy. */
  const changed = (): void => {
    if (waiters.size === 0) return
    const stats = currentStats()
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(stats)) continue
      waiters.delete(waiter)
      Deferred.unsafeDone(waiter.done, Exit.succeed(stats))
    }
  }

  const send = (connection: Connection, message: object): void => {
    const socket = connection.socket
    if (socket.readyState !== WebSocket.OPEN) return
    socket.send(JSON.stringify(message))
    // a client that does not read its notifications is not buffered for without end
    if (socket.bufferedAmount > maxBufferedBytes) socket.terminate()
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

  const drop = (connection: Connection): void => {
    for (const subscription of [...connection.subscriptions.values()]) remove(subscription)
    connections.delete(connection)
    changed()
  }

  const signatureNotification = (subscription: SignatureSubscription, slot: bigint, value: unknown) =>
    send(subscription.connection, {
      jsonrpc: "2.0",
      method: "signatureNotification",
      params: { result: { context: { slot: Number(slot) }, value }, subscription: subscription.id }
    })

  /** Notifies (and ends) the subscriptions whose signature has reached their commitment. */
  const settle = (subscriptions: ReadonlyArray<SignatureSubscription>) =>
    Effect.gen(function*() {
      if (subscriptions.length === 0) return
      const signatures = [...new Set(subscriptions.map((subscription) => subscription.signature))]
      const statuses = yield* ledger.statuses(signatures, false)
      const bySignatureStatus = new Map(signatures.map((signature, i) => [signature, statuses[i] ?? null]))
      for (const subscription of subscriptions) {
        const status = bySignatureStatus.get(subscription.signature) ?? null
        if (!reached(status, subscription.commitment)) continue
        remove(subscription)
        signatureNotification(subscription, status.slot, { err: status.err })
      }
    })

  yield* ledger.watch({
    landed: (landed) =>
      Effect.suspend(() => {
        const waiting = [...(bySignature.get(landed.signature) ?? [])]
        for (const subscription of waiting) {
          if (subscription.received) signatureNotification(subscription, landed.slot, "receivedSignature")
        }
        return settle(waiting)
      }),
    slots: (slots) =>
      Effect.suspend(() => {
        for (const subscription of [...slotSubscriptions]) {
          for (const slot of slots) {
            send(subscription.connection, {
              jsonrpc: "2.0",
              method: "slotNotification",
              params: {
                result: { parent: Number(slot - 1n), root: Number(slot > 32n ? slot - 32n : 0n), slot: Number(slot) },
                subscription: subscription.id
              }
            })
          }
        }
        return settle([...bySignature.values()].flatMap((subscriptions) => [...subscriptions]))
      })
  })

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

  /** One method call; `after` collects what runs once the answers are sent. */
  const handle = Effect.fn("RpcSubscriptions.handle")(
    function*(connection: Connection, request: JsonRpc.Request, after: Array<Effect.Effect<void>>) {
      switch (request.method) {
        case "signatureSubscribe": {
          const [signature, config] = yield* JsonRpc.decodeParams(SignatureSubscribeParams, request.params)
          const subscription = yield* subscribe(connection, (id): SignatureSubscription => ({
            _tag: "Signature",
            id,
            connection,
            signature,
            commitment: config?.commitment ?? "finalized",
            received: config?.enableReceivedNotification === true
          }))
          // already there: notified right after the subscription id
          after.push(settle([subscription]))
          return subscription.id
        }
        case "slotSubscribe": {
          yield* JsonRpc.decodeParams(NoParams, request.params)
          const subscription = yield* subscribe(connection, (id): SlotSubscription => ({ _tag: "Slot", id, connection }))
          return subscription.id
        }
        case "signatureUnsubscribe":
        case "slotUnsubscribe": {
          const [id] = yield* JsonRpc.decodeParams(UnsubscribeParams, request.params)
          const subscription = connection.subscriptions.get(id)
          if (subscription === undefined) {
            return yield* new LedgerError({ code: -32602, message: "Invalid subscription id." })
          }
          remove(subscription)
          return true
        }
        default:
          return yield* new LedgerError({ code: -32601, message: "Method not found" })
      }
    }
  )

  /** A message: answered (a reply, or a batch of them), then the notifications it made due. */
  const onMessage = (connection: Connection, data: RawData): void => {
    const after: Array<Effect.Effect<void>> = []
    const one = (body: unknown) =>
      JsonRpc.answer(
        "RpcSubscriptions",
        body,
        (request) => handle(connection, request, after),
        // a notification (no id) is neither run nor answered
        (request) => request.id === undefined ? Option.some(undefined) : Option.none()
      )
    const program = Effect.gen(function*() {
      const body = JsonRpc.parseBody(textOf(data))
      switch (body._tag) {
        case "Refused":
          send(connection, body.reply)
          break
        case "Single": {
          const reply = yield* one(body.value)
          if (reply !== undefined) send(connection, reply)
          break
        }
        case "Batch": {
          const replies = (yield* Effect.forEach(body.values, one)).filter((reply) => reply !== undefined)
          if (replies.length > 0) send(connection, replies)
          break
        }
      }
      for (const next of after) yield* next
    })
    const exit = Runtime.runSyncExit(runtime)(program)
    if (Exit.isFailure(exit)) {
      Runtime.runFork(runtime)(Effect.logError("RpcSubscriptions message failed", Cause.pretty(exit.cause)))
      send(connection, JsonRpc.internalError(null))
    }
  }

  const open = (socket: WebSocket): void => {
    const connection: Connection = { socket, subscriptions: new Map() }
    connections.add(connection)
    changed()
    socket.on("message", (data) => onMessage(connection, data))
    // protocol errors (a frame over maxPayload, bad UTF-8, ...) close the connection; the close drops it
    socket.on("error", () => socket.terminate())
    socket.on("close", () => drop(connection))
  }

  const accept: Effect.Effect<UpgradeHandler, never, Scope.Scope> = Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => ({
        server: new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes, clientTracking: true, perMessageDeflate: false }),
        state: { accepting: true }
      })),
      ({ server, state }) =>
        Effect.sync(() => {
          state.accepting = false
          for (const client of server.clients) client.terminate()
          server.close()
        })
    ),
    ({ server, state }): UpgradeHandler => (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!state.accepting || connections.size >= maxConnections) {
        refuse(
          socket,
          503,
          "Service Unavailable",
          JsonRpc.errorReply(null, -32603, `Connection refused: at most ${maxConnections} WebSocket connections at a time`)
        )
        return
      }
      server.handleUpgrade(request, socket, head, (client) => {
        // the bound is checked again: handshakes may have overlapped
        if (!state.accepting || connections.size >= maxConnections) {
          client.close(1013, "too many connections")
          return
        }
        open(client)
      })
    }
  )

  const waitFor = (predicate: (stats: Stats) => boolean) =>
    Effect.suspend(() => {
      const stats = currentStats()
      if (predicate(stats)) return Effect.succeed(stats)
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

  return RpcSubscriptions.of({ accept, stats: Effect.sync(currentStats), waitFor })
})

/**
 * The service as a layer over the `Ledger`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RpcSubscriptions, never, Ledger> = Layer.scoped(RpcSubscriptions, make)
