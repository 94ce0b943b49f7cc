/**
 * The code examples of the documentation (README.md and docs/*.md) as the consumer test runs
 * them: every fenced `js` or `ts` block is either a program that runs as written, or is marked
 * not runnable in its info string with the kind and the reason, e.g.
 * ```` ```ts fragment: the body of an Effect.gen, without its imports ````. The packages an
 * example may import are the ones its page tells the reader to install (an `npm install` line,
 * in a `sh` block or inline code); node's own modules need nothing.
 */
import { transform } from "esbuild"
import { readdir, readFile } from "node:fs/promises"
import { builtinModules } from "node:module"
import { join } from "node:path"

/** Why an example is not run: a part of a program, or a program that needs the real service (or another service). */
export const markKinds = ["fragment", "needs-service"] as const

/** The kind of a mark. */
export type MarkKind = typeof markKinds[number]

/** A fenced `js`/`ts` block of a page. */
export interface Example {
  /** The page, relative to the workspace (`docs/promise-usage.md`). */
  readonly page: string
  /** The line of the opening fence (1-based). */
  readonly line: number
  readonly language: "js" | "ts"
  /** The info string after the language, as written (`fragment: ...`), or "". */
  readonly info: string
  /** The mark, when the info string is a well-formed one (kind, then a non-empty reason). */
  readonly mark: { readonly kind: MarkKind; readonly reason: string } | null
  readonly code: string
  /** The heading of the section the block is in. */
  readonly section: string
}

/** Languages that are JavaScript or TypeScript under another name (written as `js`/`ts` here). */
const otherSpellings = new Set(["javascript", "typescript", "mjs", "cjs", "jsx", "tsx", "mts", "cts"])

/** The documentation pages: README.md and every docs/*.md, relative to `workspace`. */
export const pages = async (workspace: string): Promise<ReadonlyArray<string>> => [
  "README.md",
  ...(await readdir(join(workspace, "docs"))).filter((file) => file.endsWith(".md")).sort().map((file) =>
    `docs/${file}`
  )
]

/** The info string's mark: `<kind>: <reason>`; null when there is none or it is malformed. */
export const parseMark = (info: string): Example["mark"] => {
  const match = /^([\w-]+):\s*(\S.*)$/.exec(info.trim())
  if (match === null) return null
  const kind = markKinds.find((k) => k === match[1])
  return kind === undefined ? null : { kind, reason: (match[2] ?? "").trim() }
}

/**
 * The fenced blocks of a page whose language is JavaScript or TypeScript (spelled `js`/`ts`, or
 * another spelling, which `misspelled` returns so that a test can refuse it).
 */
