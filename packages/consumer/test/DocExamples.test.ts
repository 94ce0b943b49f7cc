// The rules of the documentation's examples (support/DocExamples.ts): how a block is marked
// not runnable, what a page says to install, what an example imports, and that TypeScript is
// only stripped of its types (what Node 20 cannot parse stays unparseable). The examples
// themselves run in Consumer.test.ts, from the installed tarballs.
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { spawnSync } from "node:child_process"
import * as DocExamples from "../support/DocExamples.js"

const fence = "```"

const page = [
  "# Title",
  "Install with `npm install feeshare`; a bare `npm install effect` installs Effect 4.",
  "```sh",
  "npm install @feeshare/client effect@^3.22 @effect/platform@^0.97 # the Effect client",
  "npm install -g @feeshare/cli",
  "```",
  "## Runs",
  `${fence}ts`,
  "import { FeeShare } from \"feeshare\"",
  "import { readFile } from \"node:fs/promises\"",
  "const a: number = 1",
  fence,
  "## Parts",
  `${fence}ts fragment: a step inside an Effect.gen`,
  "const x = yield* client.identity.me()",
  fence,
  `${fence}ts needs-service:`,
  "nothing",
  fence,
  `${fence}ts title="x"`,
  "nothing",
  fence,
  `${fence}typescript`,
  "const y = 1",
  fence,
  "- a list",
  `  ${fence}js`,
  "  import { FeeShareClient } from \"@feeshare/client/FeeShareClient\"",
  `  ${fence}`,
  ""
].join("\n")

describe("DocExamples", () => {
  it("extracts js/ts blocks with their line, section and mark; other spellings are reported", () => {
    const { examples, misspelled } = DocExamples.extract("docs/page.md", page)
    expect(
      examples.map(({ code, info, line, mark, section }) => ({ line, section, info, mark, first: code.split("\n")[0] }))
    )
      .toEqual([
        { line: 8, section: "Runs", info: "", mark: null, first: "import { FeeShare } from \"feeshare\"" },
        {
          line: 14,
          section: "Parts",
          info: "fragment: a step inside an Effect.gen",
          mark: { kind: "fragment", reason: "a step inside an Effect.gen" },
          first: "const x = yield* client.identity.me()"
        },
        // a mark without a reason, or another info string, is not a mark
        { line: 17, section: "Parts", info: "needs-service:", mark: null, first: "nothing" },
        { line: 20, section: "Parts", info: "title=\"x\"", mark: null, first: "nothing" },
        {
          line: 27,
          section: "Parts",
          info: "",
          mark: null,
          first: "import { FeeShareClient } from \"@feeshare/client/FeeShareClient\""
        }
      ])
    expect(misspelled).toEqual(["docs/page.md:23 ```typescript"])
  })

  it("reads the install commands of sh blocks and inline code, without flags or comments", () => {
    expect(DocExamples.installCommands(page)).toEqual([
      ["@feeshare/client", "effect@^3.22", "@effect/platform@^0.97"],
      ["@feeshare/cli"],
      ["feeshare"],
      ["effect"]
    ])
    expect([...DocExamples.declaredPackages(page)].sort()).toEqual(
      ["@effect/platform", "@feeshare/cli", "@feeshare/client", "effect", "feeshare"]
    )
  })

  it("a project installs the commands whose package the examples import; a range wins over a bare name", () => {
    const { examples } = DocExamples.extract("docs/page.md", page)
    const runnable = examples.filter((example) => example.info === "")
    const texts = new Map([["docs/page.md", page]])
    expect(DocExamples.projectSpecs(runnable, texts)).toEqual(
      ["@effect/platform@^0.97", "@feeshare/client", "effect@^3.22", "feeshare"]
    )
    // without the example that imports the client, its command (and its peers) is not installed
    expect(DocExamples.projectSpecs(runnable.slice(0, 1), texts)).toEqual(["feeshare"])
  })

  it("an example's imports are bare package names: subpaths folded, node's modules and relative paths left out", () => {
    const code = [
      "import { FeeShare } from \"feeshare\"",
      "import { fromKeypair } from 'feeshare/web3'",
      "import type { Plan } from \"@feeshare/domain/Plan\"",
      "import \"./side-effect.js\"",
      "import { readFile } from \"fs/promises\"",
      "import { join } from \"node:path\"",
      "const kit = await import(\"@solana/kit\")"
    ].join("\n")
    expect(DocExamples.importedPackages(code)).toEqual(["@feeshare/domain", "@solana/kit", "feeshare"])
  })

  it.prop(
    "a spec's package name: the name, with or without a version range",
    [
      Schema.Literal("effect", "@effect/platform", "feeshare", "@solana/web3.js"),
      Schema.Literal("", "@^3.22", "@1.2.3", "@latest")
    ],
    ([name, range]) => {
      expect(DocExamples.nameOfSpec(`${name}${range}`)).toBe(name)
    }
  )

  it("TypeScript is stripped of its types and nothing else: `await using` stays, and Node 20 refuses it", async () => {
    const [example] = DocExamples.extract(
      "docs/page.md",
      `${fence}ts\nawait using client = { async [Symbol.asyncDispose]() {} } as AsyncDisposable\nconsole.log(1)\n${fence}\n`
    ).examples
    if (example === undefined) throw new Error("no example")
    const module = await DocExamples.toModule(example)
    expect(module).toContain("await using client")
    expect(module).not.toContain("AsyncDisposable")
    const node = spawnSync("node", ["--input-type=module", "-e", module], { encoding: "utf8" })
    if (Number(process.versions.node.split(".")[0]) < 24) {
      expect(node.status).not.toBe(0)
      expect(node.stderr).toContain("SyntaxError")
    }
  })
})
