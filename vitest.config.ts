import { defineConfig } from "vitest/config"

/** Every package's vitest project (each `packages/<name>/vitest.config.ts`). */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"]
  }
})
