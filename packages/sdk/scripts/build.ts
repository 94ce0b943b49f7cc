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
import { fileURLToPath } from "node:url"
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
    // Node: minified (it loads faster) with source maps for stack traces; browsers: readable
    // code without maps, which the application's bundler minifies and maps itself
    minify: platform === "node",
    sourcemap: platform === "node" ? "linked" : false,
    sourcesContent: false,
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

// a source map only where it maps feeshare's own code: the transport chunk is all undici and
// @effect/platform-node, whose maps would add 0.6 MB to every install
for (const file of await readdir(`${dist}/node/chunks`)) {
  if (!file.endsWith(".js.map")) continue
  const map: { readonly sources: ReadonlyArray<string> } = JSON.parse(
    await readFile(`${dist}/node/chunks/${file}`, "utf8")
  )
  if (map.sources.some((source) => !source.includes("node_modules/"))) continue
  const chunk = `${dist}/node/chunks/${file.slice(0, -".map".length)}`
  await writeFile(chunk, (await readFile(chunk, "utf8")).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"))
  await rm(`${dist}/node/chunks/${file}`)
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
