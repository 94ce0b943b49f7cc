/**
 * Usage errors, explained: what @effect/cli reports about a command line (an unknown
 * argument, an invalid subcommand, a missing option) read against the command tree, so that
 * the message names the option or argument at fault, a repeated single-valued option is named
 * as such, and a mistyped command or option gets "did you mean …" (the closest name by edit
 * distance). Every command gets it from the tree, with no list of names here.
 *
 * @since 0.1.0
 */
import type * as HelpTree from "./internal/helpDoc.js"

/**
 * What went wrong on the command line.
 *
 * @since 0.1.0
 * @category models
 */
export interface Diagnosis {
  /** One line, in plain English. */
  readonly message: string
  /** The option at fault, e.g. `--mint`. */
  readonly option?: string
  /** The argument or command word at fault, e.g. `claimz`. */
  readonly argument?: string
  /** The closest known name, when the one given looks mistyped. */
  readonly suggestion?: string
}

/**
 * The edit distance of two words: the fewest insertions, deletions, substitutions and swaps
 * of two adjacent characters that turn one into the other (optimal string alignment).
 *
 * @since 0.1.0
 * @category suggestions
 */
export const editDistance = (a: string, b: string): number => {
  const rows = a.length + 1
  const columns = b.length + 1
  const d: Array<Array<number>> = Array.from(
    { length: rows },
    (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/**
 * The candidate closest to `word`, if it is close enough to be what was meant: at most 2
 * edits, and fewer than half the word's letters (so `x` suggests nothing). Ties go to the
 * first candidate.
 *
 * @since 0.1.0
 * @category suggestions
 */
export const closest = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  const letters = word.replace(/^-+/, "").length
  let best: { readonly name: string; readonly distance: number } | undefined
  for (const name of candidates) {
    const distance = editDistance(word, name)
    if (distance <= 2 && distance * 2 < letters && (best === undefined || distance < best.distance)) {
      best = { name, distance }
    }
  }
  return best?.name
}

/** The option names an entry's term writes, e.g. `--mint` of `--mint MINT`. */
const optionNames = (entry: HelpTree.Entry): ReadonlyArray<string> =>
  entry.term.match(/(?<![\w-])--?[a-z][\w-]*/gi) ?? []

/** The words of `args` before `--` that are not options or option values, from `start`. */
const wordsOf = (args: ReadonlyArray<string>, start: number): ReadonlyArray<string> => {
  const end = args.indexOf("--")
  return (end < 0 ? args : args.slice(0, end)).slice(start).filter((arg) => !arg.startsWith("-"))
}

const quoted = (raw: string, pattern: RegExp): string | undefined => pattern.exec(raw)?.[1]

/**
 * Explains the usage error `raw` (@effect/cli's message, plain text) about `args` (the
 * command line after `Argv.hoist`, without `node` and the script), whose command name is at
 * `commandIndex`, against the command tree `tree` (`Help.tree()`).
 *
 * @since 0.1.0
 * @category diagnosis
 */
export const diagnose = (
  raw: string,
  args: ReadonlyArray<string>,
  commandIndex: number,
  tree: HelpTree.Node
): Diagnosis => {
  raw = raw.replace(/\bis not a integer\b/g, "is not an integer")
  const words = wordsOf(args, commandIndex)
  let node = tree
  let used = 0
  for (const word of words) {
    const child = node.children.find((candidate) => candidate.name === word)
    if (child === undefined) break
    node = child
    used++
  }
  const command = node.path.join(" ")
  // a group followed by a word that is none of its commands: a mistyped command
  const stray = words[used]
  if (node.children.length > 0 && stray !== undefined) {
    const names = node.children.map((child) => child.name)
    const suggestion = closest(stray, names)
    return {
      message: `\`${command} ${stray}\` is not a command` +
        (suggestion === undefined ?
          `; the commands of \`${command}\` are ${names.join(", ")}` :
          `; did you mean \`${command} ${suggestion}\`?`),
      argument: stray,
      ...(suggestion === undefined ? {} : { suggestion })
    }
  }
  const known = [...new Set([...node.options, ...tree.options].flatMap(optionNames))]
  const unknown = quoted(raw, /Received unknown argument: '([^']*)'/)
  if (unknown !== undefined) {
    const name = unknown.includes("=") ? unknown.slice(0, unknown.indexOf("=")) : unknown
    if (!name.startsWith("-")) return { message: `\`${command}\` takes no argument \`${unknown}\``, argument: unknown }
    const end = args.indexOf("--")
    const given = (end < 0 ? args : args.slice(0, end)).filter((arg) => arg === name || arg.startsWith(`${name}=`))
    if (known.includes(name) && given.length > 1) {
      return { message: `${name} was given ${given.length} times; it takes one value`, option: name }
    }
    const suggestion = closest(name, known)
    return {
      message: `\`${command}\` has no option ${name}` +
        (suggestion === undefined ? ` (see \`${command} --help\`)` : `; did you mean ${suggestion}?`),
      option: name,
      ...(suggestion === undefined ? {} : { suggestion })
    }
  }
  const corrected = /The flag '([^']*)' is not recognized\. Did you mean '([^']*)'\?/.exec(raw)
  if (corrected !== null) {
    return {
      message: `\`${command}\` has no option ${corrected[1]}; did you mean ${corrected[2]}?`,
      option: corrected[1]!,
      suggestion: corrected[2]!
    }
  }
  const missing = quoted(raw, /Expected to find option: '([^']*)'/)
  if (missing !== undefined) {
    return { message: `\`${command}\` needs ${missing} (see \`${command} --help\`)`, option: missing }
  }
  const valueless = quoted(raw, /Expected a value following option: '([^']*)'/)
  if (valueless !== undefined) return { message: `${valueless} needs a value`, option: valueless }
  const single = quoted(raw, /May be specified a single time:\s*'([^']*)'/)
  if (single !== undefined) return { message: `${single} was given more than once; it takes one value`, option: single }
  const argument = /Missing argument (<[^>]+>|\S+)/.exec(raw)?.[1]
  if (argument !== undefined) return { message: `\`${command}\` needs the argument ${argument}`, argument }
  const option = /'(--?[\w-]+)'/.exec(raw)?.[1]
  if (option !== undefined) return { message: raw.trim(), option }
  // a value the option refused ("'1.5' is not an integer"): the option is the word before it
  const value = quoted(raw, /^'([^']*)'/)
  const at = value === undefined ? -1 : args.indexOf(value)
  const before = at > 0 ? args[at - 1] : undefined
  return before?.startsWith("-") === true
    ? { message: `${before}: ${raw.trim()}`, option: before }
    : { message: raw.trim() }
}
