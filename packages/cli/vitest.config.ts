import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    ...sharedThreads,
    globalSetup: ["test/support/build.ts"],
    // the end-to-end tests spawn the real executable (each run is a fresh Node process)
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
