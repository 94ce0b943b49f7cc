import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "solana",
    include: ["test/**/*.test.ts"],
    // a hang guard, not a timing assertion: tests that start a real sandbox or run many property cases
    // take longer than the 5 s default on a loaded 2-core machine
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced
    setupFiles: ["../../vitest.effect.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads"
  }
})
