import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    // puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced
    setupFiles: ["../../vitest.effect.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads",
    globalSetup: ["test/support/build.ts"],
    // the end-to-end tests spawn the real executable (each run is a fresh Node process)
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
