/**
 * The `feeshare` executable's body (`bin.ts` runs it): global options accepted anywhere,
 * `sandbox` handed to the sandbox's own flag parser, every failure printed as one line on
 * stderr (and, with `--json`, as one JSON document on stdout), and an exit code per error
 * class. `main` takes the services a caller adds (a test's hooks); the executable adds none.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Redaction from "@feeshare/domain/Redaction"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Argv from "../Argv.js"
import * as Cli from "../Cli.js"
import * as Help from "../Help.js"
import * as Output from "../Output.js"
import * as Usage from "../Usage.js"
import * as Codes from "./codes.js"
import * as HelpTree from "./helpDoc.js"
import { helpRequest } from "./helpRequest.js"

const args = process.argv.slice(2)
const hoisted = Argv.aliases(Argv.hoist(args))
const json = Argv.wantsJson(hoisted)
const { index, name } = Argv.commandOf(hoisted)

const isValidationError = (error: unknown): error is ValidationError.ValidationError =>
  ValidationError.isValidationError(error)

const withoutEscapes = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, "")

/** A usage error @effect/cli reported, read against the command tree (built only then). */
const explain = (raw: string): Usage.Diagnosis =>
  Usage.diagnose(withoutEscapes(raw).trim(), hoisted, index, Help.tree())

/** The text of a usage error's message (every @effect/cli validation error carries one). */
const messageOf = (error: ValidationError.ValidationError): string => HelpDoc.toAnsiText(error.error)

/** The code of the failure `report` described (it loads the classification only then). */
let reported: number | undefined

/** The exit code of an outcome. */
const codeOf = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit)) return Codes.ok
  if (Cause.isInterruptedOnly(exit.cause)) return Codes.interrupted
  return Option.match(Cause.failureOption(exit.cause), {
    onNone: () => Codes.internal,
    onSome: (error) => (isValidationError(error) ? Codes.usage : reported ?? Codes.internal)
  })
}

const report = (cause: Cause.Cause<unknown>) =>
  Option.match(Cause.failureOption(cause), {
    onSome: (error) => {
      // @effect/cli's own line about a usage error was held back (`withUsagePrefix`): explained here
      if (isValidationError(error)) {
        const { argument, message, option, suggestion } = explain(messageOf(error))
        return Effect.zipRight(
          json
            ? Console.log(Output.json({
              error: {
                tag: "ValidationError",
                code: Codes.usage,
                message: Redaction.line(message),
                option: option ?? null,
                argument: argument === undefined ? null : Redaction.line(argument),
                suggestion: suggestion ?? null
              }
            }))
            : Effect.void,
          Console.error(usageLine(message))
        )
      }
      return Effect.flatMap(Effect.promise(() => import("../ExitCode.js")), (ExitCode) => {
        const described = ExitCode.describe(error)
        reported = described.code
        return Effect.zipRight(
          json
            ? Console.log(Output.json({
              error: {
                tag: described.tag,
                code: described.code,
                what: described.what === undefined ? null : Redaction.line(described.what),
                message: Redaction.line(described.why),
                advice: Redaction.line(described.advice)
              }
            }))
            : Effect.void,
          // the text may quote a server or a URL: no escape codes, no userinfo
          Console.error(`feeshare: ${Redaction.line(described.line)}`)
        )
      })
    },
    onNone: () =>
      Cause.isInterruptedOnly(cause) ? Effect.void : Effect.zipRight(
        json
          ? Console.log(Output.json({ error: { tag: "Defect", code: Codes.internal, message: "internal error" } }))
          : Effect.void,
        Console.error(
          process.env.FEESHARE_DEBUG ?
            Redaction.text(Redaction.stripControl(Cause.pretty(cause))) :
            `feeshare: internal error (a bug): ${
              Redaction.line(Cause.pretty(cause).split("\n")[0] ?? "")
            }. Set FEESHARE_DEBUG=1 for the trace.`
        )
      )
  })

/** Calls `done` once everything written to stdout and stderr so far has been handed over. */
const afterFlush = (done: () => void): void => {
  let pending = 2
  const one = () => {
    pending -= 1
    if (pending === 0) done()
  }
  for (const stream of [process.stdout, process.stderr]) {
    // `feeshare mcp` ends stdout itself when its client leaves
    if (stream.writableEnded || stream.destroyed) one()
    else stream.write("", one)
  }
}

const plain = Help.styleFor(process.stderr, process.env) === Help.plain

/**
 * A line @effect/cli printed about a usage error, with the `feeshare:` prefix, in plain
 * English, without escape codes when stderr is not a terminal or NO_COLOR is set.
 */
const usageLine = (raw: string): string => {
  const line = plain ? withoutEscapes(raw) : raw
  return line.trim() === "" || line.startsWith("feeshare:")
    ? line
    : `feeshare: ${line.replace(/\bis not a integer\b/g, "is not an integer")}`
}

