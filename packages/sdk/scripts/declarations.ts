/**
 * The facade's declarations for a consumer that installs nothing but `feeshare`: every
 * declaration file reachable from the entries (the facade's own, the feeshare packages',
 * and the parts of Effect and Kit they reference) is copied under `dist/types/<package>/`,
 * comments stripped, with every module specifier rewritten to the relative path of the file
 * it resolved to in this workspace. The types are the real ones, so nothing is re-declared
 * by hand, and TypeScript resolves them the same way under `node16` and `bundler`.
 *
 * `undici-types` (referenced only by an optional Node-only option of Kit's HTTP transport)
 * is replaced by a stub, and the one Kit declaration typed with a V8-only API is loosened, so
 * that the declarations type-check without `@types/node` (also with `skipLibCheck: false`).
 */
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join, relative, sep } from "node:path"
import ts from "typescript"

/** Modules replaced by a stub (file name under `types/`, its text). */
const stubs: Record<string, { readonly file: string; readonly text: string }> = {
  "undici-types": {
    file: "undici-types/index.d.ts",
    text:
      "/** Stub: undici's Dispatcher, an option of Kit's HTTP transport that feeshare never sets. */\nexport type Dispatcher = object\n"
  }
}

/** Text replacements in vendored files (path suffix, text, replacement). */
const patches: ReadonlyArray<readonly [suffix: string, text: string, replacement: string]> = [
  ["@solana/errors/dist/types/stack-trace.d.ts", "Parameters<typeof Error.captureStackTrace>", "ReadonlyArray<unknown>"]
]

