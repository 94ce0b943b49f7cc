import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Api, type Claims, type ClaimTransactions, type FeeShare } from "@feeshare/domain"
import { BadRequest, Forbidden, NotFound, ServerError, Unauthorized } from "@feeshare/domain/FeeShareError"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { Accounts } from "../model/accounts.js"
import type * as EvmFixtures from "../model/evmFixtures.js"
import { History } from "../model/history/service.js"
import { Market, type Rejection } from "../model/market/service.js"
import type * as Options from "../model/options.js"
import * as Tamper from "../model/tamper.js"
import { respond } from "./respond.js"
import { MediaGroup, SandboxApi } from "./sandboxApi.js"

/** The served API: the service's contract plus the sandbox-only operations. */
export class FullApi extends Api.Api.addHttpApi(SandboxApi) {}

/** A market refusal as the domain failure of its status. */
export const fromRejection = (operation: string) => (rejection: Rejection) => {
  const fields = { status: rejection.status, message: rejection.message, operation }
  switch (rejection.status) {
    case 403:
      return new Forbidden(fields)
    case 404:
      return new NotFound(fields)
    case 500:
      return new ServerError(fields)
    default:
      return new BadRequest(fields)
  }
}

/** Each endpoint's success as a finished response (see `respond`). */
const claims = {
  createPlan: respond(Api.ClaimsGroup, "createPlan"),
  positions: respond(Api.ClaimsGroup, "positions"),
  vaults: respond(Api.ClaimsGroup, "vaults"),
  claimVault: respond(Api.ClaimsGroup, "claimVault"),
  deployerPositions: respond(Api.ClaimsGroup, "deployerPositions"),
  deployerClaim: respond(Api.ClaimsGroup, "deployerClaim"),
  claimV3: respond(Api.ClaimsGroup, "claimV3")
}
const feeShare = {
  createConfig: respond(Api.FeeShareGroup, "createConfig"),
  updateConfig: respond(Api.FeeShareGroup, "updateConfig"),
  partnerClaim: respond(Api.FeeShareGroup, "partnerClaim"),
  adminList: respond(Api.FeeShareGroup, "adminList")
}
const launch = {
  createTransaction: respond(Api.LaunchGroup, "createTransaction"),
  createTokenInfo: respond(Api.LaunchGroup, "createTokenInfo"),
  wallet: respond(Api.LaunchGroup, "wallet"),
  wallets: respond(Api.LaunchGroup, "wallets")
}
const trade = { quote: respond(Api.TradeGroup, "quote"), swap: respond(Api.TradeGroup, "swap") }
const analytics = {
  lifetimeFees: respond(Api.AnalyticsGroup, "lifetimeFees"),
  claimStats: respond(Api.AnalyticsGroup, "claimStats"),
  claimEvents: respond(Api.AnalyticsGroup, "claimEvents"),
  pools: respond(Api.AnalyticsGroup, "pools")
}
const evm = {
  indexTokenStatus: respond(Api.EvmGroup, "indexTokenStatus"),
  claimablePositions: respond(Api.EvmGroup, "claimablePositions"),
  creationFee: respond(Api.EvmGroup, "creationFee")
}
const identity = { me: respond(Api.IdentityGroup, "me") }
const agentAuth = { init: respond(Api.AgentAuthGroup, "init"), callback: respond(Api.AgentAuthGroup, "callback") }
const system = { ping: respond(Api.SystemGroup, "ping") }

const op = <A, R>(operation: string, effect: Effect.Effect<A, Rejection, R>) =>
  Effect.mapError(effect, fromRejection(operation))

export const ApiKeyLive = Layer.effect(
  Api.ApiKey,
  Effect.map(Accounts, (accounts) =>
    Api.ApiKey.of({
      apiKey: (key) => {
        const value = Redacted.value(key)
        if (value === "") {
          return Effect.fail(
            new Unauthorized({ status: 401, message: `Missing API key (${Api.apiKeyHeader} header)`, operation: "" })
          )
        }
        return Option.match(accounts.resolve(value), {
          onNone: () => Effect.fail(new Unauthorized({ status: 401, message: "Invalid API key", operation: "" })),
          onSome: (owner) => Effect.succeed(owner)
        })
      }
    }))
)

