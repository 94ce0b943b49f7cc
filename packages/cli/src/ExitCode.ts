/**
 * Exit codes per error class, and the one-line message of every failure: what failed, why,
 * and what to do. The library's tags come from the core's one table of failures
 * (`Failures` of @feeshare/client, which the Promise facade's error classes follow too);
 * classification reads only the error's `_tag`. The bin loads this module only to report a
 * failure.
 *
 * @since 0.1.0
 */
import * as Failures from "@feeshare/solana/Failures"
import { WalletUnavailable } from "@feeshare/solana/WalletSource"
import {
  ClaimsFailed,
  ClaimsRefused,
  ClusterSecret,
  InvalidKnobs,
  MissingApiKey,
  MissingKeypair,
  WeakToken
} from "./CliError.js"
import { CredentialsError } from "./Credentials.js"
import * as Codes from "./internal/codes.js"

/** The usage errors of @effect/cli (not a tagged class of its own). */
const validationError = "ValidationError"

/**
 * One class of outcomes: its exit code, the error tags it covers, and the advice printed
 * after the reason.
 *
 * @since 0.1.0
 * @category models
 */
export interface Class {
  readonly code: number
  readonly name: string
  readonly meaning: string
  readonly tags: ReadonlyArray<string>
  readonly advice: string
}

/**
 * Every exit code the CLI uses, in order.
 *
 * @since 0.1.0
 * @category constants
 */
export const classes: ReadonlyArray<Class> = [
  { code: Codes.ok, name: "ok", meaning: "the command succeeded", tags: [], advice: "" },
  {
    code: Codes.internal,
    name: "internal",
    meaning: "an unexpected defect in the CLI (a bug)",
    tags: [],
    advice: "report it with the command line that caused it"
  },
  {
    code: Codes.usage,
    name: "usage",
    meaning: "unknown command or option, a missing or malformed argument, a value that breaks a rule " +
      "(nothing was sent)",
    tags: [
      validationError,
      ...Failures.tagsOf("invalid"),
      MissingKeypair._tag,
      InvalidKnobs._tag,
      WeakToken._tag,
      ClusterSecret._tag
    ],
    advice: "fix the command line (see --help); nothing was sent"
  },
  {
    code: 3,
    name: "auth",
    meaning: "no API key, or the service refused it (401, 403), or the wallet needs an MFA code",
    tags: [MissingApiKey._tag, ...Failures.tagsOf("auth")],
    advice: "pass --api-key, set FEESHARE_API_KEY, or run `feeshare auth login --keypair FILE`"
  },
  {
    code: 4,
    name: "refused",
    meaning: "the service refused the request (400, 404): invalid parameters, nothing to claim, unknown token",
    tags: Failures.tagsOf("refused"),
    advice: "check the values given (mint, wallet, amounts)"
  },
  {
    code: 5,
    name: "rate-limited",
    meaning: "the rate limit is spent (429) beyond the time the CLI is willing to wait",
    tags: Failures.tagsOf("rateLimited"),
    advice: "wait for the reset (`feeshare limits` shows it) and try again"
  },
  {
    code: 6,
    name: "service",
    meaning: "the service failed (5xx) or answered something that is not a valid envelope",
    tags: Failures.tagsOf("service"),
    advice: "try again later; the CLI already retried transient failures"
  },
  {
    code: 7,
    name: "network",
    meaning: "the service, the Solana RPC or the shared rate budget (Redis) could not be reached, or did not " +
      "answer in time",
    tags: Failures.tagsOf("unreachable"),
    advice: "check --base-url / --rpc-url and that the service is running (`feeshare sandbox` for a local one)"
  },
  {
    code: 8,
    name: "refused-to-sign",
    meaning: "a transaction failed verification before signing; nothing was signed or sent",
    tags: [...Failures.tagsOf("unverified"), ClaimsRefused._tag],
    advice: "do not sign it; the transaction is not what the service said it is"
  },
  {
    code: 9,
    name: "chain",
    meaning: "a transaction failed on chain, failed its simulation, expired, or the plan could not complete",
    tags: [...Failures.tagsOf("chain"), ClaimsFailed._tag],
    advice: "run the command again: landed stages are never resent and a fresh plan is built"
  },
  {
    code: 10,
    name: "local",
    meaning: "a local key or the credentials file could not be read or written",
    // WalletUnavailable: a wallet of the keeper's config or the MCP policy could not be loaded
    tags: [...Failures.tagsOf("local"), WalletUnavailable._tag, CredentialsError._tag],
    advice: "check the file path and its content (a solana-keygen JSON array of 64 bytes)"
  },
  {
    code: Codes.interrupted,
    name: "interrupted",
    meaning: "interrupted (Ctrl-C)",
    tags: [],
    advice: ""
  }
]

