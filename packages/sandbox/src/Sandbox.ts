/**
 * The whole sandbox: the HTTP server (`Server`), the ledger (`Ledger`, LiteSVM with its
 * block clock) mounted as JSON-RPC at `/rpc` (HTTP, and WebSocket subscriptions:
 * `RpcSubscriptions`), and the market over that ledger (`MarketLive`).
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Ledger } from "./Ledger.js"
import * as Ledger_ from "./Ledger.js"
import type { Market } from "./Market.js"
import * as MarketLive from "./MarketLive.js"
import * as Options from "./Options.js"
import * as Rpc from "./Rpc.js"
import { RpcSubscriptions } from "./RpcSubscriptions.js"
import * as RpcSubscriptions_ from "./RpcSubscriptions.js"
import * as Server from "./Server.js"

/**
 * `POST /rpc` on the sandbox's router, answered by the ledger, and WebSocket upgrades of
 * `GET /rpc`, the ledger's subscriptions.
 *
 * @since 0.1.0
 * @category layers
 */
export const rpcMount: Server.Mount<Ledger | RpcSubscriptions> = {
  paths: [Rpc.path],
  layer: HttpApiBuilder.Router.use((router) =>
    Effect.flatMap(Ledger, (ledger) => router.post(Rpc.path, Effect.provideService(Rpc.app, Ledger, ledger)))
  ),
  upgrade: Effect.flatMap(RpcSubscriptions, (subscriptions) => subscriptions.accept)
}

/**
 * The sandbox over a given market layer (which may itself need the `Ledger`): one ledger is
 * built and shared by the market and `/rpc`, and is provided to the caller too, with the
 * `Market` (to seed it, see `Seed`) and the `RpcSubscriptions` service (its counts of
 * connections and subscriptions).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWithMarket = <E, R>(
  options: Partial<Options.Options>,
  market: Layer.Layer<Market, E, R>
) => {
  const resolved = Options.make(options)
  const ledger = Ledger_.layer(resolved)
  return Server.layer(resolved, [rpcMount]).pipe(
    Layer.provideMerge(market),
    Layer.provideMerge(RpcSubscriptions_.layer),
    Layer.provideMerge(ledger)
  )
}

/**
 * The sandbox: `SandboxInfo` (where it answers, the demo key), the `Market`, the `Ledger` and
 * `RpcSubscriptions`, serving on
 * `options.port` (0: a free one) until the layer is released.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Partial<Options.Options> = {}) => {
  const resolved = Options.make(options)
  return layerWithMarket(resolved, MarketLive.layer(resolved))
}
