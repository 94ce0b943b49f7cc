/**
 * Command-line flags of `npm run sandbox`: one per option of `Options`.
 *
 * @since 0.1.0
 */
import { Either } from "effect"
import { parseArgs } from "node:util"
import * as Options from "./Options.js"
import * as Tamper from "./Tamper.js"

type NumericOption = {
  [K in keyof Options.Options]: Options.Options[K] extends number ? K : never
}[keyof Options.Options]

const numeric: ReadonlyArray<
  readonly [flag: string, option: NumericOption, rule: (n: number) => boolean, text: string]
> = [
  ["port", "port", (n) => Number.isInteger(n) && n >= 0 && n <= 65_535, "an integer from 0 to 65535"],
  ["rate-limit", "rateLimit", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["rate-window-millis", "rateWindowMillis", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["agent-auth-limit", "agentAuthLimit", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["agent-auth-window-millis", "agentAuthWindowMillis", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["slot-millis", "slotMillis", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["latency-millis", "latencyMillis", (n) => Number.isInteger(n) && n >= 0, "a non-negative integer"],
  ["burst-429", "burst429", (n) => Number.isInteger(n) && n >= 0, "a non-negative integer"],
  ["drop-rate", "dropRate", (n) => n >= 0 && n <= 1, "a number from 0 to 1"],
  ["blockhash-validity", "blockhashValidity", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["max-body-bytes", "maxBodyBytes", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["max-header-bytes", "maxHeaderBytes", (n) => Number.isInteger(n) && n >= 1024, "an integer of at least 1024"],
  ["headers-timeout-millis", "headersTimeoutMillis", (n) => Number.isInteger(n) && n >= 1, "a positive integer"],
  ["request-timeout-millis", "requestTimeoutMillis", (n) => Number.isInteger(n) && n >= 1, "a positive integer"]
]

/** `text` wrapped at spaces to lines of at most `width` characters, each indented by `indent`. */
const wrap = (text: string, indent: number, width: number): string => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(" ")) {
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  if (line !== "") lines.push(line)
  return lines.map((l) => `${" ".repeat(indent)}${l}`).join("\n")
}

/**
 * The help text for a command that hands its flags to `parse`: `command` is how the user
 * types it, `defaults` the option values it starts from (a front end may choose another
 * default port).
 *
 * @since 0.1.0
 * @category usage
 */
export const usageOf = (command: string, defaults: Options.Options = Options.defaults): string =>
  `Usage: ${command} [flags]

Serves the whole feeshare API on localhost over an in-process Solana ledger.

  --port N                      port to listen on; 0 picks a free one (default ${defaults.port})
  --host HOST                   address to bind (default ${defaults.host})
  --seed TEXT                   seed of every deterministic choice (default ${defaults.seed})
  --rate-limit N                requests per window per user and per IP (default ${defaults.rateLimit})
  --rate-window-millis N        sliding window length (default ${defaults.rateWindowMillis})
  --agent-auth-limit N          agent-auth requests per window per IP (default ${defaults.agentAuthLimit})
  --agent-auth-window-millis N  its window (default ${defaults.agentAuthWindowMillis})
  --slot-millis N               block clock: milliseconds per slot (default ${defaults.slotMillis})
  --latency-millis N            latency added to every answer (default ${defaults.latencyMillis})
  --error-rate STATUS=P         answer STATUS with probability P (repeatable), e.g. --error-rate 500=0.1
  --burst-429 N                 answer the first N requests 429 (default ${defaults.burst429})
  --drop-rate P                 probability that /rpc accepts a transaction and never lands it (default ${defaults.dropRate})
  --blockhash-validity N        blocks a blockhash stays valid (default ${defaults.blockhashValidity})
  --trust-proxy                 take the client IP from X-Forwarded-For (only behind a proxy that sets it)
  --max-body-bytes N            largest request body; larger is 413 (default ${defaults.maxBodyBytes})
  --max-header-bytes N          largest request head; larger is 431 (default ${defaults.maxHeaderBytes})
  --headers-timeout-millis N    time to receive the headers; then 408 (default ${defaults.headersTimeoutMillis})
  --request-timeout-millis N    time to receive a whole request; then 408 (default ${defaults.requestTimeoutMillis})
  --admin-token TEXT            token the /sandbox/... routes require when --host is not loopback
                                (default: a random one, printed at start)
  --tamper KIND[=N|=P]          serve hostile claim plans, one stage tampered (repeatable): every plan,
                                the next N plans (an integer), or with probability P (written with a
                                decimal point, 0 < P <= 1: 0.25, 1.0); KIND is one of
${wrap(Tamper.allKinds.join(", "), 32, 100)}
  --empty                       start blank (default: seeded tokens, trades, fee shares and a demo wallet)
  --help                        this text
`

/**
 * The help text of `npm run sandbox`.
 *
 * @since 0.1.0
 * @category usage
 */
export const usage = usageOf("npm run sandbox --")

const tamperRule =
  `KIND, KIND=N (the next N plans, N >= 1) or KIND=P (a probability written with a decimal point, 0 < P <= 1)`

/**
 * Parses one `--tamper` value: `KIND`, `KIND=N` or `KIND=P`; a bad value is a message naming
 * the flag and the rule.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseTamper = (text: string): Either.Either<Tamper.Tamper, string> => {
  const [name = "", value, ...rest] = text.split("=")
  const kind = Tamper.allKinds.find((k) => k === name)
  if (kind === undefined) {
    return Either.left(`--tamper KIND must be one of ${Tamper.allKinds.join(", ")}, got "${text}"`)
  }
  if (value === undefined) return Either.right({ kind })
  if (rest.length === 0 && /^[0-9]+$/.test(value)) {
    const plans = Number(value)
    if (Number.isSafeInteger(plans) && plans >= 1) return Either.right({ kind, plans })
  }
  if (rest.length === 0 && /^[0-9]+\.[0-9]+$/.test(value)) {
    const probability = Number(value)
    if (probability > 0 && probability <= 1) return Either.right({ kind, probability })
  }
  return Either.left(`--tamper must be ${tamperRule}, got "${text}"`)
}

/**
 * What the command line asks for.
 *
 * @since 0.1.0
 * @category models
 */
export type Parsed =
  | { readonly _tag: "Help" }
  | {
    readonly _tag: "Run"
    readonly options: Options.Options
    /** Start blank (`--empty`) instead of with seeded tokens, trades and a demo wallet. */
    readonly empty: boolean
  }

/**
 * Parses the flags; a bad value is a message naming the flag and the rule.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (argv: ReadonlyArray<string>): Either.Either<Parsed, string> => {
  let values: Record<string, string | boolean | Array<string> | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: "boolean" },
        "trust-proxy": { type: "boolean" },
        empty: { type: "boolean" },
        host: { type: "string" },
        "admin-token": { type: "string" },
        seed: { type: "string" },
        "error-rate": { type: "string", multiple: true },
        tamper: { type: "string", multiple: true },
        ...Object.fromEntries(numeric.map(([flag]) => [flag, { type: "string" as const }]))
      }
    }).values
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : String(error))
  }
  if (values.help === true) return Either.right({ _tag: "Help" })
  const options: { -readonly [K in keyof Options.Options]?: Options.Options[K] } = {}
  for (const [flag, option, rule, text] of numeric) {
    const raw = values[flag]
    if (typeof raw !== "string") continue
    const n = Number(raw)
    if (raw.trim() === "" || !Number.isFinite(n) || !rule(n)) {
      return Either.left(`--${flag} must be ${text}, got "${raw}"`)
    }
    options[option] = n
  }
  if (values["trust-proxy"] === true) options.trustProxy = true
  if (typeof values.host === "string") options.host = values.host
  if (typeof values.seed === "string") options.seed = values.seed
  const adminToken = values["admin-token"]
  if (typeof adminToken === "string") {
    if (!/^[\x21-\x7e]{16,}$/.test(adminToken)) {
      return Either.left("--admin-token must be at least 16 printable characters without spaces")
    }
    options.adminToken = adminToken
  }
  const rates = values["error-rate"]
  if (Array.isArray(rates)) {
    const errorRates: Record<number, number> = {}
    for (const entry of rates) {
      const match = /^([45][0-9]{2})=(0(\.[0-9]+)?|1(\.0+)?)$/.exec(entry)
      if (match === null) {
        return Either.left(`--error-rate must be STATUS=P with a 4xx/5xx status and 0 <= P <= 1, got "${entry}"`)
      }
      errorRates[Number(match[1])] = Number(match[2])
    }
    options.errorRates = errorRates
  }
  const tampers = values.tamper
  if (Array.isArray(tampers)) {
    const tamper: Array<Tamper.Tamper> = []
    for (const entry of tampers) {
      const parsed = parseTamper(entry)
      if (Either.isLeft(parsed)) return Either.left(parsed.left)
      tamper.push(parsed.right)
    }
    options.tamper = tamper
  }
  return Either.right({ _tag: "Run", options: Options.make(options), empty: values.empty === true })
}
