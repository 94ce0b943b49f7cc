import { defineProject } from "vitest/config"
import { resolveSources, sharedThreads } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "servers",
    // builds the executables its tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    ...sharedThreads,
    // every file starts servers and processes of its own: one file at a time, so that they do
    // not starve each other of the machine's cores
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000
  }
})
