import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    // the end-to-end tests spawn the real executable (each run is a fresh Node process)
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