/** `Options.tamper`, checked: a bad entry stops the sandbox at start-up, naming the rule. */
const tamperer = (options: Pick<Options.Options, "seed" | "tamper">) =>
  Schema.decodeUnknown(Schema.Array(Tamper.Tamper))(options.tamper).pipe(
    Effect.map((tampers) => Tamper.make(options.seed, tampers)),
    Effect.catchTag("ParseError", (error) => Effect.dieMessage(`sandbox option tamper: ${error.message}`))
  )

const claimsLive = (tamper: Tamper.Tamperer) =>
  HttpApiBuilder.group(FullApi, "claims", (handlers) =>
    Effect.gen(function*() {
      const market = yield* Market
      const history = Option.getOrUndefined(yield* Effect.serviceOption(History))
      // the claim-plan endpoint serves what the tamperer makes of the plan (`--tamper`)
      const createPlan = (payload: Claims.ClaimPlanRequest) =>
        Effect.map(market.createPlan(payload), (plan) => {
          const tampered = tamper.next(plan)
          const served = tampered?.plan ?? plan
          // explorer: the plan as served, and how it was tampered
          history?.plan(
            served,
            payload.feeClaimer,
            tampered === undefined ? null : `${tampered.kind} (stage ${tampered.stage})`
          )
          return served
        })
      return handlers
        .handle("createPlan", ({ payload }) => claims.createPlan(op("claims.createPlan", createPlan(payload))))
        .handle("positions", ({ urlParams }) =>
          claims.positions(op("claims.positions", market.positions(urlParams.wallet))))
        .handle("vaults", ({ urlParams }) =>
          claims.vaults(op("claims.vaults", market.vaults(urlParams.wallet))))
        .handle("claimVault", ({ payload }) =>
          claims.claimVault(op("claims.claimVault", market.claimVault(payload, sponsoredHostile(tamper, "vault")))))
        .handle("deployerPositions", ({ urlParams }) =>
          claims.deployerPositions(op("claims.deployerPositions", market.deployerPositions(urlParams.wallet))))
        .handle("deployerClaim", ({ payload }) =>
          claims.deployerClaim(
            op("claims.deployerClaim", market.deployerClaim(payload, sponsoredHostile(tamper, "deployer")))
          ))
        .handle("claimV3", ({ payload }) =>
          claims.claimV3(
            op(
              "claims.claimV3",
              Effect.map(market.claimV3(payload), (answer) =>
                servedV3(tamper, answer))
            )
          ))
    }))

/** The hostile variant `--tamper sponsor-*` asks of the next sponsored answer of `endpoint`, if any. */
const sponsoredHostile = (tamper: Tamper.Tamperer, endpoint: Tamper.SponsoredEndpoint) => {
  const kind = tamper.nextSponsored(endpoint)
  return kind === undefined ? undefined : Tamper.sponsoredVariants[kind]
}

/** The v3 claim's answer as served: its first transaction tampered when a `tx-*` kind applies. */
const servedV3 = (tamper: Tamper.Tamperer, answer: ClaimTransactions.V3ClaimTransactions) => {
  const kind = answer.length === 0 ? undefined : tamper.nextTransaction("v3")
  if (kind === undefined) return answer
  return answer.map((entry, i) => {
    if (i > 0) return entry
    const tampered = Tamper.applyToEntry({ transaction: entry.tx, blockhash: entry.blockhash }, kind, tamper.random)
    return { tx: tampered.transaction, blockhash: tampered.blockhash }
  })
}

/** Config creation's answer as served: tampered when a transaction kind of `--tamper` applies. */
const servedConfig = (tamper: Tamper.Tamperer, answer: FeeShare.CreateConfigAnswer) => {
  const kind = answer.needsCreation ? tamper.nextTransaction("config") : undefined
  return kind === undefined ? answer : Tamper.applyToConfig(answer, kind, tamper.random)?.answer ?? answer
}

/**
 * The media URLs of the sandbox that answers `request`: its `Host` (the middleware already
 * refused any host that is not one of the sandbox's names) and the media group's paths.
 */
const mediaUrls = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const root = `http://${request.headers.host ?? "127.0.0.1"}`
  const at = (path: string) => (mint: string) => `${root}${path}?${new URLSearchParams({ mint }).toString()}`
  return { metadata: at(MediaGroup.endpoints.tokenMetadata.path), image: at(MediaGroup.endpoints.tokenImage.path) }
})

