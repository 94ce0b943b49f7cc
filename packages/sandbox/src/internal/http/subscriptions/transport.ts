/**
 * The WebSocket side of the subscriptions: accepting upgrades under the connection bound
 * (refused with HTTP 503 before the handshake), the message-size bound, and sending with the
 * unread-bytes bound.
 */
import { Effect, type Scope } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { type RawData, WebSocket, WebSocketServer } from "ws"
import * as JsonRpc from "../jsonRpc.js"
import type { UpgradeHandler } from "../upgrade.js"

/**
 * The most WebSocket connections open at a time; past it the upgrade is answered HTTP 503.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxConnections = 100

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

/** A message's text, however `ws` delivered it. */
export const textOf = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString("utf8")
    : Buffer.isBuffer(data)
    ? data.toString("utf8")
    : Buffer.from(data).toString("utf8")

/** Sends `message` as JSON on an open socket; a client past `maxBufferedBytes` unread is dropped. */
export const send = (socket: WebSocket, message: object): void => {
  if (socket.readyState !== WebSocket.OPEN) return
  socket.send(JSON.stringify(message))
  // a client that does not read its notifications is not buffered for without end
  if (socket.bufferedAmount > maxBufferedBytes) socket.terminate()
}

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
 * A handler of upgrade requests that hands each accepted socket to `open`, while fewer than
 * `maxConnections` (counted by `connections`) are open, until the scope closes; closing it
 * drops the sockets it accepted.
 */
export const accept = (
  connections: () => number,
  open: (socket: WebSocket) => void
): Effect.Effect<UpgradeHandler, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => ({
        server: new WebSocketServer({
          noServer: true,
          maxPayload: maxMessageBytes,
          clientTracking: true,
          perMessageDeflate: false
        }),
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
      if (!state.accepting || connections() >= maxConnections) {
        refuse(
          socket,
          503,
          "Service Unavailable",
          JsonRpc.errorReply(
            null,
            -32603,
            `Connection refused: at most ${maxConnections} WebSocket connections at a time`
          )
        )
        return
      }
      server.handleUpgrade(request, socket, head, (client) => {
        // the bound is checked again: handshakes may have overlapped
        if (!state.accepting || connections() >= maxConnections) {
          client.close(1013, "too many connections")
          return
        }
        open(client)
      })
    }
  )
