import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "sandbox",
    // builds the executables its process tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"],
    // each file in a fresh VM context of a reused process (root config): no state crosses files,
    // and a file costs a context instead of a process start and a full import
    pool: "vmForks",
    // a hang guard, not a timing assertion: the set-up floods (200 airdrops, 200 tokens) take about
    // 20 s in a VM context on the loaded 2-core CI machine (8 s natively)
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