/**
 * @effect/cli prints usage errors itself, on stderr, through here: its own message is held
 * back (`report` prints it explained, once the run has ended: `Usage`, the option or argument
 * at fault, a repeated option, "did you mean"); our own lines (`feeshare: …`) pass as they are.
 */
const withUsagePrefix = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.console, (console) =>
    Effect.withConsole(effect, {
      ...console,
      error: (...args: ReadonlyArray<unknown>) => {
        const shown = args.filter((arg) => {
          if (typeof arg !== "string") return true
          const text = withoutEscapes(arg).trim()
          return text === "" ? false : text.startsWith("feeshare:")
        })
        return shown.length === 0 ? Effect.void : console.error(
          ...shown.map((arg) => (typeof arg === "string" ? arg.split("\n").map(usageLine).join("\n") : arg))
        )
      }
    }))

/** The arguments before `--`. */
const options = hoisted.indexOf("--") < 0 ? hoisted : hoisted.slice(0, hoisted.indexOf("--"))

/** Help is ours (`Help`), not @effect/cli's. */
const help = helpRequest(args, (word) => {
  const command = Cli.subcommands.find((c) => HelpTree.nameOf(c) === word)
  return command !== undefined && HelpTree.isGroup(command)
})

/** `--completions SHELL`: @effect/cli's script, without the `--wizard` it offers (not supported here). */
const completions = (shell: string) =>
  Effect.flatMap(
    shell === "zsh"
      ? Command.getZshCompletions(Cli.command, "feeshare")
      : shell === "fish"
      ? Command.getFishCompletions(Cli.command, "feeshare")
      : Command.getBashCompletions(Cli.command, "feeshare"),
    (lines) =>
      Console.log(
        lines.filter((line) => !line.includes("'--wizard[") && !line.includes(" -l wizard "))
          .map((line) => line.replace(/ --wizard\b/g, ""))
          .join("\n")
      )
  )

const completionsShell = options[0] === "--completions" ? options[1] : undefined

const program: Effect.Effect<void, unknown, NodeContext.NodeContext> = name === "sandbox"
  ? Effect.flatMap(
    Effect.promise(() => import("./sandbox.js")),
    (sandbox) => sandbox.main(hoisted.slice(index + 1), json)
  )
  : help !== undefined
  ? Console.log(Help.of(help, Help.styleFor(process.stdout, process.env)))
  : completionsShell !== undefined && ["sh", "bash", "zsh", "fish"].includes(completionsShell)
  ? completions(completionsShell)
  : options.includes("--wizard")
  // @effect/cli's wizard ignores the end of its input and SIGTERM: not offered
  ? Effect.fail(
    ValidationError.invalidArgument(HelpDoc.p("--wizard is not supported; `feeshare --help` lists the commands"))
  )
  : withUsagePrefix(Cli.run(["node", "feeshare", ...hoisted]))

/**
 * The libraries' log lines (an RPC endpoint that failed, a retry) on stderr as
 * `feeshare: warning: message (key=value, ...)`: stdout holds only the command's output (one
 * document with --json). Warnings and above; everything with FEESHARE_DEBUG.
 */
const stderrLogger = Logger.make(({ annotations, logLevel, message }) => {
  const text = (Array.isArray(message) ? message : [message]).map(String).join(" ")
  const details = [...HashMap.toEntries(annotations)].map(([key, value]) => `${key}=${String(value)}`).join(", ")
  const level = logLevel._tag === "Warning" ? "warning" : logLevel.label.toLowerCase()
  // log lines quote servers and URLs: no escape codes, no userinfo
  process.stderr.write(
    `feeshare: ${level}: ${Redaction.line(text)}${details === "" ? "" : ` (${Redaction.line(details)})`}\n`
  )
})

const logging = Layer.merge(
  Logger.replace(Logger.defaultLogger, stderrLogger),
  Logger.minimumLogLevel(process.env.FEESHARE_DEBUG ? LogLevel.Debug : LogLevel.Warning)
)

/**
 * Runs the command line of this process, with `services` (none for the executable).
 */
export const main = (services: Layer.Layer<never> = Layer.empty): void =>
  program.pipe(
    Effect.provide(services),
    Effect.tapErrorCause(report),
    Effect.provide(logging),
    Effect.provide(NodeContext.layer),
    NodeRuntime.runMain({
      disableErrorReporting: true,
      disablePrettyLogger: true,
      // exiting ends the process at once: first let a pipe take what is still queued for it
      // (a large --json document was cut at the pipe's 64 KiB)
      teardown: (exit, onExit) => afterFlush(() => onExit(codeOf(exit)))
    })
  )
