/**
 * The whole sandbox: the HTTP server (`Server`), the ledger (`Ledger`, LiteSVM with its
 * block clock) mounted as JSON-RPC at `/rpc` (HTTP, and WebSocket subscriptions:
 * `RpcSubscriptions`), the market over that ledger (`MarketLive`), and the explorer at `/`
 * (`Explorer`) over what the sandbox did (`History`).
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { Accounts } from "./Accounts.js"
import { AdminToken } from "./AdminToken.js"
import * as Explorer from "./Explorer.js"
import * as History from "./History.js"
import { Ledger } from "./Ledger.js"
import * as Ledger_ from "./Ledger.js"
import type { Market } from "./Market.js"
import * as MarketLive from "./MarketLive.js"
import * as Options from "./Options.js"
import type { RateLimiter } from "./RateLimiter.js"
import * as Rpc from "./Rpc.js"
import { RpcSubscriptions } from "./RpcSubscriptions.js"
import * as RpcSubscriptions_ from "./RpcSubscriptions.js"
import * as Server from "./Server.js"

/**
 * `POST /rpc` on the sandbox's router, answered by the ledger (its faucet behind the admin token
 * off loopback), and WebSocket upgrades of
 * `GET /rpc`, the ledger's subscriptions.
 *
 * @since 0.1.0
 * @category layers
 */
export const rpcMount: Server.Mount<Ledger | RpcSubscriptions | AdminToken> = {
  paths: [Rpc.path],
  layer: HttpApiBuilder.Router.use((router) =>
    Effect.flatMap(
      Effect.all([Ledger, AdminToken]),
      ([ledger, token]) =>
        router.post(
          Rpc.path,
          Rpc.app.pipe(Effect.provideService(Ledger, ledger), Effect.provideService(AdminToken, token))
        )
    )
  ),
  upgrade: Effect.flatMap(RpcSubscriptions, (subscriptions) => subscriptions.accept)
}

/**
 * The sandbox over a given market layer (which may itself need the `Ledger`): one ledger is
 * built and shared by the market and `/rpc`, and is provided to the caller too, with the
 * `Market` (to seed it, see `Seed`), the `RpcSubscriptions` service (its counts of
 * connections and subscriptions) and the explorer's `History`.
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
  const mounts: ReadonlyArray<
    Server.Mount<Ledger | RpcSubscriptions | Market | History.History | Accounts | RateLimiter | AdminToken>
  > = [
    rpcMount,
    Explorer.mount(resolved)
  ]
  return Server.layer(resolved, mounts).pipe(
    Layer.provideMerge(History.tracked(market)),
    Layer.provideMerge(RpcSubscriptions_.layer),
    Layer.provideMerge(History.layer),
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
