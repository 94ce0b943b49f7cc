/**
 * Every help screen with its headings marked (`helpStyle.marked`), by command path below
 * `feeshare` (`""`: the top level). From the sources they are rendered when this module loads;
 * the build replaces the module with the screens it rendered then (`scripts/build.ts`), so that
 * `feeshare --help` and `feeshare --version` print without loading the commands.
 */
import * as Cli from "../Cli.js"
import * as Help from "../Help.js"
import { marked } from "./helpStyle.js"

/** The screens, by command path. */
export const screens: Readonly<Record<string, string>> = Help.screens(marked)

/** The CLI's version. */
export const version: string = Cli.version
