/**
 * The command tree as help reads it: every command's name, one-line summary, details,
 * examples, usage and options, taken from the @effect/cli definitions (so that the help
 * screens and docs/cli.md are never written by hand), without @effect/cli's boilerplate.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import * as Usage from "@effect/cli/Usage"
import * as HashMap from "effect/HashMap"

const config = CliConfig.make({ showBuiltIns: false })

/** The prefix of an example paragraph in a command's description. */
const examplePrefix = "$ "

/**
 * A command's description: its one-line summary, optional details, and examples (each a
 * command line, written without the `$ ` prompt).
 */
export const about = (
  summary: string,
  options: { readonly details?: string; readonly examples: ReadonlyArray<string> }
) =>
  HelpDoc.blocks([
    HelpDoc.p(summary),
    ...(options.details === undefined ? [] : [HelpDoc.p(options.details)]),
    ...options.examples.map((example) => HelpDoc.p(`${examplePrefix}${example}`))
  ])

/** An option or argument: how it is written, and what it means. */
export interface Entry {
  readonly term: string
  readonly text: string
}

/** One command of the tree. */
export interface Node {
  readonly name: string
  /** `feeshare` and the names down to this command. */
  readonly path: ReadonlyArray<string>
  readonly summary: string
  readonly details: ReadonlyArray<string>
  readonly examples: ReadonlyArray<string>
  /** The command line without `feeshare` and the parents, e.g. `claim --mint text [--dry-run]`. */
  readonly usage: string
  readonly options: ReadonlyArray<Entry>
  readonly children: ReadonlyArray<Node>
}

/** The plain text of a span. */
export const span = (self: Span.Span): string => {
  switch (self._tag) {
    case "Text":
    case "URI":
      return self.value
    case "Sequence":
      return span(self.left) + span(self.right)
    case "Highlight":
    case "Strong":
    case "Weak":
      return span(self.value)
  }
}

/** The blocks of a help document, in order. */
const blocks = (doc: HelpDoc.HelpDoc): ReadonlyArray<HelpDoc.HelpDoc> =>
  doc._tag === "Sequence" ? [...blocks(doc.left), ...blocks(doc.right)] : doc._tag === "Empty" ? [] : [doc]

/** Sentences @effect/cli adds to every option, which say nothing here. */
const boilerplate = new Set([
  "A user-defined piece of text.",
  "A user-defined piece of text that is confidential.",
  "A true or false value.",
  "An integer.",
  "A file.",
  "This setting is optional.",
  "This option can be set from environment variables.",
  "This argument may be repeated zero or more times."
])

/** An option's description without @effect/cli's generic sentences; `(optional)` when it is. */
const entryText = (body: HelpDoc.HelpDoc): string => {
  const parts = blocks(body).flatMap((block) =>
    block._tag === "Paragraph" || block._tag === "Header" ? [span(block.value)] : []
  )
  const kept = parts.filter((part) =>
    part !== "" && !boilerplate.has(part) && !part.startsWith("One of the following:") &&
    !/^This (option|argument) (must|may) be repeated/.test(part)
  )
  return [...kept, ...(parts.includes("This setting is optional.") ? ["(optional)"] : [])].join(" ")
}

/** The value of an option as written in help: `MINT` for `--mint text`, `N` for an integer. */
const placeholder = (name: string, type: string): string =>
  type === "integer" || type === "float"
    ? "N"
    : type === "file"
    ? "FILE"
    : (name.split("-").pop() ?? name).toUpperCase()

/** @effect/cli's `--mint text`, `--claimer text 1+`, `--format v0 | v1` as `--mint MINT`, `--claimer CLAIMER...`, `--format v0|v1`. */
const readable = (text: string): string =>
  text
    .replace(
      /--([a-z0-9-]+) (text|integer|float|redacted|file)( 1\+)?/g,
      (_, name: string, type: string, more?: string) =>
        `--${name} ${placeholder(name, type)}${more === undefined ? "" : "..."}`
    )
    .replace(/ \| /g, "|")

const firstName = (descriptor: Descriptor.Command<unknown>): string => [...Descriptor.getNames(descriptor)][0] ?? ""

/**
 * The tree under a command (`path` names it, `feeshare` first). `subcommands` are the
 * children's own descriptors when known: @effect/cli's `getSubcommands` reaches one level
 * down only (a group seen from its parent has no children).
 */
export const nodeOf = (
  descriptor: Descriptor.Command<unknown>,
  path: ReadonlyArray<string>,
  subcommands?: ReadonlyArray<Descriptor.Command<unknown>>
): Node => {
  let section = ""
  const description: Array<string> = []
  const options: Array<Entry> = []
  const order: Array<string> = []
  for (const block of blocks(Descriptor.getHelp(descriptor, config))) {
    if (block._tag === "Header") section = span(block.value)
    else if (section === "DESCRIPTION" && block._tag === "Paragraph") description.push(span(block.value))
    else if ((section === "OPTIONS" || section === "ARGUMENTS") && block._tag === "DescriptionList") {
      for (const [term, body] of block.definitions) {
        const written = readable(span(term).trim())
        // a flag without a value is optional by nature
        const text = entryText(body)
        options.push({ term: written, text: written.includes(" ") ? text : text.replace(/ ?\(optional\)$/, "") })
      }
    } else if (section === "COMMANDS" && block._tag === "Enumeration") {
      for (const element of block.elements) {
        if (element._tag === "Paragraph") order.push(span(element.value).trim().split(" ")[0] ?? "")
      }
    }
  }
  const name = firstName(descriptor)
  // a leaf lists itself as its only "subcommand"
  // in definition order: as given, else as the COMMANDS section lists them
  const children = (subcommands?.map((child) => [firstName(child), child] as const) ??
    [...HashMap.remove(Descriptor.getSubcommands(descriptor), name)].sort(([a], [b]) =>
      order.indexOf(a) - order.indexOf(b)
    ))
    .map(([child, childDescriptor]) => nodeOf(childDescriptor, [...path, child]))
  const [summary = "", ...rest] = description
  return {
    name,
    path,
    summary,
    details: rest.filter((text) => !text.startsWith(examplePrefix)),
    examples: rest.filter((text) => text.startsWith(examplePrefix)).map((text) => text.slice(examplePrefix.length)),
    usage: readable(span(HelpDoc.getSpan(Usage.getHelp(Descriptor.getUsage(descriptor)))).trim()),
    options,
    children
  }
}

/** The name of a command. */
export const nameOf = (command: { readonly descriptor: Descriptor.Command<unknown> }): string =>
  firstName(command.descriptor)

/** `true` for a command that only groups subcommands (a leaf lists itself as its only one). */
export const isGroup = (command: { readonly descriptor: Descriptor.Command<unknown> }): boolean =>
  HashMap.size(HashMap.remove(Descriptor.getSubcommands(command.descriptor), firstName(command.descriptor))) > 0

/** The tree of a command and its subcommands. */
export const treeOf = (
  command: { readonly descriptor: Descriptor.Command<unknown> },
  subcommands: ReadonlyArray<{ readonly descriptor: Descriptor.Command<unknown> }>
): Node => nodeOf(command.descriptor, [firstName(command.descriptor)], subcommands.map((child) => child.descriptor))

/** The node at `names` under `node` (as far as the names lead), and how many names it used. */
export const find = (node: Node, names: ReadonlyArray<string>): { readonly node: Node; readonly used: number } => {
  const [head, ...rest] = names
  const child = node.children.find((c) => c.name === head)
  if (child === undefined) return { node, used: 0 }
  const found = find(child, rest)
  return { node: found.node, used: found.used + 1 }
}
