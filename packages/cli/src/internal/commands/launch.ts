/**
 * `feeshare launch`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Output from "../../Output.js"
import { client, loadSigning, runOf, sentLines, signer } from "../context.js"

export const launch = (
  args: {
    readonly ipfs: string
    readonly mint: string
    readonly configKey: string
    readonly initialBuy: number
    readonly tipWallet: Option.Option<string>
    readonly tipLamports: Option.Option<number>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const wallet = yield* signer("launch")
    const api = yield* client("launch")
    const transaction = yield* api.launch.createTransaction({
      ipfs: args.ipfs,
      tokenMint: args.mint,
      wallet: wallet.publicKey,
      configKey: args.configKey,
      initialBuyLamports: args.initialBuy,
      ...(Option.isSome(args.tipWallet) ? { tipWallet: args.tipWallet.value } : {}),
      ...(Option.isSome(args.tipLamports) ? { tipLamports: args.tipLamports.value } : {})
    })
    const signing = yield* loadSigning
    const sent = yield* signing.launch(transaction, args.mint, wallet, yield* runOf(), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, mint: args.mint }, [
        `Dry run: the launch transaction is signed by the mint ${args.mint} and verified; nothing was signed or sent.`
      ])
      : Output.result({ mint: args.mint, landed: sent }, [`Launched ${args.mint}:`, ...sentLines(sent)])
  })
