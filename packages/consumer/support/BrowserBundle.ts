/**
 * A browser page's bundle of the installed facade: `fixtures/browser/app.mjs` bundled from
 * inside a consumer project (so that `feeshare` resolves to the installed tarball) by esbuild
 * with `--platform=browser`, minified.
 */
import * as esbuild from "esbuild"
import { copyFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

export interface BrowserBundle {
  /** The files that went in, relative to the project. */
  readonly inputs: ReadonlyArray<string>
  readonly bytes: number
  readonly gzipped: number
}

export const build = async (project: string): Promise<BrowserBundle> => {
  await copyFile(fileURLToPath(new URL("../fixtures/browser/app.mjs", import.meta.url)), join(project, "browser.mjs"))
  const result = await esbuild.build({
    entryPoints: [join(project, "browser.mjs")],
    absWorkingDir: project,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { inputs: Object.keys(result.metafile.inputs), bytes: output.length, gzipped: gzipSync(output).length }
}
