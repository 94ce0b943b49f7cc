#!/usr/bin/env node
/**
 * `npm test` after the system parts: the static checks (`scripts/checks.mjs`: knip, ESLint and the
 * cycle check, `tsc -b`, TypeDoc) and `vitest run <arguments>` at the same time. Neither reads
 * what the other writes (the checks write `.tsc/` and `docs/api/`; the tests write `dist/`,
 * `.build/` and temporary folders, which the checks ignore). The checks run at a slightly lower
 * CPU priority (nice 2, about 0.64 of a test process's share when both want a core): the tests'
 * servers and spawned processes keep most of the machine while the checks still progress, and
 * the checks take what the tests leave idle (a test waiting on a process it started, the last
 * files of a pool). A lower priority (nice 5 or more) would leave the longest check, `tsc -b`,
 * a tenth of a core beside vitest's processes: it would end after the tests. vitest prints as it goes; each check's block is printed when
 * vitest ends (or when the check ends, after that). Exit code 1 when vitest or any check failed.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { runChecks } from "./checks.mjs"

/** The checks `npm test` runs (npm scripts of the root package.json). */
export const checks = ["deps", "lint", "typecheck", "docs:check"]

/** The checks' nice value: below the tests, not starved (the checks still end within the test run). */
export const checksPriority = 2

/**
 * Runs the npm scripts `checkScripts` (through `runChecks`, at `priority`) and the program
 * `command` with `args` (its output goes straight to this process's) at the same time, in `cwd`.
 * The checks' blocks are held while the command runs and written after it. Resolves with the exit
 * code: 0 when the command exited 0 and every check passed, 1 otherwise.
 * @param {{
 *   readonly checkScripts: ReadonlyArray<string>,
 *   readonly command: string,
 *   readonly args: ReadonlyArray<string>,
 *   readonly priority?: number,
 *   readonly cwd?: string,
 *   readonly write?: (text: string) => void
 * }} options
 * @returns {Promise<number>}
 */
export const runBeside = async (options) => {
  const write = options.write ?? ((text) => process.stdout.write(text))
  let commandRunning = true
  const held = []
  const print = (block) => {
    if (commandRunning) held.push(block)
    else write(block)
  }
  const checksDone = runChecks(options.checkScripts, {
    print,
    ...(options.priority === undefined ? {} : { priority: options.priority }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd })
  })
  const commandCode = await new Promise((resolvePromise) => {
    const child = spawn(options.command, options.args, { stdio: "inherit", cwd: options.cwd })
    child.once("error", (error) => {
      write(`${options.command} did not start: ${error.message}\n`)
      resolvePromise(1)
    })
    child.once("close", (code) => resolvePromise(code ?? 1))
  })
  commandRunning = false
  write(`\nthe static checks (${options.checkScripts.join(", ")}), run beside it:\n`)
  for (const block of held) write(block)
  const failed = await checksDone
  if (failed.length > 0) write(`\nchecks failed: ${failed.join(", ")}\n`)
  return commandCode !== 0 || failed.length > 0 ? 1 : 0
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)

if (isMain) {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve("vitest/package.json")
  const vitest = join(dirname(manifest), JSON.parse(readFileSync(manifest, "utf8")).bin.vitest)
  process.exitCode = await runBeside({
    checkScripts: checks,
    command: process.execPath,
    args: [vitest, "run", ...process.argv.slice(2)],
    priority: checksPriority
  })
}
