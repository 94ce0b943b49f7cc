/**
 * Packs the workspace's published packages as `npm pack` does for a release (each `prepack`
 * builds its `dist/`), and installs tarballs into fresh projects outside the workspace.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Pack from "../../../scripts/pack.mjs"

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

/** The published packages (every workspace not marked `private`), from `scripts/pack.mjs`. */
export const publishedPackages = (): Promise<ReadonlyArray<{ readonly folder: string; readonly name: string }>> =>
  Pack.publishablePackages()

/**
 * Packs every published package into `destination` with `npm run pack`'s own module
 * (`scripts/pack.mjs`); returns package name → tarball path.
 */
export const packAll = (destination: string): Promise<ReadonlyMap<string, string>> => Pack.packAll({ out: destination })

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

/**
 * Runs at most `concurrency` of the tasks given to it at once (the others wait their turn), so
 * that npm installs and type-checks share the machine's cores instead of thrashing them.
 */
export const limiter = (concurrency: number) => {
  let running = 0
  const waiting: Array<() => void> = []
  return async <A>(task: () => Promise<A>): Promise<A> => {
    // a finishing task hands its slot straight to the next waiting one
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    else running++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next === undefined) running--
      else next()
    }
  }
}
