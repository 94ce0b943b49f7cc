#!/usr/bin/env node
/**
 * The static checks of `npm test`, side by side: each argument names an npm script (`deps`,
 * `lint`, `typecheck`, `docs:check`), run at once in its own process (they read the sources and
 * write nothing the others read). Each one's output is printed in one block when it ends, with its
 * time; the exit code is 1 when any failed. On a 2-core machine this takes the longest check's
 * time instead of their sum. `npm test` runs them beside vitest (`scripts/test.mjs`), through
 * `runChecks`.
 */
import { spawn } from "node:child_process"
import { setPriority } from "node:os"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"

const npm = process.platform === "win32" ? "npm.cmd" : "npm"

/**
 * Runs `npm run <script>` for each script at once. `priority` (a nice value, 0 to 19) lowers the
 * CPU priority of the checks' processes (set on the npm process right after it starts; the
 * processes it starts inherit it), so that work running beside them keeps the cores it needs.
 * `print` receives each check's block (its outcome, time and output) when it ends; `cwd` is the
 * package whose scripts run (the current folder by default). Resolves with the names of the
 * checks that failed.
 * @param {ReadonlyArray<string>} scripts
 * @param {{
 *   readonly priority?: number,
 *   readonly print?: (block: string) => void,
 *   readonly cwd?: string
 * }} [options]
 * @returns {Promise<ReadonlyArray<string>>}
 */
export const runChecks = async (scripts, options = {}) => {
  const started = Date.now()
  const print = options.print ?? ((block) => process.stdout.write(block))
  /** Runs one script, collecting stdout and stderr in order; resolves with whether it passed. */
  const run = (script) =>
    new Promise((resolvePromise) => {
      const child = spawn(npm, ["run", "--silent", script], {
        stdio: ["ignore", "pipe", "pipe"],
        cwd: options.cwd
      })
      if (options.priority !== undefined && child.pid !== undefined) {
        try {
          setPriority(child.pid, options.priority)
        } catch {
          // not allowed here: the check runs at the usual priority
        }
      }
      const chunks = []
      child.stdout.on("data", (chunk) => chunks.push(chunk))
      child.stderr.on("data", (chunk) => chunks.push(chunk))
      child.once("error", (error) => {
        chunks.push(Buffer.from(`${error.message}\n`))
      })
      child.once("close", (code, signal) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1)
        const outcome = code === 0 ? "passed" : `FAILED (${signal ?? `exit ${code}`})`
        const output = Buffer.concat(chunks).toString("utf8").trimEnd()
        print(`\n> ${script}: ${outcome} after ${seconds} s\n${output === "" ? "" : `${output}\n`}`)
        resolvePromise(code === 0)
      })
    })
  const passed = await Promise.all(scripts.map(run))
  return scripts.filter((_, i) => !passed[i])
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)

if (isMain) {
  const scripts = process.argv.slice(2)
  if (scripts.length === 0) {
    console.error("usage: node scripts/checks.mjs SCRIPT...")
    process.exit(2)
  }
  const failed = await runChecks(scripts)
  if (failed.length > 0) {
    console.error(`\nchecks failed: ${failed.join(", ")}`)
    process.exit(1)
  }
}
