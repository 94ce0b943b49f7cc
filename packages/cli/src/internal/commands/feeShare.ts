/**
 * `feeshare fee-share update | admins`.
 */
import { BasisPoints } from "@feeshare/domain"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Output from "../../Output.js"
import { client, invalid, loadSigning, runOf, sentLines, signer, walletOf } from "../context.js"

const parseClaimers = (claimers: ReadonlyArray<string>) =>
  Effect.forEach(claimers, (text, i) => {
    const at = text.lastIndexOf(":")
    const address = text.slice(0, at)
    const bps = Number(text.slice(at + 1))
    if (at <= 0 || !/^[0-9]+$/.test(text.slice(at + 1)) || !BasisPoints.isBasisPoints(bps)) {
      return Effect.fail(
        invalid("fee-share update", `--claimer[${i}]`, `must be ADDR:BPS with BPS ${BasisPoints.rule}`)
      )
    }
    return Effect.succeed({ address, bps })
  })

export const update = (
  args: {
    readonly mint: string
    readonly claimers: ReadonlyArray<string>
    readonly lookupTables: ReadonlyArray<string>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const claimers = yield* parseClaimers(args.claimers)
    const wallet = yield* signer("fee-share update")
    const api = yield* client("fee-share update")
    const entries = yield* api.feeShare.updateConfig({
      baseMint: args.mint,
      claimersArray: claimers.map((c) => c.address),
      basisPointsArray: claimers.map((c) => c.bps),
      payer: wallet.publicKey,
      ...(args.lookupTables.length === 0 ? {} : { additionalLookupTables: args.lookupTables })
    })
    const signing = yield* loadSigning
    const sent = yield* signing.feeShareUpdate(entries, wallet, yield* runOf(), !args.dryRun)
    const shares = Output.table(["claimer", "bps"], claimers.map((c) => [c.address, String(c.bps)]))
    return args.dryRun
      ? Output.result({ dryRun: true, verified: entries.transactions.length, claimers }, [
        `Dry run: ${entries.transactions.length} transaction(s) verified; nothing was signed or sent.`,
        ...shares
      ])
      : Output.result({ landed: sent, claimers }, [
        `Fee share of ${args.mint} updated:`,
        ...shares,
        ...sentLines(sent)
      ])
  })

export const admins = (args: { readonly wallet: Option.Option<string> }) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(args.wallet, "fee-share admins")
    const api = yield* client("fee-share admins")
    const { tokenMints } = yield* api.feeShare.adminList({ wallet })
    return Output.result({ tokenMints }, [
      `Tokens ${wallet} administers:`,
      ...(tokenMints.length === 0 ? ["(none)"] : tokenMints.map((mint) => `  ${mint}`))
    ])
  })
