/**
 * `feeshare claims all`: every position, vault and deployer position of the wallet of
 * `--keypair`, claimed in one run (`ClaimAll` of @feeshare/solana) with a row per item, live
 * on a terminal, and a total per payout asset.
 */
import type { ClaimAll } from "@feeshare/solana"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { ClaimsFailed, ClaimsRefused } from "../../CliError.js"
import * as Output from "../../Output.js"
import { client, invalid, loadSigning, runOf, signer } from "../context.js"
import { Environment } from "../environment.js"

const operation = "claims all"

/** Where `--min` takes wrapped SOL by name. */
const aliases: Readonly<Record<string, string>> = { sol: "So11111111111111111111111111111111111111112" }

/** `--min MINT=RAW` (repeatable; `sol=RAW` for wrapped SOL), as a map; a bad entry names the rule. */
export const parseMin = (entries: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const min = new Map<string, bigint>()
    for (const entry of entries) {
      const at = entry.lastIndexOf("=")
      const mint = at > 0 ? entry.slice(0, at) : ""
      const raw = at > 0 ? entry.slice(at + 1) : ""
      if (mint === "" || !/^\d{1,30}$/.test(raw)) {
        return yield* invalid(
          operation,
          "--min",
          `must be MINT=RAW_AMOUNT (raw units, e.g. sol=1000000), got "${entry}"`
        )
      }
      min.set(aliases[mint.toLowerCase()] ?? mint, BigInt(raw))
    }
    return min
  })

const amountOf = (amount: bigint, decimals: number | null, asset: string) =>
  decimals === null ? `${amount} (raw ${Output.short(asset, 4)})` : Output.amount(amount, decimals, assetName(asset))

const assetName = (asset: string) => (asset === aliases["sol"] ? "SOL" : Output.short(asset, 4))

const row = (item: ClaimAll.Item) => [
  item.kind,
  item.kind === "position" ? item.subject : item.subject.includes(" ") ? item.subject : Output.short(item.subject, 6),
  amountOf(item.amount, item.decimals, item.asset),
  String(item.stages),
  item.error === null ? item.state : `${item.state}: ${item.error}`
]

const headers = ["kind", "token or vault", "amount", "stages", "state"]

const tableOf = (items: ReadonlyArray<ClaimAll.Item>) => Output.table(headers, items.map(row))

const totalLines = (result: ClaimAll.Result) =>
  result.totals.map((total) =>
    `Total ${assetName(total.asset)}: ${result.dryRun ? "verified" : "claimed"} ${
      amountOf(result.dryRun ? total.owed : total.claimed, total.decimals, total.asset)
    } of ${amountOf(total.owed, total.decimals, total.asset)} owed`
  )

const itemJson = (item: ClaimAll.Item) => ({
  kind: item.kind,
  route: item.route,
  subject: item.subject,
  asset: item.asset,
  decimals: item.decimals,
  amount: item.amount,
  stages: item.stages,
  state: item.state,
  signatures: item.signatures,
  error: item.error
})

/**
 * The live rows: on a terminal, the table redrawn over itself at every change; on a pipe,
 * a line per item when it ends; nothing with `--json`.
 */
const liveRows = (json: boolean) => {
  const rows: Array<ClaimAll.Item> = []
  let drawn = 0
  const tty = !json && process.stdout.isTTY === true
  return (item: ClaimAll.Item, index: number) =>
    Effect.sync(() => {
      rows[index] = item
      if (json) return
      if (tty) {
        const lines = tableOf(rows.filter((r) => r !== undefined))
        process.stdout.write(`${drawn > 0 ? `\u001b[${drawn}A\r\u001b[J` : ""}${lines.join("\n")}\n`)
        drawn = lines.length
      } else if (item.state !== "pending") {
        process.stdout.write(`${row(item).join("  ")}\n`)
      }
    })
}

export const all = (
  args: { readonly dryRun: boolean; readonly min: ReadonlyArray<string>; readonly maxRounds: number }
) =>
  Effect.gen(function*() {
    const g = yield* Environment
    const min = yield* parseMin(args.min)
    if (!Number.isSafeInteger(args.maxRounds) || args.maxRounds < 1 || args.maxRounds > 100) {
      return yield* invalid(operation, "--max-rounds", "must be an integer from 1 to 100")
    }
    const wallet = yield* signer(operation)
    const api = yield* client(operation)
    const signing = yield* loadSigning
    const run = yield* runOf()
    if (!g.json) yield* Console.log(`${args.dryRun ? "Verifying" : "Claiming"} everything owed to ${wallet.publicKey}:`)
    const result = yield* signing.claimAll(api.claims, wallet, run, {
      dryRun: args.dryRun,
      min,
      maxDeployerRounds: args.maxRounds,
      onItem: liveRows(g.json)
    })
    const json = {
      wallet: result.wallet,
      dryRun: result.dryRun,
      nothingToClaim: result.nothingToClaim,
      complete: result.complete,
      items: result.items.map(itemJson),
      totals: result.totals
    }
    const human = result.nothingToClaim && result.items.every((item) => item.state !== "below-min")
      ? ["Nothing to claim."]
      : [
        ...(result.dryRun ? ["Dry run: every transaction verified; nothing was signed or sent."] : []),
        ...tableOf(result.items),
        ...totalLines(result),
        ...(result.nothingToClaim ? ["Nothing to claim above --min."] : [])
      ]
    const output = Output.result(json, human)
    const problems = result.items.filter((item) => item.state === "refused" || item.state === "failed")
    if (problems.length === 0) return output
    // the table first (with --json, the error document is the one document: it names every item not claimed),
    // then the exit code of the worst problem
    if (!g.json) yield* Console.log(output.human.join("\n"))
    const message = `${problems.length} item(s) not claimed: ${
      problems.map((item) => `${item.kind} ${item.subject}: ${item.error}`).join("; ")
    }`
    return yield* problems.some((item) => item.state === "refused")
      ? Effect.fail(new ClaimsRefused({ operation, message }))
      : Effect.fail(new ClaimsFailed({ operation, message }))
  })
