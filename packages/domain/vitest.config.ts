import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "domain",
    include: ["test/**/*.test.ts"]
  }
})
