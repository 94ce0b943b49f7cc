// The step `npm test` runs before vitest (scripts/system-parts.mjs): it finds the system parts
// the tests start, installs the missing ones with apt-get as root, and otherwise stops at once
// naming each missing part with its install command. Run here with a PATH of stand-in
// executables, so that nothing on this machine is installed or removed.
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { missingLine, parts, requirePart } from "../../../scripts/system-parts.mjs"

const step = fileURLToPath(new URL("../../../scripts/system-parts.mjs", import.meta.url))
const isRoot = process.getuid?.() === 0

let folders: Array<string> = []
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  folders = []
})

/** A folder of stand-in executables (each exits 0) to use as the whole PATH. */
const fakePath = (names: ReadonlyArray<string>, scripts: Readonly<Record<string, string>> = {}): string => {
  const dir = mkdtempSync(join(tmpdir(), "feeshare-parts-"))
  folders.push(dir)
  for (const name of names) {
    const file = join(dir, name)
    writeFileSync(file, scripts[name] ?? "#!/bin/sh\nexit 0\n")
    chmodSync(file, 0o755)
  }
  return dir
}

/** Every part but redis-server (PostgreSQL as its two binaries). */
const allButRedis = ["initdb", "pg_ctl", "chromium", "tmux"]

/** The step as `npm test` runs it, with only `PATH` in its environment; never waits past 20 s. */
const runStep = (path: string) => {
  const result = spawnSync(process.execPath, [step], { env: { PATH: path }, encoding: "utf8", timeout: 20_000 })
  // killed by the timeout: the step hung, which it must never do
  expect(result.signal).toBeNull()
  return result
}

const redis = parts.find((part) => part.name === "redis-server")!

describe("system parts (scripts/system-parts.mjs)", () => {
  it("a PATH that hides redis-server and offers no apt-get: exits 1 at once, naming it and its install command", () => {
    const result = runStep(fakePath(allButRedis))
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    const lines = result.stderr.trim().split("\n")
    expect(lines).toContain(missingLine(redis))
    expect(result.stderr).toContain("apt-get install -y redis-server")
    expect(result.stderr).toContain(isRoot ? "no apt-get on PATH" : "not root")
    // only the hidden part is named
    for (const part of parts.filter((other) => other.name !== "redis-server")) {
      expect(result.stderr).not.toContain(`missing ${part.name} `)
    }
  })

  it("every part present: exits 0 and says nothing", () => {
    const result = runStep(fakePath([...allButRedis, "redis-server"]))
    expect(result.stderr).toBe("")
    expect(result.status).toBe(0)
  })

  it("as root it asks apt-get for the missing packages, updates the lists once when that fails, and still reports what did not come", () => {
    const log = join(mkdtempSync(join(tmpdir(), "feeshare-apt-")), "calls")
    folders.push(join(log, ".."))
    // an apt-get that records its calls, fails the first install and installs nothing
    const aptGet = `#!/bin/sh\necho "$*" >> ${log}\n[ "$1" = install ] && [ ! -e ${log}.once ] && : > ${log}.once && exit 100\nexit 0\n`
    const result = runStep(fakePath(["initdb", "pg_ctl", "tmux", "apt-get"], { "apt-get": aptGet }))
    expect(result.status).toBe(1)
    const missing = parts.filter((part) => part.name === "redis-server" || part.name === "chromium")
    for (const part of missing) expect(result.stderr).toContain(missingLine(part))
    if (isRoot) {
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([
        "install -y -qq redis-server chromium",
        "update -qq",
        "install -y -qq redis-server chromium"
      ])
    } else {
      // not root: nothing is attempted
      expect(existsSync(log)).toBe(false)
      expect(result.stderr).toContain("not root")
    }
  })

  it("requirePart: where the part is, or an Error with the same line", () => {
    const path = fakePath(allButRedis)
    expect(requirePart("tmux", { PATH: path })).toBe(join(path, "tmux"))
    expect(requirePart("postgresql", { PATH: path })).toBe(path)
    expect(() => requirePart("redis-server", { PATH: path })).toThrow(missingLine(redis))
  })
})
