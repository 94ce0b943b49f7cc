/**
 * The claim-plan request of `claims plan` and `claims claim`, from their flags: every option
 * of the plan (`--source`, `--quote-mint`, `--fee-limit`, `--lookup-table`, `--format`),
 * checked against the domain's rules before anything is sent, each refusal naming its flag.
 */
import { Claims, FeeShareError, Validation } from "@feeshare/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { invalid } from "./context.js"

/** The flags a claim-plan request is made of. */
export interface ClaimFlags {
  readonly mint: string
  readonly format: Option.Option<Claims.TransactionFormat>
  readonly source: Option.Option<string>
  readonly quoteMint: Option.Option<string>
  readonly feeLimits: ReadonlyArray<string>
  readonly lookupTables: ReadonlyArray<string>
}

/** The spellings `--source` accepts. */
export const sourceSyntax = "position | pair | pool:dbc:POOL | pool:damm_v2:POOL | holding:AUTHORITY"

/** The spelling of `--fee-limit`. */
export const feeLimitSyntax = "MINT:PROGRAM:BPS:MAX_FEE_RAW (PROGRAM is token, token-2022 or a program id)"

const programByName: Readonly<Record<string, string>> = Claims.tokenPrograms

const parseSource = (command: string, text: string) => {
  const [kind, ...rest] = text.split(":")
  if ((kind === "position" || kind === "pair") && rest.length === 0) return Effect.succeed({ kind })
  if (kind === "pool" && rest.length === 2) {
    const protocol = rest[0] === "damm-v2" ? "damm_v2" : rest[0]
    return Effect.succeed({ kind, protocol, pool: rest[1] })
  }
  if (kind === "holding" && rest.length === 1) return Effect.succeed({ kind, authority: rest[0] })
  return Effect.fail(invalid(command, "--source", `must be one of ${sourceSyntax}`))
}

const parseFeeLimit = (command: string) => (text: string, i: number) => {
  const parts = text.split(":")
  const [mint, program, bps, maximumFeeRaw] = parts
  if (parts.length !== 4 || mint === undefined || program === undefined || bps === undefined) {
    return Effect.fail(invalid(command, `--fee-limit[${i}]`, `must be ${feeLimitSyntax}`))
  }
  return Effect.succeed({
    asset: { mint, tokenProgram: programByName[program] ?? program },
    // a number only when it reads as one, so that the schema names the rule it breaks
    basisPoints: /^[0-9]+$/.test(bps) ? Number(bps) : bps,
    maximumFeeRaw
  })
}

/** `feeLimits[1].asset.mint` → `--fee-limit[1]`: the request's field as the flag it came from. */
const flagOf = (field: string): string => {
  const rename = (prefix: string, flag: string) =>
    field === prefix || field.startsWith(`${prefix}[`) || field.startsWith(`${prefix}.`)
      ? `${flag}${field.slice(prefix.length)}`
      : undefined
  return rename("feeLimits", "--fee-limit") ?? rename("additionalLookupTables", "--lookup-table") ??
    rename("quoteMint", "--quote-mint") ?? rename("source", "--source") ??
    rename("transactionFormat", "--format") ?? rename("tokenMint", "--mint") ?? rename("feeClaimer", "--wallet") ??
    field
}

/**
 * The claim-plan request of `wallet` from `flags`, decoded with the domain's schema: a flag
 * that breaks a rule (alone or with another) is refused before anything is sent.
 */
export const claimRequest = (command: string, wallet: string, flags: ClaimFlags) =>
  Effect.gen(function*() {
    const source = Option.isSome(flags.source) ? yield* parseSource(command, flags.source.value) : undefined
    const feeLimits = yield* Effect.forEach(flags.feeLimits, parseFeeLimit(command))
    const input = {
      feeClaimer: wallet,
      tokenMint: flags.mint,
      ...(Option.isSome(flags.format) ? { transactionFormat: flags.format.value } : {}),
      ...(source === undefined ? {} : { source }),
      ...(Option.isSome(flags.quoteMint) ? { quoteMint: flags.quoteMint.value } : {}),
      ...(feeLimits.length === 0 ? {} : { feeLimits }),
      ...(flags.lookupTables.length === 0 ? {} : { additionalLookupTables: flags.lookupTables })
    }
    return yield* Validation.decodeRequest(Claims.ClaimPlanRequest, command)(input).pipe(
      Effect.mapError((error) => {
        const field = flagOf(error.field)
        return new FeeShareError.InvalidRequest({
          operation: command,
          field,
          rule: error.rule,
          message: `${command}: ${field} ${error.rule}`
        })
      })
    )
  })
