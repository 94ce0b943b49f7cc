/**
 * The read tools' handlers: each one operation of the client, and the policy with what is left
 * of today's caps.
 *
 * @since 0.1.0
 */
import { Effect, Option, SubscriptionRef } from "effect"
import type { HandlerContext, ToolHandlers } from "./context.js"
import { failing } from "./failures.js"

/**
 * The handlers of the tools that only read.
 *
 * @since 0.1.0
 * @category handlers
 */
export const make = ({ api, policy, signers, spending }: HandlerContext): Pick<
  ToolHandlers,
  | "positions"
  | "vault_claimables"
  | "admin_list"
  | "lifetime_fees"
  | "claim_stats"
  | "claim_events"
  | "pools"
  | "quote"
  | "evm_index_status"
  | "evm_positions"
  | "evm_creation_fee"
  | "me"
  | "rate_limit_status"
  | "policy"
> => ({
  positions: (query) =>
    failing(
      Effect.map(Effect.flatMap(api, (client) => client.claims.positions(query)), (positions) => ({ positions }))
    ),
  vault_claimables: (query) => failing(Effect.flatMap(api, (client) => client.claims.vaults(query))),
  admin_list: (query) => failing(Effect.flatMap(api, (client) => client.feeShare.adminList(query))),
  lifetime_fees: (query) =>
    failing(
      Effect.map(
        Effect.flatMap(api, (client) => client.analytics.lifetimeFees(query)),
        (fees) => ({ tokenMint: query.tokenMint, lifetimeFeesLamports: fees })
      )
    ),
  claim_stats: (query) =>
    failing(
      Effect.map(Effect.flatMap(api, (client) => client.analytics.claimStats(query)), (claimers) => ({ claimers }))
    ),
  claim_events: (query) =>
    failing(Effect.flatMap(api, (client) =>
      client.analytics.claimEvents({
        tokenMint: query.tokenMint,
        ...(query.mode === undefined ? {} : { mode: query.mode }),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
        ...(query.offset === undefined ? {} : { offset: query.offset }),
        ...(query.from === undefined ? {} : { from: query.from }),
        ...(query.to === undefined ? {} : { to: query.to })
      }))),
  pools: (query) =>
    failing(Effect.map(Effect.flatMap(api, (client) => client.analytics.pools(query)), (pools) => ({ pools }))),
  quote: (query) => failing(Effect.flatMap(api, (client) => client.trade.quote(query))),
  evm_index_status: (body) =>
    failing(
      Effect.map(Effect.flatMap(api, (client) => client.evm.indexTokenStatus(body)), (statuses) => ({ statuses }))
    ),
  evm_positions: (query) => failing(Effect.flatMap(api, (client) => client.evm.claimablePositions(query))),
  evm_creation_fee: () => failing(Effect.flatMap(api, (client) => client.evm.creationFee())),
  me: () => failing(Effect.flatMap(api, (client) => client.identity.me())),
  rate_limit_status: () =>
    failing(Effect.gen(function*() {
      yield* Effect.flatMap(api, (client) => client.ping())
      return { rateLimit: Option.getOrNull(yield* SubscriptionRef.get((yield* api).rateLimit)) }
    })),
  policy: () =>
    Effect.map(spending.remaining, (left) => ({
      policy: { ...policy, wallets: signers.map((signer) => signer.publicKey) },
      remainingToday: {
        swapLamports: left.swapLamports === null ? null : String(left.swapLamports),
        networkFeesLamports: left.networkFeesLamports === null ? null : String(left.networkFeesLamports)
      }
    }))
})
