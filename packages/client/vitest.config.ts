import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "client",
    include: ["test/**/*.test.ts"]
  }
})
