/**
 * The help screens of `feeshare`, rendered from the command definitions: the top level on
 * one screen (usage, commands by section, global options, examples, where the docs are), and
 * one screen per command or group with its options and an example. Lines fit 80 columns;
 * headings are bold only on a terminal without `NO_COLOR`.
 *
 * @since 0.1.0
 */
import * as Cli from "./Cli.js"
import * as HelpTree from "./internal/helpDoc.js"
import * as HelpStyle from "./internal/helpStyle.js"

/**
 * How headings are written.
 *
 * @since 0.1.0
 * @category models
 */
export type Style = HelpStyle.Style

/**
 * Plain text: no escape codes.
 *
 * @since 0.1.0
 * @category styles
 */
export const plain: Style = HelpStyle.plain

/**
 * Bold headings (ANSI).
 *
 * @since 0.1.0
 * @category styles
 */
export const ansi: Style = HelpStyle.ansi

/**
 * The style for a stream: bold headings only on a terminal, and never with `NO_COLOR` set
 * (to anything but the empty string, as no-color.org says).
 *
 * @since 0.1.0
 * @category styles
 */
export const styleFor = HelpStyle.styleFor

/**
 * The widest line written.
 *
 * @since 0.1.0
 * @category constants
 */
export const width = 80

/**
 * Where the full reference is.
 *
 * @since 0.1.0
 * @category constants
 */
export const docs = "docs/cli.md of the feeshare repository"

/** `text` wrapped at spaces to `width`, the first line after `first` characters, the others indented by `indent`. */
const wrap = (text: string, indent: number, first: number = indent): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const start = lines.length === 0 ? first : indent
    if (line !== "" && start + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === "" ? word : `${line} ${word}`
  }
  if (line !== "") lines.push(line)
  return lines.map((l, i) => (i === 0 ? l : `${" ".repeat(indent)}${l}`))
}

/** `term` in a column of `column` characters, then `text` wrapped beside it. */
const row = (term: string, text: string, column: number): ReadonlyArray<string> => {
  const head = `  ${term}`
  if (text === "") return [head]
  if (head.length + 1 > column) {
    return [head, ...wrap(text, column).map((line, i) => (i === 0 ? `${" ".repeat(column)}${line}` : line))]
  }
  const [first = "", ...rest] = wrap(text, column, column)
  return [`${head.padEnd(column)}${first}`, ...rest]
}

let built: HelpTree.Node | undefined

/**
 * The command tree with its help texts (read from the definitions on first use: a command
 * that prints no help never pays for it).
 *
 * @since 0.1.0
 * @category models
 */
export const tree = (): HelpTree.Node => {
  built ??= HelpTree.treeOf(Cli.command, Cli.subcommands)
  return built
}

/** A global option's short summary: its description up to the first ` (`, and its environment variable. */
const globalSummary = (entry: HelpTree.Entry): string => {
  const cut = entry.text.indexOf(" (")
  const summary = cut < 0 ? entry.text : entry.text.slice(0, cut)
  const env = /\benv ([A-Z_]+)/.exec(entry.text)?.[1]
  return env === undefined ? summary : `${summary} [${env}]`
}

/**
 * The top-level help: at most 40 lines.
 *
 * @since 0.1.0
 * @category rendering
 */
export const top = (style: Style = plain): string => {
  const root = tree()
  const commandColumn = 14
  const optionColumn = 24
  const lines = [
    `feeshare ${Cli.version}: ${root.summary}`,
    `${style.heading("Usage:")} feeshare [global options] <command> [<subcommand>] [options]`,
    "",
    ...Object.entries(Cli.sections).flatMap(([section, commands]) => [
      style.heading(`${section}:`),
      ...commands.flatMap((command) => {
        const node = root.children.find((child) => child.name === HelpTree.nameOf(command))
        return node === undefined ? [] : row(node.name, node.summary, commandColumn)
      })
    ]),
    "",
    style.heading("Global options (anywhere on the command line):"),
    ...root.options.flatMap((entry) => row(entry.term, globalSummary(entry), optionColumn)),
    ...row("--help, --version", "this text; the version", optionColumn),
    ...row("--completions SHELL", "a completion script for sh, bash, fish or zsh", optionColumn),
    "",
    style.heading("Examples:"),
    "  feeshare sandbox                 # a local service, with a demo key and wallet",
    "  feeshare --keypair demo.json claims positions",
    "  feeshare --json trade quote --in MINT_A --out MINT_B --amount 1000000",
    "",
    "`feeshare <command> --help`: its options and an example.",
    `Reference: ${docs}.`
  ]
  return lines.join("\n")
}

/**
 * The help of a command or group (`names` below `feeshare`; the top level when empty).
 *
 * @since 0.1.0
 * @category rendering
 */
export const of = (names: ReadonlyArray<string>, style: Style = plain): string => {
  if (names.length === 0) return top(style)
  const { node } = HelpTree.find(tree(), names)
  if (node === tree()) return top(style)
  const path = node.path.join(" ")
  const column = Math.min(
    28,
    Math.max(14, ...node.children.map((c) => c.name.length + 4), ...node.options.map((o) => o.term.length + 4))
  )
  const lines = [
    node.children.length > 0
      ? `${style.heading("Usage:")} ${path} <command> [options]`
      // wrapped as plain text: a heading's escape codes take no column
      : wrap(`Usage: ${[...node.path.slice(0, -1), node.usage].join(" ")}`, 4, 0).join("\n")
        .replace(/^Usage:/, style.heading("Usage:")),
    "",
    ...wrap(node.summary, 0),
    ...node.details.flatMap((text) => ["", ...wrap(text, 0)]),
    ...(node.children.length === 0 ? [] : [
      "",
      style.heading("Commands:"),
      ...node.children.flatMap((child) => row(child.name, child.summary, column))
    ]),
    ...(node.options.length === 0 ? [] : [
      "",
      style.heading("Options:"),
      ...node.options.flatMap((entry) => row(entry.term, entry.text, column))
    ]),
    "",
    style.heading(node.examples.length === 1 ? "Example:" : "Examples:"),
    ...node.examples.map((example) => `  ${example}`),
    "",
    ...(node.children.length > 0 ? [`\`${path} <command> --help\`: its options and an example.`] : []),
    "Global options: `feeshare --help`."
  ]
  return lines.join("\n")
}

/**
 * Every help screen, keyed by its command path below `feeshare` (`""`: the top level), in
 * `style`: what `feeshare --help` prints without loading the commands (`internal/quickHelp.ts`).
 *
 * @since 0.1.0
 * @category rendering
 */
export const screens = (style: Style): Readonly<Record<string, string>> => {
  const entries: Array<readonly [string, string]> = [["", top(style)]]
  const walk = (node: HelpTree.Node, path: ReadonlyArray<string>): void => {
    for (const child of node.children) {
      const names = [...path, child.name]
      entries.push([names.join(" "), of(names, style)])
      walk(child, names)
    }
  }
  walk(tree(), [])
  return Object.fromEntries(entries)
}
