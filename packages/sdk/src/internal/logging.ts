/**
 * The facade's logging: the Effect client's log lines (a Debug line per call, warnings of
 * the rate budget and the RPC endpoints) handed to the user's `logger` (default `console`)
 * at or above `logLevel` (default `warn`, or `FEESHARE_LOG`). Fields are the lines'
 * annotations and log spans; the API key and the signers' secret keys are never in them
 * (the client never annotates a header), and as a second line of defence any text holding
 * the API key is redacted before it reaches the logger.
 */
import * as Domain from "@feeshare/domain/FeeShareError"
import { Layer, Logger, LogLevel } from "effect"

/**
 * The levels of `logLevel` and `FEESHARE_LOG`, most verbose first; `off` logs nothing.
 *
 * @since 0.1.0
 * @category models
 */
export type Level = "debug" | "info" | "warn" | "error" | "off"

/**
 * Where the facade's log lines go (`console` fits).
 *
 * @since 0.1.0
 * @category models
 */
export interface FeeShareLogger {
  /** Each call's answer or failure (operation, method, status), at `logLevel: "debug"`. */
  readonly debug: (message: string, fields: Readonly<Record<string, unknown>>) => void
  /** Informational lines. */
  readonly info: (message: string, fields: Readonly<Record<string, unknown>>) => void
  /** Warnings (a rate-limit wait, a key file others can read, ...). */
  readonly warn: (message: string, fields: Readonly<Record<string, unknown>>) => void
  /** Errors. */
  readonly error: (message: string, fields: Readonly<Record<string, unknown>>) => void
}

const levels: Record<Level, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  off: LogLevel.None
}

const isLevel = (text: string): text is Level => Object.hasOwn(levels, text)

const rule = `must be one of ${Object.keys(levels).join(", ")}`

const placeholder = "[redacted]"

/** The method of `logger` a line of `level` goes to. */
const methodOf = (level: LogLevel.LogLevel): keyof FeeShareLogger =>
  level.ordinal >= LogLevel.Error.ordinal
    ? "error"
    : level.ordinal >= LogLevel.Warning.ordinal
    ? "warn"
    : level.ordinal >= LogLevel.Info.ordinal
    ? "info"
    : "debug"

/**
 * The logging layer of a facade: `logLevel` (else `env`, the value of `FEESHARE_LOG`, else
 * `warn`) and `logger` (default `console`); a level outside `Level` fails with
 * `InvalidRequest` naming where it came from.
 */
export const layer = (options: {
  readonly logLevel: string | undefined
  readonly env: string | undefined
  readonly logger: FeeShareLogger | undefined
  readonly apiKey: string | undefined
}): Layer.Layer<never, Domain.InvalidRequest> => {
  const [field, given] = options.logLevel !== undefined
    ? ["logLevel", options.logLevel] as const
    : ["FEESHARE_LOG", options.env === "" ? undefined : options.env] as const
  const name = given?.toLowerCase() ?? "warn"
  if (!isLevel(name)) {
    return Layer.fail(
      new Domain.InvalidRequest({ operation: "FeeShare", field, rule, message: `FeeShare: ${field} ${rule}` })
    )
  }
  const target = options.logger ?? console
  const key = options.apiKey
  const redact = (text: string) => key === undefined || key === "" ? text : text.split(key).join(placeholder)
  const clean = (value: unknown): unknown => typeof value === "string" ? redact(value) : value
  const logger = Logger.make(({ annotations, logLevel, message, spans, date }) => {
    const fields: Record<string, unknown> = {}
    for (const [name, value] of annotations) fields[name] = clean(value)
    for (const span of spans) fields[`${span.label}Millis`] = date.getTime() - span.startTime
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
    target[methodOf(logLevel)](redact(text), fields)
  })
  return Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(levels[name]))
}
