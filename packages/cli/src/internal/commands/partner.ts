/**
 * `feeshare partner claim`.
 */
import * as Effect from "effect/Effect"
import * as Output from "../../Output.js"
import { client, loadSigning, runOf, sentLines, signer } from "../context.js"

export const claim = (args: { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer("partner claim")
    const api = yield* client("partner claim")
    const entries = yield* api.feeShare.partnerClaim({ partnerWallet: wallet.publicKey })
    const signing = yield* loadSigning
    const sent = yield* signing.partnerClaim(entries, wallet, yield* runOf(), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, verified: entries.transactions.length }, [
        `Dry run: ${entries.transactions.length} transaction(s) verified; nothing was signed or sent.`
      ])
      : Output.result({ landed: sent }, [`Partner fees claimed for ${wallet.publicKey}:`, ...sentLines(sent)])
  })
