import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Docs from "../src/Docs.js"
import * as ExitCode from "../src/ExitCode.js"
import * as Sandbox from "../src/internal/sandbox.js"

const committed = fileURLToPath(new URL("../../../docs/cli.md", import.meta.url))

describe("docs/cli.md", () => {
  it("is the reference generated from the command definitions (run `npm run docs -w @feeshare/cli`)", () => {
    assert.strictEqual(readFileSync(committed, "utf8"), Docs.reference())
  })

  it("documents every command and every exit code", () => {
    const text = Docs.reference()
    for (
      const command of [
        "auth login",
        "auth me",
        "limits",
        "claims positions",
        "claims vaults",
        "claims plan",
        "claims claim",
        "fee-share update",
        "fee-share admins",
        "partner claim",
        "launch",
        "trade quote",
        "trade swap",
        "analytics lifetime-fees",
        "analytics claim-stats",
        "pools",
        "evm index-status",
        "evm positions",
        "evm creation-fee",
        "mcp",
        "sandbox",
        "demo"
      ]
    ) assert.include(text, `## \`feeshare ${command}\``)
    for (const c of ExitCode.classes) assert.include(text, `| ${c.code} | ${c.name} |`)
  })

  it("feeshare sandbox's flags: the sandbox's own usage, for this command and its default port (no patched text)", () => {
    assert.isTrue(Sandbox.usage.startsWith("Usage: feeshare sandbox [flags]"))
    assert.match(Sandbox.usage, /--port N .*\(default 8787\)/)
    assert.notInclude(Sandbox.usage, "npm run sandbox")
    assert.include(Docs.reference(), Sandbox.usage.trimEnd())
  })
})
