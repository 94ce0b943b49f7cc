// README.md: the Effect and Promise examples of the first screen run as written against a
// sandbox (only the sandbox's address, printed by `feeshare sandbox`, and its demo key differ).
import { readFile, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it, vi } from "vitest"
import { sandboxForExamples } from "./support/sandbox.js"

const here = dirname(fileURLToPath(import.meta.url))
const readme = join(here, "..", "..", "..", "README.md")
const directory = join(here, "..", `.readme-${process.pid}`)
const documentedRoot = "http://127.0.0.1:8787"

const sandbox = sandboxForExamples(directory)

describe("README.md", async () => {
  const text = await readFile(readme, "utf8")
  const examples = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? "")

  it("shows an Effect and a Promise example against the documented sandbox address", () => {
    expect(examples).toHaveLength(2)
    for (const code of examples) expect(code).toContain(documentedRoot)
  })

  it.each([
    { name: "Effect", index: 0, expected: [/^new key key_\w+ signup: true$/, /^user [\w-]+ pools 0 key <redacted>$/] },
    {
      name: "Promise",
      index: 1,
      expected: [/pong/, /^0 pools;/, /^tokenMint must be a base58 public key of 32 bytes$/]
    }
  ])("the $name example runs as written", async ({ expected, index }) => {
    const file = join(directory, `example-${index}.mjs`)
    await writeFile(file, (examples[index] ?? "").replaceAll(documentedRoot, sandbox().rootUrl))
    const lines: Array<string> = []
    const log = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
      lines.push(args.map((arg) => typeof arg === "string" ? arg : JSON.stringify(arg) ?? String(arg)).join(" "))
    })
    try {
      await import(file)
      // the Effect example runs its program without awaiting it at top level
      await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(expected.length), { timeout: 30_000 })
    } finally {
      log.mockRestore()
    }
    expected.forEach((pattern, i) => expect(lines[i]).toMatch(pattern))
  }, 60_000)
})
