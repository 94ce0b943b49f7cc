/**
 * `feeshare partner claim`.
 */
import * as Effect from "effect/Effect"
import * as Output from "../../Output.js"
import { client, loadSigning, runOf, sentLines, signer } from "../context.js"
import type { Globals } from "../globals.js"

export const claim = (g: Globals, args: { readonly dryRun: boolean }) =>
  Effect.gen(function*() {
    const wallet = yield* signer(g, "partner claim")
    const api = yield* client(g, "partner claim")
    const entries = yield* api.feeShare.partnerClaim({ partnerWallet: wallet.publicKey })
    const signing = yield* loadSigning
    const sent = yield* signing.partnerClaim(entries, wallet, runOf(g), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, verified: entries.transactions.length }, [
        `Dry run: ${entries.transactions.length} transaction(s) verified; nothing was signed or sent.`
      ])
      : Output.result({ landed: sent }, [`Partner fees claimed for ${wallet.publicKey}:`, ...sentLines(sent)])
  })