/** The launch transaction as served: tampered when a transaction kind of `--tamper` applies. */
const servedLaunch = (tamper: Tamper.Tamperer, transaction: string) => {
  const kind = tamper.nextTransaction("launch")
  return kind === undefined || kind === "tx-wrong-blockhash"
    ? transaction
    : Tamper.applyToText(transaction, kind, tamper.random)
}

const feeShareLive = (tamper: Tamper.Tamperer) =>
  HttpApiBuilder.group(FullApi, "feeShare", (handlers) =>
    Effect.map(Market, (market) =>
      handlers
        .handle(
          "createConfig",
          ({ payload }) =>
            feeShare.createConfig(
              op(
                "feeShare.createConfig",
                Effect.map(market.createConfig(payload), (answer) => servedConfig(tamper, answer))
              )
            )
        )
        .handle(
          "updateConfig",
          ({ payload }) => feeShare.updateConfig(op("feeShare.updateConfig", market.updateConfig(payload)))
        )
        .handle(
          "partnerClaim",
          ({ payload }) =>
            feeShare.partnerClaim(op("feeShare.partnerClaim", market.partnerClaim(payload.partnerWallet)))
        )
        .handle(
          "adminList",
          ({ urlParams }) => feeShare.adminList(op("feeShare.adminList", market.adminList(urlParams.wallet)))
        )))

const launchLive = (tamper: Tamper.Tamperer) =>
  HttpApiBuilder.group(FullApi, "launch", (handlers) =>
    Effect.map(Market, (market) =>
      handlers
        .handle(
          "createTransaction",
          ({ payload }) =>
            launch.createTransaction(
              op("launch.createTransaction", Effect.map(market.launch(payload), (text) => servedLaunch(tamper, text)))
            )
        )
        .handle("createTokenInfo", ({ payload }) =>
          launch.createTokenInfo(
            op("launch.createTokenInfo", Effect.flatMap(mediaUrls, (urls) => market.createTokenInfo(payload, urls)))
          ))
        .handle("wallet", ({ urlParams }) => launch.wallet(op("launch.wallet", market.lookupWallet(urlParams))))
        .handle("wallets", ({ payload }) => launch.wallets(op("launch.wallets", market.lookupWallets(payload))))))

const MediaLive = HttpApiBuilder.group(FullApi, "media", (handlers) =>
  Effect.map(Market, (market) =>
    handlers
      .handle("tokenMetadata", ({ urlParams }) => op("media.tokenMetadata", market.tokenMetadata(urlParams.mint)))
      .handle("tokenImage", ({ urlParams }) =>
        op(
          "media.tokenImage",
          Effect.map(market.tokenImage(urlParams.mint), (image) =>
            HttpServerResponse.uint8Array(image.bytes, {
              contentType: image.contentType,
              // the bytes were checked to be an image of this type; never sniffed as anything else
              headers: { "x-content-type-options": "nosniff", "cache-control": "public, max-age=3600" }
            }))
        ))))

const TradeLive = HttpApiBuilder.group(FullApi, "trade", (handlers) =>
  Effect.map(Market, (market) =>
    handlers
      .handle("quote", ({ urlParams }) => trade.quote(op("trade.quote", market.quote(urlParams))))
      .handle("swap", ({ payload }) => trade.swap(op("trade.swap", market.swap(payload))))))

const AnalyticsLive = HttpApiBuilder.group(FullApi, "analytics", (handlers) =>
  Effect.map(Market, (market) =>
    handlers
      .handle(
        "lifetimeFees",
        ({ urlParams }) =>
          analytics.lifetimeFees(op("analytics.lifetimeFees", market.lifetimeFees(urlParams.tokenMint)))
      )
      .handle(
        "claimStats",
        ({ urlParams }) => analytics.claimStats(op("analytics.claimStats", market.claimStats(urlParams.tokenMint)))
      )
      .handle(
        "claimEvents",
        ({ urlParams }) => analytics.claimEvents(op("analytics.claimEvents", market.claimEvents(urlParams)))
      )
      .handle(
        "pools",
        ({ urlParams }) => analytics.pools(op("analytics.pools", market.pools(urlParams.onlyMigrated ?? false)))
      )))

