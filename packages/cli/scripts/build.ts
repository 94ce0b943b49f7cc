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

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = `${root}dist`

/** Builds `<outdir>/feeshare.js` and its chunks from the sources (default `dist/`). */
export const build = async (outdir: string = dist): Promise<void> => {
  await rm(outdir, { recursive: true, force: true })
  const result = await esbuild.build({
    entryPoints: { feeshare: `${root}src/bin.ts` },
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
    banner: {
      js: [
        "#!/usr/bin/env node",
        // bundled CommonJS (undici, ws) requires Node's built-ins
        "import { createRequire as __feeshareRequire } from \"node:module\"; const require = __feeshareRequire(import.meta.url);"
      ].join("\n")
    },
    logLevel: "warning"
  })

  // the sandbox explorer's page, read from `dist/explorer/` by the bundled sandbox
  await ExplorerAssets.write(`${outdir}/${ExplorerAssets.folder}`)

  // the entry chunk must not load LiteSVM (only the sandbox and demo chunks may), ioredis (only
  // the chunk loaded with --redis-url may) nor libsql (only the keeper's)
  const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint !== undefined)
  for (const lazy of ["litesvm", "ioredis", "@libsql/client"]) {
    if (entry?.[1].imports.some((imported) => imported.path === lazy && imported.kind === "import-statement")) {
      throw new Error(`cli build: the entry chunk imports ${lazy}; it must load only with the commands that use it`)
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await build()
