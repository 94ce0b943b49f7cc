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
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000
  }
})
