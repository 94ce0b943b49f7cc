#!/usr/bin/env node
// `npm run pack [-- --out DIR]`: packs every publishable workspace (each package.json without
// `"private": true`, in the root's `workspaces` order, which is dependency order) into one
// folder, as `npm pack` does for a release (dist/ removed, then each `prepack` builds it),
// and prints the tarballs' paths. The folder is `dist-tarballs/` at the repository root unless
// `--out DIR` or FEESHARE_PACK_DIR says otherwise. The consumer test packs through this module.
import { execFile } from "node:child_process"
import { access, mkdir, readFile, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { isAbsolute, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root (this file is `scripts/pack.mjs`). */
export const workspaceRoot = fileURLToPath(new URL("..", import.meta.url))

/** The default destination: `dist-tarballs/` at the repository root (ignored by git). */
export const defaultOut = join(workspaceRoot, "dist-tarballs")

const readJson = async (path) => JSON.parse(await readFile(path, "utf8"))

/**
 * The publishable workspaces, from the root's `workspaces` and each one's `private` flag.
 * @param {string} [root]
 * @returns {Promise<ReadonlyArray<{ readonly name: string, readonly folder: string }>>}
 */
export const publishablePackages = async (root = workspaceRoot) => {
  const { workspaces } = await readJson(join(root, "package.json"))
  if (!Array.isArray(workspaces)) throw new Error(`${root}package.json: workspaces must be a list of folders`)
  const found = []
  for (const workspace of workspaces) {
    if (workspace.includes("*")) throw new Error(`pack.mjs: workspace globs are not supported (${workspace})`)
    const folder = join(root, workspace)
    const manifest = await readJson(join(folder, "package.json"))
    if (manifest.private !== true) found.push({ name: manifest.name, folder })
  }
  return found
}

const run = (command, args, cwd) =>
  new Promise((resolvePromise, reject) => {
    execFile(
      command,
      args,
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(" ")} failed\n${stdout}\n${stderr}`))
        else resolvePromise(stdout)
      }
    )
  })

/**
 * The JSON array `npm pack --json` prints last (the `prepack` builds print before it, on the
 * same stdout).
 * @param {string} stdout
 * @returns {ReadonlyArray<{ readonly name: string, readonly filename: string }>}
 */
const lastJsonArray = (stdout) => {
  for (let at = stdout.lastIndexOf("["); at >= 0; at = at === 0 ? -1 : stdout.lastIndexOf("[", at - 1)) {
    if (at > 0 && stdout[at - 1] !== "\n") continue
    try {
      const parsed = JSON.parse(stdout.slice(at))
      if (Array.isArray(parsed)) return parsed
    } catch {
      // not the start of the JSON output: keep looking further back
    }
  }
  throw new Error(`npm pack --json printed no JSON:\n${stdout}`)
}

/**
 * Packs every publishable workspace into `out` with one `npm pack` (npm runs the `prepack`
 * scripts one package at a time, in order, so each build reuses the ones before it), after one
 * `tsc -b` of all their TypeScript builds.
 * @param {{ readonly out?: string, readonly root?: string }} [options]
 * @returns {Promise<ReadonlyMap<string, string>>} package name → absolute tarball path
 */
export const packAll = async (options = {}) => {
  const root = options.root ?? workspaceRoot
  const out = resolve(options.out ?? defaultOut)
  const packages = await publishablePackages(root)
  await mkdir(out, { recursive: true })
  // every dist/ from scratch: `tsc -b` never deletes the output of a source removed since the
  // last build, and such a stale module would be packed (and could import what the package no
  // longer depends on)
  for (const { folder } of packages) await rm(join(folder, "dist"), { recursive: true, force: true })
  // one `tsc -b` over every package's build first: it parses the shared declarations (effect,
  // @solana/kit) once for all of them, where each prepack's own `tsc -b` would parse them again;
  // the prepacks then find their TypeScript output up to date
  const builds = []
  for (const { folder } of packages) {
    const config = join(folder, "tsconfig.build.json")
    if (await access(config).then(() => true, () => false)) builds.push(config)
  }
  if (builds.length > 0) {
    await run(process.execPath, [
      createRequire(join(root, "package.json")).resolve("typescript/bin/tsc"),
      "-b",
      ...builds
    ], root)
  }
  const workspaceFlags = packages.flatMap(({ folder }) => ["--workspace", folder])
  const stdout = await run("npm", ["pack", "--json", "--pack-destination", out, ...workspaceFlags], root)
  const packed = lastJsonArray(stdout)
  const tarballs = new Map()
  for (const { name } of packages) {
    const entry = packed.find((p) => p.name === name)
    if (entry === undefined) throw new Error(`npm pack printed no tarball for ${name}`)
    tarballs.set(name, join(out, entry.filename))
  }
  if (packed.length !== packages.length) {
    throw new Error(
      `npm pack packed ${packed.map((p) => p.name).join(", ")}; expected ${packages.map((p) => p.name).join(", ")}`
    )
  }
  return tarballs
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)

if (isMain) {
  const args = process.argv.slice(2)
  let out = process.env.FEESHARE_PACK_DIR || defaultOut
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === "--out" && args[i + 1] !== undefined) out = args[++i]
    else if (arg.startsWith("--out=")) out = arg.slice("--out=".length)
    else {
      console.error(`usage: npm run pack [-- --out DIR]   (default ${defaultOut}; or FEESHARE_PACK_DIR)`)
      process.exit(2)
    }
  }
  const tarballs = await packAll({ out: isAbsolute(out) ? out : resolve(process.env.INIT_CWD ?? process.cwd(), out) })
  for (const path of tarballs.values()) console.log(path)
}
