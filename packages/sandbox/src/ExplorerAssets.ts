/**
 * The explorer's static assets: `index.html` and `app.js` (the page's TypeScript, `web/`,
 * bundled by esbuild). They are built when the package is packed (`npm run build` writes
 * `dist/explorer/`; the CLI's build writes its own copy next to its chunks) and read from there;
 * run from the sources (the workspace's tests, `npm run sandbox`) they are bundled in memory on
 * first use, never written anywhere.
 *
 * @since 0.1.0
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { paths } from "./internal/http/explorerPaths.js"

/**
 * The explorer's files: the page and its script.
 *
 * @since 0.1.0
 * @category models
 */
export interface Assets {
  readonly html: string
  readonly script: string
}

/**
 * The folder the built assets live in, next to the compiled modules.
 *
 * @since 0.1.0
 * @category constants
 */
export const folder = "explorer"

const readBuilt = async (directory: URL): Promise<Assets | undefined> => {
  try {
    const [html, script] = await Promise.all([
      readFile(new URL("index.html", directory), "utf8"),
      readFile(new URL("app.js", directory), "utf8")
    ])
    return { html, script }
  } catch {
    return undefined
  }
}

/** The page's sources: `web/` of the sandbox package (there only in the workspace). */
const webSources = new URL("../web/", import.meta.url)

/**
 * Bundles the page from its sources with esbuild (a build-time tool: only the workspace has it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const bundle = async (): Promise<Assets> => {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL("main.ts", webSources))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent"
  })
  const script = result.outputFiles[0]?.text
  if (script === undefined) throw new Error("explorer bundle: esbuild wrote nothing")
  const html = (await readFile(new URL("index.html", webSources), "utf8")).replace("%SCRIPT%", paths.script)
  return { html, script }
}

/**
 * Writes the bundled assets into `directory` (a build step: `dist/explorer`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const write = async (directory: string): Promise<void> => {
  const assets = await bundle()
  await mkdir(directory, { recursive: true })
  await writeFile(join(directory, "index.html"), assets.html)
  await writeFile(join(directory, "app.js"), assets.script)
}

/**
 * The assets: the built ones next to this module (`dist/explorer/`, or the CLI bundle's
 * `dist/explorer/` one level up from its chunks), else bundled from the sources.
 *
 * @since 0.1.0
 * @category constructors
 */
export const load = async (): Promise<Assets> =>
  (await readBuilt(new URL(`./${folder}/`, import.meta.url))) ??
    (await readBuilt(new URL(`../${folder}/`, import.meta.url))) ??
    (await bundle())
