/**
 * Whether a command line asks for help, and for which screen: `--help` (or `-h`) anywhere
 * before `--`, no command at all, or a group without its subcommand (`feeshare claims`).
 * `sandbox` has its own flag parser and help. Pure: the quick help path reads it before
 * anything else is loaded.
 */
import * as Argv from "../Argv.js"

/**
 * The words naming the screen (`[]`: the top level; extra words are left to the screen's
 * lookup), or `undefined` when the command line asks for something else.
 */
export const helpRequest = (
  args: ReadonlyArray<string>,
  isGroup: (word: string) => boolean
): ReadonlyArray<string> | undefined => {
  const hoisted = Argv.aliases(Argv.hoist(args))
  const { index, name } = Argv.commandOf(hoisted)
  if (name === "sandbox") return undefined
  const options = hoisted.indexOf("--") < 0 ? hoisted : hoisted.slice(0, hoisted.indexOf("--"))
  // the words that may name a command (the lookup stops at the first that does not)
  const words = name === undefined ? [] : hoisted.slice(index).filter((arg) => !arg.startsWith("-"))
  if (options.includes("--help") || options.includes("-h")) return words
  if (name === undefined) return []
  // a group alone is one word
  return words.length === 1 && isGroup(words[0]!) ? words : undefined
}
