import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`), in two pools that run
 * side by side (vitest alone would take one worker on a 2-core machine: cores − 1):
 * - threads (domain, solana, sdk), one: files that leave no state in the modules they import
 *   share a thread that keeps those modules loaded (`isolate: false`); Effect and the sources
 *   load once instead of once per file, which was most of these projects' collect time;
 * - forks (every other project), two: each file in a fresh process. A project's
 *   `fileParallelism: false` is not honoured when several projects run together, so at most two
 *   files anywhere start servers and processes at once.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      forks: { maxForks: 2, minForks: 1 }
    }
  }
})
