/**
 * `feeshare trade quote | swap`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Output from "../../Output.js"
import { client, invalid, loadSigning, runOf, sentLines, type Service, signer } from "../context.js"

/** The options of `trade quote` and `trade swap`. */
export interface SwapArgs {
  readonly input: string
  readonly output: string
  readonly amount: string
  readonly slippageBps: Option.Option<number>
}

const quoteOf = (api: Service, args: SwapArgs) => {
  const amount = /^(0|[1-9][0-9]*)$/.test(args.amount) ? BigInt(args.amount) : undefined
  if (amount === undefined) {
    return Effect.fail(invalid("trade.quote", "--amount", "must be a whole number of the input token's smallest unit"))
  }
  return api.trade.quote({
    inputMint: args.input,
    outputMint: args.output,
    amount,
    ...(Option.isSome(args.slippageBps) ? { slippageMode: "manual" as const, slippageBps: args.slippageBps.value } : {})
  })
}

type Quote = Effect.Effect.Success<ReturnType<Service["trade"]["quote"]>>

const quoteLines = (quote: Quote): ReadonlyArray<string> => {
  const first = quote.routePlan[0]
  const last = quote.routePlan[quote.routePlan.length - 1]
  const inDecimals = first?.inputMintDecimals
  const outDecimals = last?.outputMintDecimals
  return Output.fields([
    ["in", `${Output.amount(quote.inAmount, inDecimals)} of ${quote.inputMint}`],
    ["out", `${Output.amount(quote.outAmount, outDecimals)} of ${quote.outputMint}`],
    ["minimum out", Output.amount(quote.minOutAmount, outDecimals)],
    ["price impact", Output.percent(quote.priceImpactPct)],
    ["slippage", `${quote.slippageBps} bps`],
    ["route", quote.routePlan.map((step) => step.venue).join(" -> ") || "-"],
    ...(quote.platformFee === undefined || quote.platformFee === null
      ? []
      : [["platform fee", `${quote.platformFee.amount} (${quote.platformFee.feeBps} bps)`] as const])
  ])
}

export const quote = (args: SwapArgs) =>
  Effect.gen(function*() {
    const api = yield* client("trade quote")
    const quote = yield* quoteOf(api, args)
    return Output.result(quote, quoteLines(quote))
  })

export const swap = (args: SwapArgs & { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer("trade swap")
    const api = yield* client("trade swap")
    const quote = yield* quoteOf(api, args)
    const result = yield* api.trade.swap({ quoteResponse: quote, userPublicKey: wallet.publicKey })
    const signing = yield* loadSigning
    const sent = yield* signing.swap(result, wallet, yield* runOf(), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, quote }, [
        ...quoteLines(quote),
        `Dry run: the swap transaction is verified; nothing was signed or sent.`
      ])
      : Output.result({ quote, landed: sent }, [...quoteLines(quote), ...sentLines(sent)])
  })
