import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "domain",
    include: ["test/**/*.test.ts"],
    // no file relies on module state left by another: threads that keep modules loaded (root config)
    pool: "threads"
  }
})
