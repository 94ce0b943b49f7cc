import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    // each file in a fresh VM context of a reused process (root config): no state crosses files,
    // and a file costs a context instead of a process start and a full import
    pool: "vmForks",
    globalSetup: ["test/support/build.ts"],
    // the end-to-end tests spawn the real executable (each run is a fresh Node process)
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
