// `npm test` runs the static checks beside vitest (scripts/test.mjs over scripts/checks.mjs). Run
// here over a throwaway package whose npm scripts stand in for the checks and a small node
// program for vitest: a failing check fails the run even when the tests pass, a failing command
// fails it when the checks pass, the checks' blocks are written after the command's end, and
// the checks run at the lower CPU priority.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { runChecks } from "../../../scripts/checks.mjs"
import { checks, checksPriority, runBeside } from "../../../scripts/test.mjs"

let folders: Array<string> = []
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  folders = []
})

/** A package whose npm scripts are the given node programs (`node -e <code>`). */
const scriptsPackage = (scripts: Readonly<Record<string, string>>): string => {
  const dir = mkdtempSync(join(tmpdir(), "feeshare-checks-"))
  folders.push(dir)
  const npmScripts = Object.fromEntries(
    Object.entries(scripts).map(([name, code]) => [name, `node -e ${JSON.stringify(code)}`])
  )
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "checks-fixture", private: true, scripts: npmScripts })
  )
  return dir
}

/** node -e code that waits (polling, bounded) until `file` exists in its folder, then writes `done`. */
const waitFor = (file: string, done: string, exitCode: number) =>
  `const fs = require("fs"); let n = 0; const t = setInterval(() => { n++; ` +
  `if (fs.existsSync(${JSON.stringify(file)}) || n > 4000) { clearInterval(t); ` +
  `fs.writeFileSync(${JSON.stringify(done)}, ""); process.exit(${exitCode}) } }, 20)`

describe("the static checks beside vitest (scripts/test.mjs)", () => {
  it("npm test runs knip, ESLint, tsc -b and TypeDoc beside vitest, at a lower priority", () => {
    expect([...checks].sort()).toEqual(["deps", "docs:check", "lint", "typecheck"])
    expect(checksPriority).toBeGreaterThan(0)
    expect(checksPriority).toBeLessThanOrEqual(10)
  })

  it("a failing check fails the run although the command passed; the blocks come after the command ends", async () => {
    const cwd = scriptsPackage({
      good: `require("fs").writeFileSync("good.done", ""); console.log("good says hello")`,
      bad: `console.error("bad says no"); process.exit(3)`
    })
    const written: Array<{ readonly text: string; readonly commandEnded: boolean }> = []
    const code = await runBeside({
      checkScripts: ["good", "bad"],
      command: process.execPath,
      // the command ends only after the good check has ended: its block is held until then
      args: ["-e", waitFor("good.done", "command.done", 0)],
      cwd,
      write: (text) => written.push({ text, commandEnded: existsSync(join(cwd, "command.done")) })
    })
    expect(code).toBe(1)
    const all = written.map((w) => w.text).join("")
    expect(all).toMatch(/> good: passed after [\d.]+ s\ngood says hello\n/)
    expect(all).toMatch(/> bad: FAILED \(exit 3\) after [\d.]+ s\nbad says no\n/)
    expect(all).toContain("checks failed: bad")
    expect(written.every((w) => w.commandEnded)).toBe(true)
  })

  it("a failing command fails the run although every check passed", async () => {
    const cwd = scriptsPackage({ good: `console.log("fine")` })
    const written: Array<string> = []
    const code = await runBeside({
      checkScripts: ["good"],
      command: process.execPath,
      args: ["-e", "process.exit(2)"],
      cwd,
      write: (text) => written.push(text)
    })
    expect(code).toBe(1)
    expect(written.join("")).toMatch(/> good: passed after/)
    expect(written.join("")).not.toContain("checks failed")
  })

  it("passes when the command and every check pass", async () => {
    const cwd = scriptsPackage({ one: `console.log(1)`, two: `console.log(2)` })
    const code = await runBeside({
      checkScripts: ["one", "two"],
      command: process.execPath,
      args: ["-e", "process.exit(0)"],
      cwd,
      write: () => undefined
    })
    expect(code).toBe(0)
  })

  it("the checks run at the given nice value, and each block is printed when its check ends", async () => {
    const cwd = scriptsPackage({ nice: `console.log("priority " + require("os").getPriority())` })
    const blocks: Array<string> = []
    const failed = await runChecks(["nice"], { priority: checksPriority, cwd, print: (block) => blocks.push(block) })
    expect(failed).toEqual([])
    expect(blocks).toHaveLength(1)
    expect(blocks[0]).toContain(`priority ${checksPriority}`)
  })
})
