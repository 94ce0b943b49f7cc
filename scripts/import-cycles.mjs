#!/usr/bin/env node
/**
 * Fails on an import cycle among the packages' sources (`npm run lint` runs it after ESLint).
 * Every import counts: values, `import type`, `export … from` and `import()`, within a package
 * and across the workspace's packages (`@feeshare/<name>/<Module>` names `src/<Module>.ts`, as
 * the `@feeshare/source` export condition does). ESLint's import plugins skip type-only imports,
 * and a type-only cycle is still a cycle of concepts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const workspaces = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces

/** Package name → its folder, for every workspace with sources. */
const packages = new Map(
  workspaces
    .map((folder) => join(root, folder))
    .filter((folder) => existsSync(join(folder, "src")))
    .map((folder) => [JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name, folder])
)

const sources = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.m?ts$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name) ? [path] : []
  })

/** The source file an import names, or `undefined` for anything outside the workspace's sources. */
const target = (from, specifier) => {
  let base
  if (specifier.startsWith(".")) {
    base = resolve(dirname(from), specifier)
  } else {
    const name = [...packages.keys()].find((name) => specifier === name || specifier.startsWith(`${name}/`))
    if (name === undefined) return undefined
    const sub = specifier.slice(name.length + 1)
    base = join(packages.get(name), "src", sub === "" ? "index" : sub)
  }
  base = base.replace(/\.m?js$/, "")
  return [`${base}.ts`, `${base}.mts`, join(base, "index.ts")].find((file) => existsSync(file))
}

const files = [...packages.values()].flatMap((folder) => sources(join(folder, "src")))
const graph = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true)
    const targets = importedFiles.map(({ fileName }) => target(file, fileName)).filter((file) => file !== undefined)
    return [file, [...new Set(targets)]]
  })
)

// Tarjan's strongly connected components: every component of two or more modules (or one
// that imports itself) holds a cycle
let counter = 0
const index = new Map()
const low = new Map()
const stack = []
const onStack = new Set()
const cycles = []
const visit = (file) => {
  index.set(file, counter)
  low.set(file, counter)
  counter++
  stack.push(file)
  onStack.add(file)
  for (const next of graph.get(file)) {
    if (!index.has(next)) {
      visit(next)
      low.set(file, Math.min(low.get(file), low.get(next)))
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), index.get(next)))
    }
  }
  if (low.get(file) !== index.get(file)) return
  const component = []
  let member
  do {
    member = stack.pop()
    onStack.delete(member)
    component.push(member)
  } while (member !== file)
  if (component.length > 1 || graph.get(file).includes(file)) cycles.push(component)
}
for (const file of files) if (!index.has(file)) visit(file)

const name = (file) => relative(root, file)
for (const component of cycles) {
  const members = new Set(component)
  console.error(`import cycle among ${component.length} module(s):`)
  for (const file of component.sort()) {
    console.error(`  ${name(file)} -> ${graph.get(file).filter((next) => members.has(next)).map(name).join(", ")}`)
  }
}
if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle(s): move what both sides need into a module that both import`)
  process.exitCode = 1
}
