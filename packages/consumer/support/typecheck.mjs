// node typecheck.mjs <project> <tsconfig>...: type-checks a consumer project as `tsc --noEmit -p`
// does, once per tsconfig, and prints the diagnostics as tsc prints them (nothing when all is
// well; exit 1 if any).
// node typecheck.mjs --serve: the same for many projects in one process, one request per line on
// stdin (`{"id":1,"project":"/abs/dir","configs":["tsconfig.a.json"]}`), one answer per line on
// stdout (`{"id":1,"code":0,"stdout":"","stderr":""}`), in order; it ends when stdin closes.
//
// With `skipLibCheck: true` it reports what `tsc` reports. With `skipLibCheck: false`, what `tsc`
// reports for the project's own files and for every declaration file of the feeshare packages
// (`node_modules/@feeshare/**`, `node_modules/feeshare/**`), including the imports in them that do
// not resolve; it does not check the bodies of the third-party declarations (effect,
// @effect/platform, @solana/kit), which are not ours and cost about 15 s per project to check: the
// consumer test type-checks fourteen.
//
// Files are parsed (and bound) once per process: a file is reused for another tsconfig or
// another project when it is the same file there (the same path relative to the project, the
// same text, the same parse options), as TypeScript's language service shares a file between
// the projects that include it. Effect's and TypeScript's own declarations are parsed once for
// every project instead of once per project. Plain JavaScript: node runs it without a build.
import { createRequire } from "node:module"
import { join, relative } from "node:path"
import { serveLines } from "./serveLines.mjs"

/** @type {typeof import("typescript")} */
const ts = createRequire(import.meta.url)("typescript")

const ours = /[\\/]node_modules[\\/](@feeshare[\\/][^\\/]+|feeshare)[\\/]/
/**
 * (path relative to the project, or absolute outside it; parse options) → the text parsed and its SourceFile. A program
 * sets a file's name and path to its own when it takes the file, so a file is only ever in the
 * program being checked (the checks run one after another); within one program the relative
 * paths are distinct, so no file stands for two.
 * @type {Map<string, { readonly text: string, readonly file: import("typescript").SourceFile }>}
 */
const cache = new Map()

/**
 * @param {string} project
 * @param {ReadonlyArray<string>} configs
 * @returns {{ readonly code: number, readonly stdout: string }}
 */
const check = (project, configs) => {
  const format = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => project,
    getNewLine: () => "\n"
  }
  let stdout = ""
  for (const config of configs) {
    const path = join(project, config)
    const read = ts.readConfigFile(path, ts.sys.readFile)
    if (read.error !== undefined) throw new Error(ts.formatDiagnostics([read.error], format))
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, project, undefined, path)
    const host = ts.createCompilerHost(parsed.options)
    const getSourceFile = host.getSourceFile
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, fresh) => {
      const text = host.readFile(fileName)
      if (text === undefined || fresh === true) return getSourceFile(fileName, languageVersionOrOptions, onError, fresh)
      // inside the project by its path there; outside (TypeScript's own lib files) by its path
      const inside = relative(project, fileName)
      const key = `${inside.startsWith("..") ? fileName : inside}\0${JSON.stringify(languageVersionOrOptions)}`
      const known = cache.get(key)
      if (known !== undefined && known.text === text) return known.file
      const file = ts.createSourceFile(fileName, text, languageVersionOrOptions)
      cache.set(key, { text, file })
      return file
    }
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      host,
      configFileParsingDiagnostics: parsed.errors
    })
    const everything = parsed.options.skipLibCheck === true
    const diagnostics = [
      ...parsed.errors,
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      // with skipLibCheck every file, as tsc: TypeScript itself skips the declaration files' bodies
      // then, and reports what else it found in them (a reference it could not resolve)
      ...program.getSourceFiles()
        .filter((file) => everything || !file.isDeclarationFile || ours.test(file.fileName))
        .filter((file) => everything || !program.isSourceFileDefaultLibrary(file))
        .flatMap((file) => program.getSemanticDiagnostics(file))
    ]
    if (diagnostics.length > 0) stdout += `${config}:\n${ts.formatDiagnostics(diagnostics, format)}`
  }
  return { code: stdout === "" ? 0 : 1, stdout }
}

const [first, ...rest] = process.argv.slice(2)
if (first === "--serve" && rest.length === 0) {
  await serveLines((request) => {
    if (typeof request.project !== "string" || !Array.isArray(request.configs) || request.configs.length === 0) {
      throw new Error("a request is {\"id\", \"project\": string, \"configs\": [string, ...]}")
    }
    return check(request.project, request.configs)
  }, { errorCode: 2 })
} else if (first === undefined || first.startsWith("--") || rest.length === 0) {
  console.error("usage: node typecheck.mjs <project> <tsconfig>...   or   node typecheck.mjs --serve")
  process.exit(2)
} else {
  const { code, stdout } = check(first, rest)
  process.stdout.write(stdout)
  process.exit(code)
}
