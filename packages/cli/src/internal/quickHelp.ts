/**
 * `feeshare --help` and `feeshare --version` without loading the commands: the screen a help
 * request names, from the screens the build rendered (`helpScreens.ts`), styled for stdout.
 * Anything else (and a request no screen answers) goes to the full command line (`main.ts`).
 */
import { helpRequest } from "./helpRequest.js"
import { screens, version } from "./helpScreens.js"
import { restyle, styleFor } from "./helpStyle.js"

const paths = Object.keys(screens)

/** The screen of `words`: the longest prefix of them that names a command, as `Help.of` finds it. */
const screenOf = (words: ReadonlyArray<string>): string | undefined => {
  for (let n = words.length; n >= 0; n--) {
    const screen = screens[words.slice(0, n).join(" ")]
    if (screen !== undefined) return screen
  }
  return undefined
}

/**
 * The help screen `args` ask for, styled for `stream` (the version for `--version` alone), or
 * `undefined` when they ask for something else.
 */
export const quickHelp = (
  args: ReadonlyArray<string>,
  stream: { readonly isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>
): string | undefined => {
  if (args.length === 1 && args[0] === "--version") return version
  const words = helpRequest(args, (word) => paths.some((path) => path.startsWith(`${word} `)))
  const screen = words === undefined ? undefined : screenOf(words)
  return screen === undefined ? undefined : restyle(screen, styleFor(stream, env))
}
