/**
 * What takes over an HTTP upgrade request (the WebSocket side of `/rpc`); `Server.ts`
 * mounts it and re-exports the type.
 */
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"

/**
 * Takes over the connection of an HTTP upgrade request (`request.socket` is `socket`; `head`
 * is what the client sent after the request head), as `ws`'s `WebSocketServer.handleUpgrade`
 * does.
 *
 * @since 0.1.0
 * @category models
 */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void
