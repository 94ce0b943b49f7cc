import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

/** The MCP tests start sandboxes and spawn `feeshare mcp` processes: one file at a time. */
export default defineProject({
  ...resolveSources,
  test: {
    name: "mcp",
    // builds the executables its tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    // puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced
    setupFiles: ["../../vitest.effect.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
