import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

export default defineProject({
  ...resolveSources,
  test: {
    name: "consumer",
    include: ["test/**/*.test.ts"],
    // packing builds every package, then npm installs the tarballs into fresh projects
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000
  }
})
