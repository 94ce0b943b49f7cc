/**
 * An esbuild plugin for the facade's and the CLI's builds: rewrites
 * `import { Schema, Effect } from "effect"` in the workspace's sources to
 * `import * as Schema from "effect/Schema"` (and the same for `@effect/platform`). esbuild keeps
 * the whole module behind a barrel's `export * as Schema` once anything reads it (it builds the
 * namespace object), so a barrel import costs every export of every module named; a namespace
 * import of the module itself is tree-shaken export by export. Names that are not modules
 * (`pipe`, `identity`, …) stay barrel imports. The browser bundle went from 253.6 to 171.4 kB
 * gzipped with it, and what `feeshare --help` loads from 971 to 632 kB (`docs/benchmarks.md`).
 */
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const barrels = ["effect", "@effect/platform"]

/** The folder of each barrel's ESM modules, e.g. `…/node_modules/effect/dist/esm`. */
const moduleFolders = (from) => {
  const require = createRequire(from)
  return new Map(barrels.map((barrel) => {
    const main = require.resolve(`${barrel}/package.json`)
    return [barrel, join(dirname(main), "dist", "esm")]
  }))
}

const importPattern = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+"(effect|@effect\/platform)"/g

/** The source text with its barrel imports of modules turned into namespace imports. */
export const rewrite = (text, folders) =>
  text.replace(importPattern, (whole, typeOnly, names, barrel) => {
    if (typeOnly !== undefined) return whole
    const folder = folders.get(barrel)
    if (folder === undefined) return whole
    const kept = []
    const namespaces = []
    for (const raw of names.split(",").map((name) => name.trim()).filter((name) => name.length > 0)) {
      if (raw.startsWith("type ")) continue
      const [name = raw, alias = name] = raw.split(/\s+as\s+/)
      if (existsSync(join(folder, `${name}.js`))) namespaces.push(`import * as ${alias} from "${barrel}/${name}"`)
      else kept.push(raw)
    }
    const statements = kept.length > 0 ? [`import { ${kept.join(", ")} } from "${barrel}"`] : []
    // as many lines as the import had, so that the source map's lines stay the file's
    return [...statements, ...namespaces].join("; ") + "\n".repeat(whole.split("\n").length - 1)
  })

/** The plugin: workspace `.ts` sources (not node_modules) get `rewrite`. */
export const plugin = (workspace) => ({
  name: "feeshare-barrel-imports",
  setup(build) {
    const folders = moduleFolders(join(workspace, "package.json"))
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes("/node_modules/") || !args.path.startsWith(workspace)) return undefined
      return { contents: rewrite(await readFile(args.path, "utf8"), folders), loader: "ts" }
    })
  }
})
