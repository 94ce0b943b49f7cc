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
  | "pools"
  | "quote"
  | "evm_index_status"
  | "evm_positions"
  | "evm_creation_fee"
  | "me"
  | "rate_limit_status"
  | "policy"
> => ({
  positions: (query) => failing(Effect.map(api().claims.positions(query), (positions) => ({ positions }))),
  vault_claimables: (query) => failing(api().claims.vaults(query)),
  admin_list: (query) => failing(api().feeShare.adminList(query)),
  lifetime_fees: (query) =>
    failing(
      Effect.map(
        api().analytics.lifetimeFees(query),
        (fees) => ({ tokenMint: query.tokenMint, lifetimeFeesLamports: fees })
      )
    ),
  claim_stats: (query) => failing(Effect.map(api().analytics.claimStats(query), (claimers) => ({ claimers }))),
  pools: (query) => failing(Effect.map(api().analytics.pools(query), (pools) => ({ pools }))),
  quote: (query) => failing(api().trade.quote(query)),
  evm_index_status: (body) => failing(Effect.map(api().evm.indexTokenStatus(body), (statuses) => ({ statuses }))),
  evm_positions: (query) => failing(api().evm.claimablePositions(query)),
  evm_creation_fee: () => failing(api().evm.creationFee()),
  me: () => failing(api().identity.me()),
  rate_limit_status: () =>
    failing(Effect.gen(function*() {
      yield* api().ping()
      return { rateLimit: Option.getOrNull(yield* SubscriptionRef.get(api().rateLimit)) }
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
