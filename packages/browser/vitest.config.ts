import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "browser",
    include: ["test/**/*.test.ts"],
    // puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced
    setupFiles: ["../../vitest.effect.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads",
    // every file starts a sandbox and a browser of its own: one file at a time
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