const evmLive = (fixtures: EvmFixtures.Fixtures) =>
  HttpApiBuilder.group(FullApi, "evm", (handlers) =>
    handlers
      .handle(
        "indexTokenStatus",
        ({ payload }) => evm.indexTokenStatus(Effect.sync(() => fixtures.indexStatus(payload.tokenAddresses)))
      )
      .handle(
        "claimablePositions",
        ({ urlParams }) => evm.claimablePositions(Effect.sync(() => fixtures.positions(urlParams.owner)))
      )
      .handle("creationFee", () => evm.creationFee(Effect.succeed({ creationFeeWei: fixtures.creationFeeWei }))))

const IdentityLive = HttpApiBuilder.group(
  FullApi,
  "identity",
  (handlers) =>
    Effect.map(Accounts, (accounts) =>
      handlers.handle("me", () =>
        identity.me(
          Effect.flatMap(Api.Account, (account) => Effect.map(accounts.user(account.userId), (user) => ({ user })))
        )))
)

const AgentAuthLive = HttpApiBuilder.group(
  FullApi,
  "agentAuth",
  (handlers) =>
    Effect.map(Accounts, (accounts) =>
      handlers
        .handle("init", ({ payload }) => agentAuth.init(accounts.init(payload.address)))
        .handle("callback", ({ payload }) => agentAuth.callback(accounts.callback(payload))))
)

const SystemLive = HttpApiBuilder.group(
  FullApi,
  "system",
  (handlers) => handlers.handle("ping", () => system.ping(Effect.succeed({ message: "pong" })))
)

const sandboxLive = (fixtures: EvmFixtures.Fixtures) =>
  HttpApiBuilder.group(FullApi, "sandbox", (handlers) =>
    Effect.gen(function*() {
      const market = yield* Market
      const accounts = yield* Accounts
      return handlers
        .handle("createToken", ({ payload }) => op("sandbox.createToken", market.createToken(payload)))
        .handle(
          "createFeeShareConfig",
          ({ payload }) => op("sandbox.createFeeShareConfig", market.createFeeShareConfig(payload))
        )
        .handle("relayBundle", ({ payload }) => op("sandbox.relayBundle", market.relayBundle(payload)))
        .handle("airdrop", ({ payload }) => op("sandbox.airdrop", market.airdrop(payload)))
        .handle("createHolding", ({ payload }) => op("sandbox.createHolding", market.createHolding(payload)))
        .handle("quoteMints", () => op("sandbox.quoteMints", market.quoteMints))
        .handle("setTransferFee", ({ payload }) => op("sandbox.setTransferFee", market.setTransferFee(payload)))
        .handle("advanceSlots", ({ payload }) => op("sandbox.advanceSlots", market.advanceSlots(payload)))
        .handle("state", () => market.state)
        .handle("registerHandle", ({ payload }) => op("sandbox.registerHandle", market.registerHandle(payload)))
        .handle("enableMfa", ({ payload }) => accounts.enableMfa(payload.wallet))
        .handle("revokeKey", ({ payload }) =>
          Effect.flatMap(accounts.revoke(payload.keyId), (revoked) =>
            revoked
              ? Effect.succeed({ keyId: payload.keyId, revoked })
              : Effect.fail(
                new NotFound({ status: 404, message: `No key ${payload.keyId}`, operation: "sandbox.revokeKey" })
              )))
        .handle("evmFixtures", () =>
          Effect.succeed({
            indexTokens: fixtures.indexTokens,
            plainTokens: fixtures.plainTokens,
            holder: fixtures.holder,
            whale: fixtures.whale,
            discoveryBound: fixtures.discoveryBound,
            creationFeeWei: fixtures.creationFeeWei
          }))
    }))

/** Every group's handlers; needs `Market` and `Accounts`. */
export const layer = (fixtures: EvmFixtures.Fixtures, options: Pick<Options.Options, "seed" | "tamper">) =>
  Layer.unwrapEffect(Effect.map(tamperer(options), (tamper) =>
    Layer.mergeAll(
      claimsLive(tamper),
      feeShareLive(tamper),
      launchLive(tamper),
      TradeLive,
      AnalyticsLive,
      evmLive(fixtures),
      IdentityLive,
      AgentAuthLive,
      SystemLive,
      MediaLive,
      sandboxLive(fixtures)
    ))).pipe(Layer.provide(ApiKeyLive))