const byTag = new Map<string, Class>(classes.flatMap((c) => c.tags.map((tag) => [tag, c] as const)))

/**
 * The success code.
 *
 * @since 0.1.0
 * @category constants
 */
export const ok = Codes.ok

/**
 * The code of a defect (a bug).
 *
 * @since 0.1.0
 * @category constants
 */
export const internal = Codes.internal

/**
 * The code of a usage error.
 *
 * @since 0.1.0
 * @category constants
 */
export const usage = Codes.usage

/**
 * The code of an interrupted command.
 *
 * @since 0.1.0
 * @category constants
 */
export const interrupted = Codes.interrupted

/**
 * The class of an error tag (`internal` for a tag the CLI does not know).
 *
 * @since 0.1.0
 * @category classification
 */
export const classOf = (tag: string): Class => byTag.get(tag) ?? classes[1]!

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

const textField = (error: Record<string, unknown>, key: string): string | undefined => {
  const value = error[key]
  return typeof value === "string" && value !== "" ? value : undefined
}

/**
 * A failure as the CLI reports it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Report {
  readonly code: number
  readonly tag: string
  /** What failed (the operation or the stage), when known. */
  readonly what: string | undefined
  /** Why: the error's own message. */
  readonly why: string
  readonly advice: string
  /** `what: why (TAG). advice` on one line. */
  readonly line: string
}

/** The most of a message printed: a hostile server's 5 MB message is not a 5 MB line. */
export const maxMessageLength = 500

/**
 * `text` on one line, at most `maxMessageLength` characters (and how long it was).
 *
 * @since 0.1.0
 * @category formatting
 */
export const oneLine = (text: string): string => {
  const line = text.slice(0, maxMessageLength * 4).replace(/\s+/g, " ").trim()
  return line.length > maxMessageLength ? `${line.slice(0, maxMessageLength)}… (${text.length} characters)` : line
}

/**
 * Describes a typed failure on one line. Messages of the library never carry secrets
 * (keys are `Redacted`), so the message is printed as is.
 *
 * @since 0.1.0
 * @category classification
 */
export const describe = (error: unknown): Report => {
  const record = isRecord(error) ? error : {}
  const tag = textField(record, "_tag") ?? "Error"
  const known = byTag.get(tag)
  const c = known ?? classes[1]!
  const what = textField(record, "operation") ?? textField(record, "stage")
  let why = oneLine(textField(record, "message") ?? (error instanceof Error ? error.message : String(error)))
  if (what !== undefined && why.startsWith(`${what}: `)) why = why.slice(what.length + 2)
  let advice = c.advice
  if (tag === "RateLimited" && typeof record.resetAt === "number" && record.resetAt > 0) {
    advice = `wait until ${new Date(record.resetAt * 1000).toISOString()} and try again`
  }
  if (tag === "InvalidRequest") advice = "fix the value; nothing was sent"
  if (tag === "MfaRequired") advice = "run `feeshare auth login` again with --mfa-code CODE"
  if (tag === "BudgetUnavailable") {
    advice = "check --redis-url / FEESHARE_REDIS_URL and that Redis is running"
  }
  if (tag === "Forbidden") advice = "use a key allowed to do this (e.g. the fee-share admin's)"
  if (tag === "UnexpectedResponse") {
    // a 5xx page from the service or a proxy in front of it is an outage, not a new format
    advice = typeof record.status === "number" && record.status >= 500
      ? `the service (or a proxy in front of it) failed with status ${record.status}; try again later, ` +
        "the CLI already retried"
      : "the service answered something this version of feeshare does not understand; " +
        "upgrade @feeshare/cli, or report it with the command line"
  }
  const head = what === undefined ? why : `${what}: ${why}`
  return { code: c.code, tag, what, why, advice, line: `${head} (${tag}). ${advice}`.trim() }
}
