import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`), in three pools that
 * run side by side (vitest alone would take one worker on a 2-core machine: cores − 1):
 * - threads (domain, solana, sdk), one: files that leave no state in the modules they import
 *   share a thread that keeps those modules loaded (`isolate: false`); Effect and the sources
 *   load once instead of once per file, which was most of these projects' collect time;
 * - vmForks (sandbox, client, cli), one: each file in a fresh VM context of a process that lives
 *   on, so no module state crosses files (their tests hold rate-limit windows and TestClocks in
 *   module-level layers) while a file costs a context, not a process start and a full import
 *   (collect of the three: 257 s → 84 s on the loaded machine);
 * - forks (keeper, mcp, servers, browser, consumer), two: each file in a fresh process; these
 *   start servers and spawn processes. A project's `fileParallelism: false` is not honoured when
 *   several projects run together, so at most two such files run at once.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      vmForks: { maxForks: 1, minForks: 1 },
      forks: { maxForks: 2, minForks: 1 }
    }
  }
})
