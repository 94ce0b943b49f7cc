// docs/promise-usage.md: every `ts` block is a complete program that runs as written against
// a sandbox with the defaults of `npm run sandbox` (only the port and the key come from the
// environment, as the page says).
import { readFile, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it, vi } from "vitest"
import { sandboxForExamples } from "./support/sandbox.js"

const here = dirname(fileURLToPath(import.meta.url))
const page = join(here, "..", "..", "..", "docs", "promise-usage.md")
// inside the package (not under src/ or test/), so that `feeshare` resolves as for a user
const directory = join(here, "..", `.docs-${process.pid}`)

/** Each `ts` block with the heading of its section. */
const blocks = async (): Promise<ReadonlyArray<{ readonly section: string; readonly code: string }>> => {
  const text = await readFile(page, "utf8")
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => {
    const headings = [...text.slice(0, match.index).matchAll(/^## (.+)$/gm)]
    return { section: headings[headings.length - 1]?.[1] ?? "", code: match[1] ?? "" }
  })
}

sandboxForExamples(directory, { seed: "demo" })

describe("docs/promise-usage.md", async () => {
  const examples = await blocks()

  it("has examples", () => {
    expect(examples.length).toBeGreaterThanOrEqual(6)
  })

  it.each(examples.map((example, index) => ({ ...example, index })))(
    "the example of $section runs as written",
    async ({ code, index }) => {
      const file = join(directory, `example-${index}.ts`)
      await writeFile(file, code)
      const log = vi.spyOn(console, "log").mockImplementation(() => {})
      try {
        await import(file)
        expect(log).toHaveBeenCalled()
      } finally {
        log.mockRestore()
      }
    },
    60_000
  )
})
