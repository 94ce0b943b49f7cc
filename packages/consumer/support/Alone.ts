/**
 * One published package installed alone, as its README tells a user to: a fresh project outside
 * the checkout with only that package's tarball, the tarballs of its `@feeshare/*` dependencies
 * (resolved to the local tarballs through `overrides`, never from the registry) and the peers its
 * README's install line names. What such a project can import and type-check is what a user
 * gets.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { runOk } from "./Tarballs.js"

export interface Manifest {
  readonly name: string
  readonly version: string
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>
  readonly exports?: Readonly<Record<string, unknown>>
  readonly bin?: string | Readonly<Record<string, string>>
}

/** A packed package: its tarball, manifest and the install line of its README. */
export interface Packed {
  readonly name: string
  readonly tarball: string
  readonly manifest: Manifest
  readonly readme: string
  /** The README's install line, e.g. `npm install @feeshare/client effect@^3.22 ...`. */
  readonly installLine: string
  /** The peers the install line names, as written (`effect@^3.22`). */
  readonly peers: ReadonlyArray<string>
}

/** A file of a tarball, as text. */
export const tarballFile = async (tarball: string, path: string): Promise<string> =>
  (await runOk("tar", ["-xzOf", tarball, `package/${path}`], { cwd: "/" })).stdout

/**
 * The install line of a README: the first line of a ```sh block that starts with `npm install`.
 * Returns the line and the words after the package's name (flags such as `-D` or `-g` dropped).
 */
export const installLine = (
  name: string,
  readme: string
): { readonly line: string; readonly peers: ReadonlyArray<string> } => {
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of (block[1] ?? "").split("\n")) {
      const line = raw.trim()
      if (!line.startsWith("npm install ")) continue
      const words = line.slice("npm install ".length).split("#")[0]?.trim().split(/\s+/) ?? []
      const [first, ...peers] = words.filter((word) => !word.startsWith("-"))
      if (first !== name) throw new Error(`${name}'s README: the install line installs ${first}: ${line}`)
      return { line, peers }
    }
  }
  throw new Error(`${name}'s README has no \`npm install\` line in a sh block`)
}

export const readPacked = async (name: string, tarball: string): Promise<Packed> => {
  const manifest: Manifest = JSON.parse(await tarballFile(tarball, "package.json"))
  const readme = await tarballFile(tarball, "README.md")
  const { line, peers } = installLine(name, readme)
  return { name, tarball, manifest, readme, installLine: line, peers }
}

/** The `@feeshare/*` (and `feeshare`) packages `name` depends on, transitively. */
export const internalDependencies = (
  name: string,
  packed: ReadonlyMap<string, Packed>
): ReadonlyArray<string> => {
  const found = new Set<string>()
  const visit = (current: string): void => {
    const manifest = packed.get(current)?.manifest
    if (manifest === undefined) throw new Error(`${current} is not one of the packed packages`)
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (packed.has(dependency) && !found.has(dependency)) {
        found.add(dependency)
        visit(dependency)
      }
    }
  }
  visit(name)
  return [...found].sort()
}

/**
 * A fresh project in `directory` with `dependencies` (tarball paths or registry specs)
 * installed, and every packed package it may reach overridden to its local tarball, so that a
 * `@feeshare/*` dependency can only come from the tarball (and an undeclared one not at all).
 * `timeout` bounds npm (default: `run`'s); npm killed by it exits 1 without a word.
 */
export const installProject = async (
  directory: string,
  dependencies: ReadonlyArray<string>,
  packed: ReadonlyMap<string, Packed>,
  internal: ReadonlyArray<string>,
  options: { readonly timeout?: number } = {}
): Promise<void> => {
  // npm refuses an override of a direct dependency (EOVERRIDE): those are tarballs already
  const direct = new Set(dependencies)
  const overrides = Object.fromEntries(
    internal.filter((name) => !direct.has(tarballOf(packed, name))).map((
      name
    ) => [name, `file:${tarballOf(packed, name)}`])
  )
  await writeFile(
    join(directory, "package.json"),
    JSON.stringify({ name: "feeshare-consumer", version: "1.0.0", private: true, type: "module", overrides }, null, 2)
  )
  await runOk("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...dependencies], {
    cwd: directory,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })
}

const tarballOf = (packed: ReadonlyMap<string, Packed>, name: string): string => {
  const found = packed.get(name)
  if (found === undefined) throw new Error(`no tarball of ${name}`)
  return found.tarball
}

/** `name` alone, as its README's install line says, in `directory`. */
export const installAlone = (
  directory: string,
  name: string,
  packed: ReadonlyMap<string, Packed>,
  typesOnly: ReadonlyArray<string>
): Promise<void> => {
  const self = packed.get(name)
  if (self === undefined) throw new Error(`no tarball of ${name}`)
  return installProject(
    directory,
    [self.tarball, ...self.peers, ...typesOnly],
    packed,
    internalDependencies(name, packed)
  )
}

const files = async (directory: string): Promise<ReadonlyArray<string>> => {
  const found: Array<string> = []
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) await walk(path)
      else found.push(relative(directory, path))
    }
  }
  await walk(directory)
  return found
}

const isFile = (path: string): Promise<boolean> => stat(path).then((info) => info.isFile(), () => false)

