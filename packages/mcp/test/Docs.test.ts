import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Docs from "../src/Docs.js"
import { pages } from "../src/internal/pages.js"
import { toolkit } from "../src/Tools.js"

const committed = fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url))

describe("docs/mcp.md", () => {
  it("is generated from the tool and policy definitions (run `npm run docs -w @feeshare/mcp`)", () => {
    assert.strictEqual(readFileSync(committed, "utf8"), Docs.reference())
  })

  it("the docs pages the server serves are docs/*.md as committed (run `npm run docs -w @feeshare/mcp`)", () => {
    for (const name of Docs.pageNames) {
      assert.strictEqual(
        pages[name],
        readFileSync(fileURLToPath(new URL(`../../../docs/${name}.md`, import.meta.url)), "utf8")
      )
    }
  })

  it("every tool has a description (the reads: their operation's summary in the contract)", () => {
    for (const tool of Object.values(toolkit.tools)) assert.isAbove((tool.description ?? "").length, 10, tool.name)
  })

  it("lists every tool and every policy field", () => {
    const text = Docs.reference()
    for (const name of Object.keys(toolkit.tools)) assert.include(text, `| \`${name}\` |`)
    for (
      const field of [
        "readOnly",
        "wallets",
        "allowedMints",
        "maxSwapLamports",
        "maxSwapLamportsPerDay",
        "maxNetworkFeesPerDayLamports"
      ]
    ) {
      assert.include(text, `| \`${field}\` |`)
    }
  })
})
