import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "domain",
    include: ["test/**/*.test.ts"],
    // a hang guard, not a timing assertion: tests that start a real sandbox or run many property cases
    // take longer than the 5 s default on a loaded 2-core machine
    testTimeout: 30_000,
    hookTimeout: 60_000,
    ...sharedThreads
  }
})
