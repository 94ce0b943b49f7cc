import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

/**
 * The MCP tests start sandboxes and spawn `feeshare mcp` processes; with the other projects they
 * share the root config's two threads, so at most two files run at once.
 */
export default defineProject({
  ...resolveSources,
  test: {
    name: "mcp",
    // builds the executables its tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    ...sharedThreads,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
