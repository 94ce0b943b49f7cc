/**
 * The `feeshare` command tree: the root with its global options and every subcommand
 * (defined in `internal/tree.ts`, one section per heading of the top-level help). Handlers
 * load on demand, so `feeshare --help` loads neither the client, nor the Solana part, nor the
 * sandbox.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import packageJson from "../package.json" with { type: "json" }
import * as Defaults from "./internal/defaults.js"
import type * as GlobalOptions from "./internal/globals.js"
import * as Root from "./internal/root.js"
import * as Tree from "./internal/tree.js"

/**
 * The CLI's version (from its package.json, inlined by the build).
 *
 * @since 0.1.0
 * @category constants
 */
export const version: string = packageJson.version

/**
 * Where `feeshare` talks to unless told otherwise: the port `feeshare sandbox` listens on.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBaseUrl = Defaults.baseUrl

/**
 * The global options, as every handler receives them.
 *
 * @since 0.1.0
 * @category models
 */
export type Globals = GlobalOptions.Globals

/**
 * The root command without its subcommands (subcommands read the global options from it).
 *
 * @since 0.1.0
 * @category commands
 */
export const root = Root.root

/**
 * Prints a command's result: its JSON document with `--json`, its human lines otherwise.
 *
 * @since 0.1.0
 * @category output
 */
export const print = Root.print

/**
 * The subcommands by section of the top-level help, in help order.
 *
 * @since 0.1.0
 * @category commands
 */
export const sections = Tree.sections

/**
 * Every subcommand of `feeshare`, in help order.
 *
 * @since 0.1.0
 * @category commands
 */
export const subcommands = Tree.subcommands

/**
 * The `feeshare` command.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = root.pipe(
  Command.withDescription("fee sharing, token launches and trading on Solana"),
  Command.withSubcommands(subcommands)
)

/**
 * Runs `feeshare` on `process.argv`-shaped arguments (the first two are skipped).
 *
 * @since 0.1.0
 * @category commands
 */
export const run = Command.run(command, { name: "feeshare", version })
