#!/usr/bin/env node
/**
 * The `feeshare` executable: global options accepted anywhere, `sandbox` handed to the
 * sandbox's own flag parser, every failure printed as one line on stderr (and, with
 * `--json`, as one JSON document on stdout), and an exit code per error class. A help screen
 * prints before the commands load (`quickHelp`).
 *
 * @since 0.1.0
 */
import { quickHelp } from "./internal/quickHelp.js"

const screen = quickHelp(process.argv.slice(2), process.stdout, process.env)
if (screen !== undefined) process.stdout.write(`${screen}\n`)
else (await import("./internal/main.js")).main()
