/**
 * Global set-up of the projects whose tests spawn `feeshare` and the other executables of
 * `scripts/test-executables.mjs`: builds them from the sources, as `npm pack` would, unless the last build
 * was made from the same sources (vitest runs every project's global set-up, one after
 * another, before any test starts: the first builds, the rest find it fresh).
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { outdir, testEntries } from "../../../../scripts/test-executables.mjs"
import { build } from "../../scripts/build.js"

const packages = fileURLToPath(new URL("../../..", import.meta.url))
const stamp = join(outdir, ".sources")

/** Every file the build reads from the workspace: each package's sources, manifest and build script, the barrel rewrite. */
const sourceFiles = (): ReadonlyArray<string> =>
  readdirSync(packages).flatMap((name) => {
    const dir = join(packages, name)
    const walk = (relative: string): ReadonlyArray<string> => {
      const path = join(dir, relative)
      let entries: ReadonlyArray<string>
      try {
        entries = readdirSync(path, { recursive: true, encoding: "utf8" })
      } catch {
        return []
      }
      return entries.map((entry) => join(path, entry))
    }
    return [join(dir, "package.json"), ...walk("src"), ...walk("support"), ...walk("scripts"), ...walk("test/support")]
  }).concat(join(packages, "..", "scripts", "barrels.mjs"))

/** What the sources look like now: paths, sizes and modification times, hashed. */
const fingerprint = (): string => {
  const hash = createHash("sha256")
  for (const file of [...sourceFiles()].sort()) {
    try {
      const stat = statSync(file)
      if (stat.isFile()) hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`)
    } catch {
      // gone between the listing and the stat: the next run sees it
    }
  }
  return hash.digest("hex")
}

const builtFrom = (): string | undefined => {
  try {
    return readFileSync(stamp, "utf8")
  } catch {
    return undefined
  }
}

export default async () => {
  const sources = fingerprint()
  if (builtFrom() === sources) return
  await build(outdir, testEntries)
  writeFileSync(stamp, sources)
}
