// node typecheck.mjs <project> <tsconfig>...: type-checks a consumer project as `tsc --noEmit -p`
// does, once per tsconfig, with the project's files parsed once for all of them, and prints the
// diagnostics as tsc prints them (nothing when all is well; exit 1 if any).
//
// It reports what `tsc` with `skipLibCheck: false` reports for the project's own files and for
// every declaration file of the feeshare packages (`node_modules/@feeshare/**`,
// `node_modules/feeshare/**`), including the imports in them that do not resolve; it does not
// check the bodies of the third-party declarations (effect, @effect/platform, @solana/kit), which
// are not ours and cost about 15 s per project to check: the consumer test type-checks fourteen.
// Plain JavaScript: node runs it without a build.
import { createRequire } from "node:module"
import { join } from "node:path"

const [project, ...configs] = process.argv.slice(2)
if (project === undefined || configs.length === 0) {
  console.error("usage: node typecheck.mjs <project> <tsconfig>...")
  process.exit(2)
}
/** @type {typeof import("typescript")} */
const ts = createRequire(import.meta.url)("typescript")

const ours = /[\\/]node_modules[\\/](@feeshare[\\/][^\\/]+|feeshare)[\\/]/
const cache = new Map()
const format = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => project,
  getNewLine: () => "\n"
}
let failed = false
for (const config of configs) {
  const path = join(project, config)
  const read = ts.readConfigFile(path, ts.sys.readFile)
  if (read.error !== undefined) throw new Error(ts.formatDiagnostics([read.error], format))
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, project, undefined, path)
  const host = ts.createCompilerHost(parsed.options)
  const getSourceFile = host.getSourceFile
  // a declaration file parses the same under both resolutions when its module format does
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, fresh) => {
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`
    let file = cache.get(key)
    if (file === undefined || fresh === true) {
      file = getSourceFile(fileName, languageVersionOrOptions, onError, fresh)
      cache.set(key, file)
    }
    return file
  }
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    configFileParsingDiagnostics: parsed.errors
  })
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSourceFiles()
      .filter((file) => !file.isDeclarationFile || ours.test(file.fileName))
      .filter((file) => !program.isSourceFileDefaultLibrary(file))
      .flatMap((file) => program.getSemanticDiagnostics(file))
  ]
  if (diagnostics.length > 0) {
    failed = true
    process.stdout.write(`${config}:\n${ts.formatDiagnostics(diagnostics, format)}`)
  }
}
process.exit(failed ? 1 : 0)
