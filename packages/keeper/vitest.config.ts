import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

/**
 * The keeper's tests start sandboxes and spawn keepers; with the other projects they share the
 * root config's two threads, so at most two files run at once.
 */
export default defineProject({
  ...resolveSources,
  test: {
    name: "keeper",
    // builds the executables its tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    // sets the process's umask, which a worker thread cannot: a process of its own (vitest.process.config.ts)
    exclude: ["test/Files.test.ts"],
    ...sharedThreads,
    testTimeout: 180_000,
    hookTimeout: 180_000
  }
})
