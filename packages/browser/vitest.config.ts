import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "browser",
    include: ["test/**/*.test.ts"],
    ...sharedThreads,
    // every file starts a sandbox and a browser of its own: one file at a time
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
