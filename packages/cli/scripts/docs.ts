/**
 * Writes the CLI reference to docs/cli.md (at the workspace root).
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Docs from "../src/Docs.js"

const target = fileURLToPath(new URL("../../../docs/cli.md", import.meta.url))
writeFileSync(target, Docs.reference())
console.log(`wrote ${target}`)
