#!/usr/bin/env node
/**
 * The static checks of `npm test`, side by side: each argument names an npm script (`deps`,
 * `lint`, `typecheck`, `docs:api`), run at once in its own process (they read the sources and
 * write nothing the others read). Each one's output is printed in one block when it ends, with its
 * time; the exit code is 1 when any failed. On a 2-core machine this takes the longest check's
 * time instead of their sum.
 */
import { spawn } from "node:child_process"

const scripts = process.argv.slice(2)
if (scripts.length === 0) {
  console.error("usage: node scripts/checks.mjs SCRIPT...")
  process.exit(2)
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const started = Date.now()

/** Runs `npm run <script>`, collecting stdout and stderr in order; resolves with its exit code. */
const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"] })
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
      process.stdout.write(`\n> ${script}: ${outcome} after ${seconds} s\n${output === "" ? "" : `${output}\n`}`)
      resolve(code === 0 ? 0 : 1)
    })
  })

const codes = await Promise.all(scripts.map(run))
const failed = scripts.filter((_, i) => codes[i] !== 0)
if (failed.length > 0) {
  console.error(`\nchecks failed: ${failed.join(", ")}`)
  process.exit(1)
}
