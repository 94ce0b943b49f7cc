/**
 * Writes docs/mcp.md (at the workspace root) from the tool and policy definitions, and
 * src/internal/pages.ts: the docs pages the server serves as resources, copied from docs/.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Docs from "../src/Docs.js"

const docs = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url))

writeFileSync(docs("mcp.md"), Docs.reference())
console.log(`wrote ${docs("mcp.md")}`)

const pages = fileURLToPath(new URL("../src/internal/pages.ts", import.meta.url))
writeFileSync(pages, Docs.pagesModule((name) => readFileSync(docs(`${name}.md`), "utf8")))
console.log(`wrote ${pages}`)
