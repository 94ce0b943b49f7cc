import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
    // each file in a fresh VM context of a reused process (root config): no state crosses files,
    // and a file costs a context instead of a process start and a full import
    pool: "vmForks",
    // a hang guard, not a timing assertion: tests that start a real sandbox or run many property cases
    // take longer than the 5 s default on a loaded 2-core machine
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
