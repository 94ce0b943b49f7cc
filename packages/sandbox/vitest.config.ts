import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "sandbox",
    // builds the executables its process tests spawn (scripts/test-executables.mjs), once per run
    globalSetup: ["../cli/test/support/build.ts"],
    include: ["test/**/*.test.ts"]
  }
})
