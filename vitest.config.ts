import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`), in two pools that run
 * side by side, one worker each (two cores):
 * - threads (domain, solana, sdk): files that leave no state in the modules they import share a
 *   thread that keeps those modules loaded (`isolate: false`); Effect and the sources load once
 *   instead of once per file, which was most of these projects' collect time;
 * - forks (every other project): each file in a fresh process, one at a time, as the projects
 *   that start servers and processes need (their `fileParallelism: false` is not honoured per
 *   project when several run together; this is what keeps them to one file at a time).
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      forks: { maxForks: 1, minForks: 1 }
    }
  }
})
