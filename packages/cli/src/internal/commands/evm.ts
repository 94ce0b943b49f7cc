/**
 * `feeshare evm index-status | positions | creation-fee`.
 */
import * as Effect from "effect/Effect"
import * as Output from "../../Output.js"
import { client, yesNo } from "../context.js"

export const indexStatus = (args: { readonly addresses: ReadonlyArray<string> }) =>
  Effect.gen(function*() {
    const api = yield* client("evm index-status")
    const statuses = yield* api.evm.indexTokenStatus({ tokenAddresses: args.addresses })
    return Output.result(
      statuses,
      Output.table(
        ["token", "index token", "basket"],
        statuses.map((s) => [s.tokenAddress, yesNo(s.isIndexToken), s.tokens.join(",") || "-"])
      )
    )
  })

export const positions = (args: { readonly owner: string }) =>
  Effect.gen(function*() {
    const api = yield* client("evm positions")
    const { positions, truncated } = yield* api.evm.claimablePositions({ owner: args.owner })
    return Output.result({ positions, truncated }, [
      ...Output.table(
        ["token", "symbol", "version", "bps", "actionable (wei)", "lifetime (wei)"],
        positions.map((p) => [
          p.token.address,
          p.token.symbol,
          p.version,
          String(p.userBps),
          Output.amount(p.actionableWei, p.quote.decimals, p.quote.symbol),
          Output.amount(p.lifetimeWei, p.quote.decimals, p.quote.symbol)
        ])
      ),
      ...(truncated ? ["(truncated: discovery hit its bound; positions may be incomplete)"] : [])
    ])
  })

export const creationFee = () =>
  Effect.gen(function*() {
    const api = yield* client("evm creation-fee")
    const { creationFeeWei } = yield* api.evm.creationFee()
    return Output.result({ creationFeeWei }, [`Creation fee: ${Output.wei(creationFeeWei)}`])
  })
