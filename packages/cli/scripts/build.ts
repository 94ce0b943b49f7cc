/**
 * Builds the `feeshare` executable into `dist/` (run by `npm run build`, by `prepack`, and by
 * the tests' global set-up): one ESM bundle of `src/bin.ts` and everything it imports, with
 * the command handlers, the sandbox and the demo in chunks loaded only by the commands that
 * use them. LiteSVM (native, needed only by `sandbox` and `demo`) and ioredis (needed only
 * with `--redis-url`) stay dependencies loaded by those chunks; nothing is written into the
 * package at run time.
 */
import * as ExplorerAssets from "@feeshare/sandbox/ExplorerAssets"
import * as esbuild from "esbuild"
import { rm } from "node:fs/promises"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as Barrels from "../../../scripts/barrels.mjs"
import * as Cli from "../src/Cli.js"
import * as Help from "../src/Help.js"
import { marked } from "../src/internal/helpStyle.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = `${root}dist`

/** `internal/helpScreens.ts` as what it renders, rendered now: the help needs no command loaded. */
const renderedHelp: esbuild.Plugin = {
  name: "feeshare-rendered-help",
  setup(build) {
    build.onLoad({ filter: /[/\\]src[/\\]internal[/\\]helpScreens\.ts$/ }, () => ({
      contents: `export const screens = ${JSON.stringify(Help.screens(marked))}\n` +
        `export const version = ${JSON.stringify(Cli.version)}`,
      loader: "ts"
    }))
  }
}

/**
 * Builds `<outdir>/feeshare.js` and its chunks from the sources (default `dist/`). The tests'
 * build adds `entries` (name to source file): executables that share the chunks of `feeshare`.
 */
export const build = async (
  outdir: string = dist,
  entries: Readonly<Record<string, string>> = {}
): Promise<void> => {
  await rm(outdir, { recursive: true, force: true })
  const result = await esbuild.build({
    entryPoints: { ...entries, feeshare: `${root}src/bin.ts` },
    // paths in the metafile (read below) are relative to the package, wherever the build runs
    absWorkingDir: root,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@feeshare/source"],
    // native: LiteSVM and libsql (dependencies), and the optional accelerators of ws and msgpackr;
    // ioredis (a dependency), loaded only with --redis-url
    // esbuild: the sandbox explorer bundles its page with it only when run from the sources
    external: ["litesvm", "@libsql/client", "ioredis", "bufferutil", "utf-8-validate", "msgpackr-extract", "esbuild"],
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "linked",
    metafile: true,
    // the `#!` line comes from src/bin.ts (esbuild keeps an entry's own, first)
    banner: {
      // bundled CommonJS (undici, ws) requires Node's built-ins
      js:
        "import { createRequire as __feeshareRequire } from \"node:module\"; const require = __feeshareRequire(import.meta.url);"
    },
    // Effect's modules instead of its barrels: what `feeshare --help` loads went from 971 to 632 kB
    plugins: [renderedHelp, Barrels.plugin(fileURLToPath(new URL("../../../", import.meta.url)))],
    logLevel: "warning"
  })

  // the sandbox explorer's page, read from `dist/explorer/` by the bundled sandbox
  await ExplorerAssets.write(`${outdir}/${ExplorerAssets.folder}`)

  // what `feeshare.js` loads at start (its static imports, transitively; the chunks of its
  // dynamic imports are entry points of their own) must not include LiteSVM (only the sandbox and
  // demo chunks may), ioredis (only the chunk loaded with --redis-url may) nor libsql (only the
  // keeper's)
  const outputs = result.metafile.outputs
  const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === "src/bin.ts")
  if (entry === undefined) throw new Error("cli build: no output for src/bin.ts")
  const loaded = new Set([entry])
  for (const file of loaded) {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind !== "import-statement") continue
      for (const lazy of ["litesvm", "ioredis", "@libsql/client"]) {
        if (imported.path === lazy) {
          throw new Error(
            `cli build: ${file} imports ${lazy} at start; it must load only with the commands that use it`
          )
        }
      }
      if (outputs[imported.path] !== undefined) loaded.add(imported.path)
    }
  }
  // nor Effect: a help screen prints before the commands load
  for (const file of loaded) {
    const effect = Object.keys(outputs[file]?.inputs ?? {}).find((input) => input.includes("node_modules/effect/"))
    if (effect !== undefined) {
      throw new Error(`cli build: ${file} loads Effect at start (${effect}); the help must print without it`)
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await build()
