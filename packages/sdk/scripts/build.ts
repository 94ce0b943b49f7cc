/**
 * Builds the self-contained facade into `dist/` (run by `npm run build`, and by `prepack`):
 * - `dist/node/` and `dist/browser/`: one tree-shaken ESM bundle of the entries (`index`,
 *   `web3`, and on Node `redis`, whose `ioredis` stays an import of the optional peer) per
 *   platform, with shared chunks; everything they import (Effect, the feeshare
 *   packages, Kit) is inside, so the package has no dependencies. The Node build loads its
 *   HTTP transport (undici) lazily, in a chunk of its own.
 * - `dist/index.d.ts`, `dist/web3.d.ts` over `dist/types/`: the declarations with every
 *   declaration file they reference, so a consumer type-checks without installing anything
 *   else (see `declarations.ts`).
 *
 * Expects `tsc -b tsconfig.build.json` to have emitted the declarations into `.tsc/build`.
 */
import * as esbuild from "esbuild"
import { readdir, readFile, rm, writeFile } from "node:fs/promises"
import { relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import * as Barrels from "../../../scripts/barrels.mjs"
import * as Declarations from "./declarations.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = `${root}dist`
const entries = { index: `${root}src/index.ts`, web3: `${root}src/web3.ts` }
/** Node only: the shared rate budget over ioredis (an optional peer, never bundled). */
const nodeEntries = { ...entries, redis: `${root}src/redis.ts` }

await rm(dist, { recursive: true, force: true })

const bundle = (platform: "node" | "browser") =>
  esbuild.build({
    entryPoints: platform === "node" ? nodeEntries : entries,
    outdir: `${dist}/${platform}`,
    bundle: true,
    splitting: true,
    format: "esm",
    platform,
    target: platform === "node" ? "node20" : "es2022",
    conditions: ["@feeshare/source"],
    // Node: minified (it loads faster) with source maps for stack traces, keeping the names of
    // classes and functions (`constructor.name` of an error is `BadRequest`, a stack names the
    // functions); browsers: readable code without maps, which the application's bundler
    // minifies and maps itself (kept names would cost 20 kB gzipped there; the errors' `tag`
    // names their class on every platform)
    minify: platform === "node",
    keepNames: platform === "node",
    // Kit's browser code keeps its table of error messages (39 kB minified) unless built for
    // production, and esbuild reads an unminified browser build as development: build it as
    // Kit's production build, whose errors carry their code and how to decode it
    ...(platform === "browser" ? { define: { "process.env.NODE_ENV": "\"production\"" } } : {}),
    sourcemap: platform === "node" ? "linked" : false,
    // the text of feeshare's own sources is put back into the maps below; the libraries' is not
    sourcesContent: true,
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "linked",
    // undici (inside the Node transport chunk) is CommonJS that requires Node's built-ins
    ...(platform === "node"
      ? {
        banner: {
          js:
            "import { createRequire as __feeshareRequire } from \"node:module\"; const require = __feeshareRequire(import.meta.url);"
        }
      }
      : {}),
    external: ["ioredis"],
    plugins: [Barrels.plugin(fileURLToPath(new URL("../../../", import.meta.url)))],
    metafile: true,
    logLevel: "warning"
  })

const [node] = await Promise.all([bundle("node"), bundle("browser")])

// the light facade stays light: only the redis entry may reach ioredis
const reaches = (file: string, seen = new Set<string>()): boolean => {
  if (seen.has(file)) return false
  seen.add(file)
  return (node.metafile.outputs[file]?.imports ?? []).some((imported) =>
    imported.path === "ioredis" || (imported.kind === "import-statement" && reaches(imported.path, seen))
  )
}
for (const [file, output] of Object.entries(node.metafile.outputs)) {
  if (output.entryPoint !== undefined && !output.entryPoint.endsWith("src/redis.ts") && reaches(file)) {
    throw new Error(`sdk build: ${file} loads ioredis; only feeshare/redis may`)
  }
}

const workspace = fileURLToPath(new URL("../../", import.meta.url))

/**
 * Where a bundled source is, as the installed package names it (relative to its root): the
 * facade's own `src/…`; the other feeshare packages under `src/@feeshare/<name>/…`; a library
 * as `node_modules/<library>/…` (named, not shipped).
 */
const packagePath = (absolute: string): string => {
  if (absolute.startsWith(`${root}src/`)) return absolute.slice(root.length)
  const library = absolute.lastIndexOf("node_modules/")
  if (library >= 0) return absolute.slice(library)
  const own = /^([^/]+)\/src\/(.+)$/.exec(relative(workspace, absolute))
  if (own !== null) return `src/@feeshare/${own[1]}/${own[2]}`
  throw new Error(`sdk build: a bundled source outside the workspace and node_modules: ${absolute}`)
}

interface SourceMap {
  sources: Array<string>
  sourcesContent?: Array<string | null>
}

// a source map only where it maps feeshare's own code (the transport chunk is all undici and
// @effect/platform-node, whose maps would add 0.6 MB to every install); in the others, every
// source named by its place in the installed package, with the text of feeshare's own sources
// only, so that `node --enable-source-maps` prints `…/node_modules/feeshare/src/FeeShare.ts:123`
// and a debugger shows that file
for (const folder of [`${dist}/node`, `${dist}/node/chunks`]) {
  for (const file of await readdir(folder)) {
    if (!file.endsWith(".js.map")) continue
    const path = `${folder}/${file}`
    const map: SourceMap = JSON.parse(await readFile(path, "utf8"))
    const absolute = map.sources.map((source) => resolve(folder, source))
    if (absolute.every((source) => source.includes("/node_modules/"))) {
      const chunk = path.slice(0, -".map".length)
      await writeFile(chunk, (await readFile(chunk, "utf8")).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"))
      await rm(path)
      continue
    }
    const fromFolder = relative(folder, root)
    map.sources = absolute.map((source) => `${fromFolder}/${packagePath(source)}`)
    map.sourcesContent = (map.sourcesContent ?? []).map((content, index) =>
      absolute[index]?.includes("/node_modules/") === true ? null : content
    )
    await writeFile(path, JSON.stringify(map))
  }
}

const declarations = await Declarations.write({
  entries: {
    index: `${root}.tsc/build/index.d.ts`,
    web3: `${root}.tsc/build/web3.d.ts`,
    redis: `${root}.tsc/build/redis.d.ts`
  },
  outDir: dist,
  workspace: fileURLToPath(new URL("../../..", import.meta.url)),
  packageNames: new Map([
    ["domain", "@feeshare/domain"],
    ["client", "@feeshare/client"],
    ["solana", "@feeshare/solana"],
    ["sdk", "feeshare"]
  ]),
  external: ["ioredis"]
})
console.log(`feeshare: ${declarations.files} declaration files, ${(declarations.bytes / 1e6).toFixed(2)} MB`)