/** `node_modules/<pkg>/<path>` or `packages/<dir>/<path>` → `<pkg>/<path>` (relative to `types/`). */
const vendoredPath = (fileName: string, workspace: string, packageNames: ReadonlyMap<string, string>): string => {
  const inModules = fileName.lastIndexOf("/node_modules/")
  if (inModules >= 0) return fileName.slice(inModules + "/node_modules/".length)
  const inWorkspace = relative(join(workspace, "packages"), fileName).split(sep)
  const name = packageNames.get(inWorkspace[0] ?? "")
  if (name === undefined) throw new Error(`declarations: ${fileName} is outside node_modules and the workspace`)
  // the facade's own declarations are emitted into .tsc/build, the others' into dist
  const rest = inWorkspace.slice(1).join("/").replace(/^\.tsc\/build\//, "")
  return `${name}/${rest}`
}

const asSpecifier = (from: string, to: string): string => {
  const path = relative(dirname(from), to).split(sep).join("/").replace(/\.d\.ts$/, ".js")
  return path.startsWith(".") ? path : `./${path}`
}

export interface Options {
  /** The emitted declarations of the entries, e.g. `.tsc/build/index.d.ts`. */
  readonly entries: Readonly<Record<string, string>>
  /** The output folder (`dist`): writes `types/**` and one `<entry>.d.ts` per entry. */
  readonly outDir: string
  readonly workspace: string
  /** Workspace folder name → package name (`sdk` → `feeshare`). */
  readonly packageNames: ReadonlyMap<string, string>
  /** Modules left to the consumer (optional peers). */
  readonly external: ReadonlyArray<string>
}

/** Writes the declarations; returns the number of files and their total size in bytes. */
export const write = async (options: Options): Promise<{ readonly files: number; readonly bytes: number }> => {
  const compilerOptions: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    types: [],
    customConditions: []
  }
  const program = ts.createProgram(Object.values(options.entries), compilerOptions)
  const printer = ts.createPrinter({ removeComments: true })
  const typesDir = join(options.outDir, "types")
  const outputs = new Map<string, string>()

  // only the files reached from the entries without going through a stub
  const queue = Object.values(options.entries).map((entry) => program.getSourceFile(entry))
  const seen = new Set<string>()
  while (queue.length > 0) {
    const file = queue.pop()
    if (file === undefined || seen.has(file.fileName) || program.isSourceFileDefaultLibrary(file)) continue
    seen.add(file.fileName)
    const target = join(typesDir, vendoredPath(file.fileName, options.workspace, options.packageNames))
    const rewrite = (node: ts.StringLiteral): string | undefined => {
      const specifier = node.text
      if (options.external.includes(specifier)) return undefined
      const stub = stubs[specifier]
      if (stub !== undefined) return asSpecifier(target, join(typesDir, stub.file))
      const mode = ts.getModeForUsageLocation(file, node, compilerOptions)
      const resolved = ts.resolveModuleName(
        specifier,
        file.fileName,
        compilerOptions,
        ts.sys,
        undefined,
        undefined,
        mode
      )
        .resolvedModule?.resolvedFileName
      if (resolved === undefined) throw new Error(`declarations: cannot resolve "${specifier}" from ${file.fileName}`)
      queue.push(program.getSourceFile(resolved))
      return asSpecifier(target, join(typesDir, vendoredPath(resolved, options.workspace, options.packageNames)))
    }
    const literal = (node: ts.Expression | undefined): ts.StringLiteral | undefined =>
      node !== undefined && ts.isStringLiteral(node) ? node : undefined
    const transformer: ts.TransformerFactory<ts.SourceFile> = (context) => {
      const visit = (node: ts.Node): ts.Node => {
        const f = context.factory
        if (ts.isImportDeclaration(node)) {
          const from = literal(node.moduleSpecifier)
          const to = from === undefined ? undefined : rewrite(from)
          return to === undefined
            ? node
            : f.updateImportDeclaration(
              node,
              node.modifiers,
              node.importClause,
              f.createStringLiteral(to),
              node.attributes
            )
        }
        if (ts.isExportDeclaration(node)) {
          const from = literal(node.moduleSpecifier)
          const to = from === undefined ? undefined : rewrite(from)
          return to === undefined
            ? node
            : f.updateExportDeclaration(
              node,
              node.modifiers,
              node.isTypeOnly,
              node.exportClause,
              f.createStringLiteral(to),
              node.attributes
            )
        }
        if (
          ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)
        ) {
          const to = rewrite(node.argument.literal)
          const rest = ts.visitEachChild(node, visit, context)
          return to === undefined
            ? rest
            : f.updateImportTypeNode(
              rest,
              f.createLiteralTypeNode(f.createStringLiteral(to)),
              rest.attributes,
              rest.qualifier,
              rest.typeArguments,
              rest.isTypeOf
            )
        }
        if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && ts.isExternalModule(file)) {
          const to = rewrite(node.name)
          return to === undefined
            ? node
            : f.updateModuleDeclaration(node, node.modifiers, f.createStringLiteral(to), node.body)
        }
        return ts.visitEachChild(node, visit, context)
      }
      return (sourceFile) => ts.visitEachChild(sourceFile, visit, context)
    }
    const [transformed] = ts.transform(file, [transformer]).transformed
    if (transformed === undefined) continue
    let text = printer.printFile(transformed)
    for (const [suffix, from, to] of patches) {
      if (!file.fileName.endsWith(suffix)) continue
      if (!text.includes(from)) throw new Error(`declarations: patch of ${suffix} no longer applies`)
      text = text.replace(from, to)
    }
    if (/\/\/\/ <reference (types|path)=/.test(text)) {
      throw new Error(`declarations: ${file.fileName} keeps a reference directive`)
    }
    outputs.set(target, text)
  }
  for (const stub of Object.values(stubs)) outputs.set(join(typesDir, stub.file), stub.text)
  // a module declared by the feeshare package itself (sdk → types/feeshare/...) for each entry
  for (const [name, entry] of Object.entries(options.entries)) {
    const vendored = join(typesDir, vendoredPath(entry, options.workspace, options.packageNames))
    const file = join(options.outDir, `${name}.d.ts`)
    outputs.set(file, `/// <reference lib="esnext.disposable" />\nexport * from "${asSpecifier(file, vendored)}"\n`)
  }
  let bytes = 0
  for (const [path, text] of outputs) {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, text)
    bytes += Buffer.byteLength(text)
  }
  return { files: outputs.size, bytes }
}
