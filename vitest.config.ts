import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`). Two workers per pool
 * (vitest would take one on a 2-core machine: cores − 1). Projects whose files leave no state in
 * the modules they import (domain, solana, sdk) run in threads that keep those modules loaded
 * across files (`isolate: false`): Effect and the sources load once per thread instead of once per
 * file, which was most of their collect time. Every other project runs each file in a fresh fork.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    maxWorkers: 2,
    poolOptions: { threads: { isolate: false } }
  }
})