export const extract = (page: string, text: string): {
  readonly examples: ReadonlyArray<Example>
  readonly misspelled: ReadonlyArray<string>
} => {
  const examples: Array<Example> = []
  const misspelled: Array<string> = []
  const lines = text.split("\n")
  let section = ""
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ""
    const heading = /^#{1,6} (.+)$/.exec(line)
    if (heading !== null) section = heading[1] ?? ""
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(line)
    if (fence === null) continue
    const [, indent = "", marker = "", language = "", info = ""] = fence
    const body: Array<string> = []
    let end = index + 1
    for (; end < lines.length; end++) {
      const closing = lines[end] ?? ""
      if (closing.trim().startsWith(marker) && closing.trim().replace(/[`~]/g, "") === "") break
      body.push(closing.startsWith(indent) ? closing.slice(indent.length) : closing)
    }
    if (language === "js" || language === "ts") {
      examples.push({
        page,
        line: index + 1,
        language,
        info: info.trim(),
        mark: parseMark(info),
        code: `${body.join("\n")}\n`,
        section
      })
    } else if (otherSpellings.has(language.toLowerCase())) {
      misspelled.push(`${page}:${index + 1} \`\`\`${language}`)
    }
    index = end
  }
  return { examples, misspelled }
}

/** Every example of the documentation, with the pages' text (for the install lines). */
export const readAll = async (workspace: string): Promise<{
  readonly examples: ReadonlyArray<Example>
  readonly misspelled: ReadonlyArray<string>
  readonly texts: ReadonlyMap<string, string>
}> => {
  const texts = new Map<string, string>()
  const examples: Array<Example> = []
  const misspelled: Array<string> = []
  for (const page of await pages(workspace)) {
    const text = await readFile(join(workspace, page), "utf8")
    texts.set(page, text)
    const found = extract(page, text)
    examples.push(...found.examples)
    misspelled.push(...found.misspelled)
  }
  return { examples, misspelled, texts }
}

/** A package's name from an install spec (`effect@^3.22` → `effect`, `@a/b@1` → `@a/b`). */
export const nameOfSpec = (spec: string): string => {
  const at = spec.indexOf("@", 1)
  return at === -1 ? spec : spec.slice(0, at)
}

/**
 * What a page tells the reader to install: each `npm install` command of its `sh` blocks and
 * inline code, as the words after `npm install` (flags such as `-g` left out), as written
 * (`effect@^3.22`).
 */
export const installCommands = (text: string): ReadonlyArray<ReadonlyArray<string>> => {
  const lines = [
    ...[...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => (block[1] ?? "").split("\n")),
    ...[...text.matchAll(/`(npm install [^`]+)`/g)].map((match) => match[1] ?? "")
  ]
  return lines.map((line) => line.trim()).filter((line) => line.startsWith("npm install ")).map((line) =>
    (line.slice("npm install ".length).split("#")[0]?.trim().split(/\s+/) ?? []).filter((word) =>
      word.length > 0 && !word.startsWith("-")
    )
  )
}

/**
 * What a project running `examples` installs: every install command of their pages whose
 * package (its first word; the others are its peers) one of them imports, merged by package (a spec with a version range wins over a bare
 * name: a page that warns "a bare `npm install effect` installs Effect 4" names both).
 */
export const projectSpecs = (
  examples: ReadonlyArray<Example>,
  texts: ReadonlyMap<string, string>
): ReadonlyArray<string> => {
  const chosen = new Map<string, string>()
  for (const page of new Set(examples.map((example) => example.page))) {
    const imported = new Set(
      examples.filter((example) => example.page === page).flatMap((example) => importedPackages(example.code))
    )
    for (const command of installCommands(texts.get(page) ?? "")) {
      const [first] = command
      if (first === undefined || !imported.has(nameOfSpec(first))) continue
      for (const spec of command) {
        const name = nameOfSpec(spec)
        const known = chosen.get(name)
        if (known === undefined || (known === name && spec !== name)) chosen.set(name, spec)
      }
    }
  }
  return [...chosen.values()].sort()
}

/** The packages `page`'s install commands name. */
export const declaredPackages = (text: string): ReadonlySet<string> =>
  new Set(installCommands(text).flat().map(nameOfSpec))

const builtins = new Set(builtinModules)

/** The packages a module imports (bare specifiers; node's own modules and relative paths left out). */
export const importedPackages = (code: string): ReadonlyArray<string> => {
  const specifiers = [
    ...code.matchAll(/\bfrom\s+["']([^"']+)["']/g),
    ...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)
  ].map((match) => match[1] ?? "")
  const packages = new Set<string>()
  for (const specifier of specifiers) {
    if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) continue
    const parts = specifier.split("/")
    const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0] ?? ""
    if (!builtins.has(name)) packages.add(name)
  }
  return [...packages].sort()
}

/**
 * The example as a module plain `node` runs: JavaScript as written; TypeScript with its types
 * stripped and nothing else changed (target `esnext`: no syntax is lowered, so what Node 20
 * cannot parse, such as `await using`, fails as it would for a reader).
 */
export const toModule = async (example: Example): Promise<string> =>
  example.language === "js"
    ? example.code
    : (await transform(example.code, { loader: "ts", format: "esm", target: "esnext" })).code
