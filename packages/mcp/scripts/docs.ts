/**
 * Writes docs/mcp.md (at the workspace root) from the tool and policy definitions.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Docs from "../src/Docs.js"

const target = fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url))
writeFileSync(target, Docs.reference())
console.log(`wrote ${target}`)
