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
import { Cause, Context, Effect, Exit, Layer, Option, Runtime, type Scope } from "effect"
import type { RawData, WebSocket } from "ws"
import * as JsonRpc from "./internal/http/jsonRpc.js"
import { NoParams, reached, SignatureSubscribeParams, UnsubscribeParams } from "./internal/http/subscriptions/params.js"
import * as Registry from "./internal/http/subscriptions/registry.js"
import type {
  Connection,
  SignatureSubscription,
  SlotSubscription,
  Stats
} from "./internal/http/subscriptions/registry.js"
import * as Transport from "./internal/http/subscriptions/transport.js"
import { Ledger, LedgerError } from "./Ledger.js"
import type { UpgradeHandler } from "./Server.js"

export { maxSubscriptionsPerConnection, type Stats } from "./internal/http/subscriptions/registry.js"
export { maxBufferedBytes, maxConnections, maxMessageBytes } from "./internal/http/subscriptions/transport.js"

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
  const registry = Registry.make()

  const send = (connection: Connection, message: object): void => Transport.send(connection.socket, message)

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
        registry.remove(subscription)
        signatureNotification(subscription, status.slot, { err: status.err })
      }
    })

  yield* ledger.watch({
    landed: (landed) =>
      Effect.suspend(() => {
        const waiting = registry.toSignature(landed.signature)
        for (const subscription of waiting) {
          if (subscription.received) signatureNotification(subscription, landed.slot, "receivedSignature")
        }
        return settle(waiting)
      }),
    slots: (slots) =>
      Effect.suspend(() => {
        for (const subscription of registry.slots()) {
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
        return settle(registry.signatures())
      })
  })

  /** One method call; `after` collects what runs once the answers are sent. */
  const handle = Effect.fn("RpcSubscriptions.handle")(
    function*(connection: Connection, request: JsonRpc.Request, after: Array<Effect.Effect<void>>) {
      switch (request.method) {
        case "signatureSubscribe": {
          const [signature, config] = yield* JsonRpc.decodeParams(SignatureSubscribeParams, request.params)
          const subscription = yield* registry.subscribe(connection, (id): SignatureSubscription => ({
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
          const subscription = yield* registry.subscribe(
            connection,
            (id): SlotSubscription => ({ _tag: "Slot", id, connection })
          )
          return subscription.id
        }
        case "signatureUnsubscribe":
        case "slotUnsubscribe": {
          const [id] = yield* JsonRpc.decodeParams(UnsubscribeParams, request.params)
          const subscription = connection.subscriptions.get(id)
          if (subscription === undefined) {
            return yield* new LedgerError({ code: -32602, message: "Invalid subscription id." })
          }
          registry.remove(subscription)
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
      const body = JsonRpc.parseBody(Transport.textOf(data))
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
    const connection = registry.open(socket)
    socket.on("message", (data) => onMessage(connection, data))
    // protocol errors (a frame over maxPayload, bad UTF-8, ...) close the connection; the close drops it
    socket.on("error", () => socket.terminate())
    socket.on("close", () => registry.drop(connection))
  }

  const accept: Effect.Effect<UpgradeHandler, never, Scope.Scope> = Transport.accept(registry.connections, open)

  return RpcSubscriptions.of({ accept, stats: Effect.sync(registry.stats), waitFor: registry.waitFor })
})

/**
 * The service as a layer over the `Ledger`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RpcSubscriptions, never, Ledger> = Layer.scoped(RpcSubscriptions, make)
