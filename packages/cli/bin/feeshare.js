#!/usr/bin/env node
// The `feeshare` executable. There is no build step: the sources (src/bin.ts and the
// workspace packages it imports) are bundled on first use with esbuild (which tsx ships)
// into dist/bin/<fingerprint>/, and re-bundled whenever a source file changes. Running the
// bundle starts several times faster than running the sources through tsx's loader
// (measured by bench/index.ts). Without esbuild, or with FEESHARE_CLI_TSX=1, the sources
// run through tsx.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const cli = join(dirname(fileURLToPath(import.meta.url)), "..")
const workspace = join(cli, "..", "..")

/** Newest mtime, total size and count of the workspace packages' sources and the lockfile. */
const fingerprint = () => {
  let newest = 0
  let size = 0
  let count = 0
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false })
    if (stat === undefined) return
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry))
      return
    }
    newest = Math.max(newest, stat.mtimeMs)
    size += stat.size
    count += 1
  }
  for (const pkg of readdirSync(join(workspace, "packages"))) {
    visit(join(workspace, "packages", pkg, "src"))
    visit(join(workspace, "packages", pkg, "package.json"))
  }
  visit(join(workspace, "package-lock.json"))
  return `${Math.floor(newest).toString(36)}-${size.toString(36)}-${count}`
}

const bundle = async () => {
  const out = join(cli, "dist", "bin", fingerprint())
  const entry = join(out, "bin.js")
  if (existsSync(entry)) return entry
  const esbuild = await import("esbuild")
  const temporary = `${out}.${process.pid}.tmp`
  await esbuild.build({
    entryPoints: [join(cli, "src", "bin.ts")],
    outdir: temporary,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["litesvm"],
    banner: { js: "import { createRequire as __feeshareRequire } from 'node:module'; const require = __feeshareRequire(import.meta.url);" },
    logLevel: "silent"
  })
  mkdirSync(dirname(out), { recursive: true })
  try {
    renameSync(temporary, out)
  } catch {
    // another process finished the same bundle first
    rmSync(temporary, { recursive: true, force: true })
  }
  // bundles of older sources, unused for ten minutes (a running process may still load their chunks)
  for (const old of readdirSync(dirname(out))) {
    const path = join(dirname(out), old)
    const stat = statSync(path, { throwIfNoEntry: false })
    if (path !== out && stat !== undefined && Date.now() - stat.mtimeMs > 600_000) rmSync(path, { recursive: true, force: true })
  }
  return entry
}

const viaTsx = async () => {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/bin.ts")
}

if (process.env.FEESHARE_CLI_TSX === "1") await viaTsx()
else {
  let entry
  try {
    entry = await bundle()
  } catch {
    entry = undefined
  }
  if (entry === undefined) await viaTsx()
  else await import(pathToFileURL(entry).href)
}
