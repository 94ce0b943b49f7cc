/**
 * `feeshare analytics lifetime-fees | claim-stats` and `feeshare pools`.
 */
import * as Effect from "effect/Effect"
import * as Output from "../../Output.js"
import { client, yesNo } from "../context.js"

export const lifetimeFees = (args: { readonly mint: string }) =>
  Effect.gen(function*() {
    const api = yield* client("analytics lifetime-fees")
    const fees = yield* api.analytics.lifetimeFees({ tokenMint: args.mint })
    return Output.result({ tokenMint: args.mint, lifetimeFeesLamports: fees }, [
      `Lifetime fees of ${args.mint}: ${Output.lamports(fees)}`
    ])
  })

export const claimStats = (args: { readonly mint: string }) =>
  Effect.gen(function*() {
    const api = yield* client("analytics claim-stats")
    const stats = yield* api.analytics.claimStats({ tokenMint: args.mint })
    return Output.result(stats, [
      `Claim statistics of ${args.mint}:`,
      ...Output.table(
        ["wallet", "bps", "creator", "admin", "claimed (lamports)"],
        stats.map((
          s
        ) => [s.wallet, String(s.royaltyBps), yesNo(s.isCreator), yesNo(s.isAdmin), Output.lamports(s.totalClaimed)])
      )
    ])
  })

export const pools = (args: { readonly onlyMigrated: boolean }) =>
  Effect.gen(function*() {
    const api = yield* client("pools")
    const list = yield* api.analytics.pools(args.onlyMigrated ? { onlyMigrated: true } : {})
    return Output.result(
      list,
      Output.table(
        ["token mint", "DBC config", "DBC pool", "DAMM v2 pool"],
        list.map((p) => [p.tokenMint, p.dbcConfigKey ?? "-", p.dbcPoolKey ?? "-", p.dammV2PoolKey ?? "-"])
      )
    )
  })
