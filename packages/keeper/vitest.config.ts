import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

/** The keeper's tests start sandboxes and spawn keepers: one file at a time. */
export default defineProject({
  ...resolveSources,
  test: {
    name: "keeper",
    // builds the executables its tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    // sets the process's umask, which a worker thread cannot: a process of its own (vitest.process.config.ts)
    exclude: ["test/Files.test.ts"],
    // puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced
    setupFiles: ["../../vitest.effect.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000
  }
})
