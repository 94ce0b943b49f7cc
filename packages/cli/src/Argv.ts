/**
 * Command-line preprocessing: the global options may be written anywhere
 * (`feeshare claims claim --mint M --keypair k.json --json`); @effect/cli reads a parent's
 * options only before the subcommand name, so they are moved to the front.
 *
 * @since 0.1.0
 */

/**
 * The global options that take a value.
 *
 * @since 0.1.0
 * @category constants
 */
export const valued: ReadonlyArray<string> = ["--base-url", "--api-key", "--rpc-url", "--keypair"]

/**
 * The global flags without a value.
 *
 * @since 0.1.0
 * @category constants
 */
export const flags: ReadonlyArray<string> = ["--json"]

/**
 * `argv` without its first two entries (node and the script), global options first, in
 * their given order, then the rest. Nothing after `--` is moved.
 *
 * @since 0.1.0
 * @category parsing
 */
export const hoist = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const globals: Array<string> = []
  const rest: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") {
      rest.push(...args.slice(i))
      break
    }
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg
    if (flags.includes(arg)) globals.push(arg)
    else if (valued.includes(name) && name !== arg) globals.push(arg)
    else if (valued.includes(arg) && i + 1 < args.length) {
      globals.push(arg, args[i + 1]!)
      i++
    } else rest.push(arg)
  }
  return [...globals, ...rest]
}

/**
 * `true` when `--json` is among the arguments (before any `--`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const wantsJson = (args: ReadonlyArray<string>): boolean => {
  const end = args.indexOf("--")
  return (end < 0 ? args : args.slice(0, end)).includes("--json")
}

/**
 * The first argument that is not a global option (after `hoist`): the command name.
 *
 * @since 0.1.0
 * @category parsing
 */
export const commandOf = (
  hoisted: ReadonlyArray<string>
): { readonly name: string | undefined; readonly index: number } => {
  for (let i = 0; i < hoisted.length; i++) {
    const arg = hoisted[i]!
    if (flags.includes(arg)) continue
    if (valued.some((name) => arg.startsWith(`${name}=`))) continue
    if (valued.includes(arg)) {
      i++
      continue
    }
    return { name: arg, index: i }
  }
  return { name: undefined, index: hoisted.length }
}

/**
 * Old spellings, rewritten to the command they name (after `hoist`): `launch --ipfs …` (the
 * launch transaction of an existing token) is `launch transaction --ipfs …`. A bare
 * `launch` or `launch --help` is left to the help.
 *
 * @since 0.1.0
 * @category parsing
 */
export const aliases = (hoisted: ReadonlyArray<string>): ReadonlyArray<string> => {
  const { index, name } = commandOf(hoisted)
  const next = hoisted[index + 1]
  if (name !== "launch" || next === undefined || !next.startsWith("--") || next === "--help" || next === "--") {
    return hoisted
  }
  return [...hoisted.slice(0, index + 1), "transaction", ...hoisted.slice(index + 1)]
}
