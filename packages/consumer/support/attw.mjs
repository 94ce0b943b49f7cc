// node attw.mjs --serve: `attw <tarball> --profile esm-only --format ascii --no-color --no-emoji
// [--include-entrypoints <subpath>...]` for many tarballs in one process, one request per line on
// stdin (`{"id":1,"tarball":"/abs/x.tgz","includeEntrypoints":["./Foo"]}`), one answer per line
// on stdout (`{"id":1,"code":0,"stdout":"<attw's table>","stderr":""}`), in order; it ends when
// stdin closes.
//
// What each answer holds is what the attw command prints and exits with: the same check
// (`@arethetypeswrong/core`'s `checkPackage` on the tarball's bytes), the same profile
// (`esm-only` from the command's own profiles), the same exit code and rendering (the command's
// `getExitCode` and `render.typed`). Only TypeScript and attw are loaded once (about 1.8 s of CPU
// per process) instead of once per tarball. Plain JavaScript: node runs it without a build.
import { getExitCode } from "@arethetypeswrong/cli/internal/getExitCode"
import * as render from "@arethetypeswrong/cli/internal/render"
import * as core from "@arethetypeswrong/core"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { serveLines } from "./serveLines.mjs"

process.env.FORCE_COLOR = "0"
// the command's profiles are not in the package's exports: read from the file the command reads
const cliFolder = dirname(createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json"))
/** @type {{ readonly profiles: Readonly<Record<string, { readonly ignoreResolutions: ReadonlyArray<string> }>> }} */
const { profiles } = await import(pathToFileURL(join(cliFolder, "dist", "profiles.js")).href)
const profile = "esm-only"
const options = {
  format: "ascii",
  color: false,
  emoji: false,
  summary: true,
  ignoreRules: [],
  ignoreResolutions: [...profiles[profile].ignoreResolutions]
}

/**
 * @param {string} tarball
 * @param {ReadonlyArray<string>} includeEntrypoints
 */
const check = async (tarball, includeEntrypoints) => {
  const pkg = core.createPackageFromTarballData(new Uint8Array(await readFile(tarball)))
  const analysis = await core.checkPackage(pkg, {
    ...(includeEntrypoints.length > 0 ? { includeEntrypoints: [...includeEntrypoints] } : {})
  })
  if (!analysis.types) return { code: 0, stdout: `\n${render.untyped(analysis)}\n` }
  return { code: getExitCode(analysis, options), stdout: `\n${await render.typed(analysis, options)}\n` }
}

if (process.argv.length !== 3 || process.argv[2] !== "--serve") {
  console.error("usage: node attw.mjs --serve")
  process.exit(2)
}
// as the command: exit code 3 for an error while checking
await serveLines(async (request) => {
  const entrypoints = request.includeEntrypoints ?? []
  if (
    typeof request.tarball !== "string" || !Array.isArray(entrypoints) ||
    !entrypoints.every((entry) => typeof entry === "string")
  ) {
    throw new Error("a request is {\"id\", \"tarball\": string, \"includeEntrypoints\"?: [string, ...]}")
  }
  return check(request.tarball, entrypoints)
}, { errorCode: 3 })
