#!/usr/bin/env node
/**
 * The system parts the tests start for real: `redis-server`, PostgreSQL's server binaries,
 * `chromium` and `tmux`, each from its Debian package. Run as a program (`npm test` does, before
 * vitest), it finds them and installs the missing ones with apt-get when it runs as root;
 * otherwise it prints one line per missing part with the command that installs it and exits 1,
 * within seconds. The tests' starters call `requirePart` first, so a test run alone fails at
 * once with the same line instead of waiting for a server that cannot start.
 *
 * Plain JavaScript (no build, no tsx) so that it runs before anything else is ready;
 * `system-parts.d.mts` types it for the TypeScript tests.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { accessSync, constants, existsSync, readdirSync } from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"

/** An executable named `name` on `PATH`, or `undefined`. */
const onPath = (name, env = process.env) => {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/** The folder holding PostgreSQL's `initdb` and `pg_ctl`: PATH, `pg_config --bindir`, Debian's place. */
const postgresBinaries = (env = process.env) => {
  const initdb = onPath("initdb", env)
  if (initdb !== undefined && onPath("pg_ctl", env) !== undefined) return join(initdb, "..")
  const pgConfig = onPath("pg_config", env)
  if (pgConfig !== undefined) {
    try {
      const dir = execFileSync(pgConfig, ["--bindir"], { encoding: "utf8", timeout: 5_000 }).trim()
      if (existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir
    } catch {
      // pg_config comes with libpq-dev, which the server does not need: look where Debian puts it
    }
  }
  const root = "/usr/lib/postgresql"
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : []
  for (const version of versions) {
    const dir = join(root, version, "bin")
    if (existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir
  }
  return undefined
}

/** Every part: how the tests find it, the Debian package that brings it, and who needs it. */
export const parts = [
  {
    name: "redis-server",
    debianPackage: "redis-server",
    usedBy: "the shared rate budget's tests (servers, keeper)",
    locate: (env) => onPath("redis-server", env)
  },
  {
    name: "postgresql",
    debianPackage: "postgresql",
    usedBy: "the keeper cluster's tests (initdb, pg_ctl)",
    locate: postgresBinaries
  },
  {
    name: "chromium",
    debianPackage: "chromium",
    usedBy: "the explorer's browser tests",
    locate: (env) => onPath("chromium", env)
  },
  {
    name: "tmux",
    debianPackage: "tmux",
    usedBy: "the CLI's terminal tests",
    locate: (env) => onPath("tmux", env)
  }
]

const byName = (name) => {
  const part = parts.find((candidate) => candidate.name === name)
  if (part === undefined) throw new Error(`no system part is named ${name}`)
  return part
}

/** The command that installs these Debian packages. */
export const installCommand = (debianPackages) => `apt-get install -y ${debianPackages.join(" ")}`

/** The line that names a missing part and how to install it. */
export const missingLine = (part) =>
  `missing ${part.name} (${part.usedBy}): install it with \`${installCommand([part.debianPackage])}\` as root, or run \`npm test\` as root`

/** Where the part is (an executable, or PostgreSQL's binaries folder), or `undefined`. */
export const locate = (name, env = process.env) => byName(name).locate(env)

/** Where the part is; throws an `Error` with the missing part's line when it is not there. */
export const requirePart = (name, env = process.env) => {
  const found = locate(name, env)
  if (found === undefined) throw new Error(missingLine(byName(name)))
  return found
}

const aptGet = (args, env) =>
  spawnSync("apt-get", args, {
    env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })

/**
 * Finds every part and installs the missing ones when it can (root with apt-get). Returns the
 * parts still missing, after reporting each on `log`.
 */
export const ensureParts = (env = process.env, log = (line) => process.stderr.write(`${line}\n`)) => {
  const missing = () => parts.filter((part) => part.locate(env) === undefined)
  const before = missing()
  if (before.length === 0) return []
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  const apt = onPath("apt-get", env)
  if (isRoot && apt !== undefined) {
    const packages = before.map((part) => part.debianPackage)
    log(`system parts: installing ${packages.join(", ")} (${installCommand(packages)})`)
    const install = ["install", "-y", "-qq", ...packages]
    let result = aptGet(install, env)
    if (result.status !== 0) {
      // a fresh machine's package lists are empty or old: update once, then try again
      aptGet(["update", "-qq"], env)
      result = aptGet(install, env)
    }
    if (result.status !== 0) log(`system parts: apt-get failed:\n${(result.stderr || result.stdout || "").trim().slice(-2000)}`)
  } else {
    log(`system parts: cannot install here (${isRoot ? "no apt-get on PATH" : "not root"})`)
  }
  const after = missing()
  for (const part of after) log(missingLine(part))
  return after
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = ensureParts().length === 0 ? 0 : 1
}