/** The conditions Node's `import` uses, in the order an export's object is read. */
const nodeImport = (target: unknown): string | null => {
  if (typeof target === "string") return target
  if (target === null || typeof target !== "object") return null
  for (const [condition, value] of Object.entries(target)) {
    if (condition === "node" || condition === "import" || condition === "default") {
      const resolved = nodeImport(value)
      if (resolved !== null) return resolved
    }
  }
  return null
}

const typesOf = (target: unknown): string | null =>
  target !== null && typeof target === "object" && "types" in target && typeof target.types === "string"
    ? target.types
    : null

/**
 * The module specifiers a user can import from the installed package: every `exports` entry but
 * `./package.json` and the ones mapped to `null` (`./internal/*`); a `./*` pattern is expanded
 * into the modules of the package that match both its JavaScript and its declaration targets.
 * The package's `bin` files are programs, not modules (importing one runs it), and are left out.
 */
export const entries = async (installed: string, manifest: Manifest): Promise<ReadonlyArray<string>> => {
  const exportsField = manifest.exports ?? {}
  const blocked = Object.entries(exportsField).filter(([, target]) => target === null).map(([key]) => key)
  const bins = new Set(
    Object.values(typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : manifest.bin ?? {})
      .map((path) => path.replace(/^\.\//, ""))
  )
  const isBlocked = (subpath: string) =>
    blocked.some((key) => key.includes("*") ? subpath.startsWith(key.slice(0, key.indexOf("*"))) : subpath === key)
  const all = await files(installed)
  // a pattern's match that is an explicit entry's module already (`./index` for `.`) is that entry
  const explicit = new Set(
    Object.entries(exportsField).filter(([key]) => !key.includes("*")).map(([, target]) =>
      nodeImport(target)?.replace(/^\.\//, "")
    )
  )
  const found = new Set<string>()
  for (const [key, target] of Object.entries(exportsField)) {
    if (target === null || key === "./package.json") continue
    const javascript = nodeImport(target)
    if (javascript === null) throw new Error(`${manifest.name}: exports["${key}"] has no target for node's import`)
    if (!key.includes("*")) {
      if (!bins.has(javascript.replace(/^\.\//, ""))) found.add(key)
      continue
    }
    const [before, after] = javascript.replace(/^\.\//, "").split("*")
    const types = typesOf(target)
    for (const file of all) {
      if (before === undefined || after === undefined || !file.startsWith(before) || !file.endsWith(after)) continue
      if (bins.has(file) || explicit.has(file)) continue
      const star = file.slice(before.length, file.length - after.length)
      const subpath = key.replace("*", star)
      if (isBlocked(subpath)) continue
      if (types !== null && !(await isFile(join(installed, types.replace("*", star))))) continue
      found.add(subpath)
    }
  }
  return [...found].sort().map((subpath) => subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`)
}

/**
 * What `import()` of each specifier does under plain `node` from `directory`: `"ok"`, or the
 * failure's code and message.
 */
export const importEach = async (
  directory: string,
  specifiers: ReadonlyArray<string>
): Promise<Readonly<Record<string, "ok" | { readonly code: string; readonly message: string }>>> => {
  const script = `
const results = {}
for (const specifier of ${JSON.stringify(specifiers)}) {
  try {
    await import(specifier)
    results[specifier] = "ok"
  } catch (error) {
    results[specifier] = { code: String(error?.code), message: String(error?.message).split("\\n")[0] }
  }
}
console.log(JSON.stringify(results))
`
  const { stdout } = await runOk("node", ["--input-type=module", "-e", script], { cwd: directory })
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")
}

/**
 * Writes `check.ts` importing every specifier, and one strict tsconfig per module resolution
 * (`node16`, `bundler`) over it and `extraFiles`; returns the tsconfig files' names.
 */
export const writeTypeCheck = async (
  directory: string,
  specifiers: ReadonlyArray<string>,
  options: { readonly extraFiles: ReadonlyArray<string>; readonly types: ReadonlyArray<string> }
): Promise<ReadonlyArray<string>> => {
  const lines = specifiers.map((specifier, index) => `import * as m${index} from ${JSON.stringify(specifier)}`)
  lines.push(`export const modules = [${specifiers.map((_, index) => `m${index}`).join(", ")}] as const`)
  await writeFile(join(directory, "check.ts"), `${lines.join("\n")}\n`)
  const configs: Array<string> = []
  for (const [resolution, module] of [["node16", "node16"], ["bundler", "esnext"]] as const) {
    const file = `tsconfig.check-${resolution}.json`
    await writeFile(
      join(directory, file),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            module,
            moduleResolution: resolution,
            target: "es2022",
            lib: ["es2022", "dom"],
            types: options.types,
            skipLibCheck: false,
            noEmit: true
          },
          files: ["check.ts", ...options.extraFiles]
        },
        null,
        2
      )
    )
    configs.push(file)
  }
  return configs
}

/** The installed package's folder in `project`. */
export const installedFolder = (project: string, name: string): string =>
  join(project, "node_modules", ...name.split("/"))

export const readInstalledManifest = async (project: string, name: string): Promise<Manifest> =>
  JSON.parse(await readFile(join(installedFolder(project, name), "package.json"), "utf8"))
