/**
 * Packs the workspace's published packages as `npm pack` does for a release (each `prepack`
 * builds its `dist/`), and installs tarballs into fresh projects outside the workspace.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const workspace = fileURLToPath(new URL("../../..", import.meta.url))

export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command; never rejects (the outcome says how it ended). */
export const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string>>; readonly timeout?: number }
): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = execFile(command, [...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      timeout: options.timeout ?? 300_000,
      maxBuffer: 64 * 1024 * 1024
    }, (_error, stdout, stderr) => resolve({ code: child.exitCode ?? -1, stdout, stderr }))
  })

/** Runs a command and fails with its output when it exits non-zero. */
export const runOk = async (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string>>; readonly timeout?: number }
): Promise<Outcome> => {
  const outcome = await run(command, args, options)
  if (outcome.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`)
  }
  return outcome
}

/** The workspace folders (under packages/) of the packages that are published. */
export const publishedPackages = async (): Promise<
  ReadonlyArray<{ readonly folder: string; readonly name: string }>
> => {
  const folders = await readdir(join(workspace, "packages"))
  const found: Array<{ folder: string; name: string }> = []
  for (const folder of folders.sort()) {
    const manifest: { readonly name: string; readonly private?: boolean } = JSON.parse(
      await readFile(join(workspace, "packages", folder, "package.json"), "utf8")
    )
    if (manifest.private !== true) found.push({ folder, name: manifest.name })
  }
  return found
}

/** Packs every published package into `destination`; returns package name → tarball path. */
export const packAll = async (destination: string): Promise<ReadonlyMap<string, string>> => {
  const tarballs = new Map<string, string>()
  // one at a time: each prepack builds, and the later packages' builds reuse the earlier ones
  for (const { folder, name } of await publishedPackages()) {
    const { stdout } = await runOk("npm", ["pack", "--json", "--pack-destination", destination], {
      cwd: join(workspace, "packages", folder)
    })
    const [packed]: ReadonlyArray<{ readonly filename: string }> = JSON.parse(stdout.slice(stdout.indexOf("[")))
    if (packed === undefined) throw new Error(`npm pack of ${name} printed no file`)
    tarballs.set(name, join(destination, packed.filename))
  }
  return tarballs
}

/** A fresh temporary directory outside the workspace. */
export const temporaryDirectory = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix))

/**
 * A fresh project (ESM) in `directory` with `dependencies` installed as a user would: tarballs
 * by path, the rest from the registry (the npm cache first). No workspace links.
 */
export const makeProject = async (directory: string, dependencies: ReadonlyArray<string>): Promise<void> => {
  await writeFile(
    join(directory, "package.json"),
    JSON.stringify({ name: "feeshare-consumer", version: "1.0.0", private: true, type: "module" }, null, 2)
  )
  await runOk("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...dependencies], {
    cwd: directory
  })
}

/** Disk usage of a directory tree in bytes (allocated blocks, as `du` counts them). */
export const diskUsage = async (path: string): Promise<number> => {
  const info = await stat(path)
  if (!info.isDirectory()) return info.blocks * 512
  let total = info.blocks * 512
  for (const entry of await readdir(path)) total += await diskUsage(join(path, entry))
  return total
}

/** Removes a directory tree. */
export const remove = (path: string): Promise<void> => rm(path, { recursive: true, force: true })
