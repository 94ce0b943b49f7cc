import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`), in three pools that
 * run side by side (vitest alone would take one worker on a 2-core machine: cores − 1):
 * - threads (domain, solana, sdk, client, cli), two: files that leave no state in the modules
 *   they import share threads that keep those modules loaded (`isolate: false`); Effect and the
 *   sources load once per thread instead of once per file, and run at native speed. Their setup
 *   file (`vitest.effect.ts`) puts back what `@effect/vitest`'s `layer` replaces on its `it`;
 * - vmForks (sandbox), one: each file in a fresh VM context of a process that lives on, so no
 *   module state crosses files (the sandbox's files do not pass sharing modules: a router
 *   declared twice, rate-limit windows), while a file costs a context, not a process start and
 *   a full import;
 * - forks (keeper, mcp, servers, browser, consumer), two: each file in a fresh process; these
 *   start servers and spawn processes. A project's `fileParallelism: false` is not honoured when
 *   several projects run together, so at most two such files run at once.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts"],
    poolOptions: {
      threads: { isolate: false, maxThreads: 2, minThreads: 1 },
      vmForks: { maxForks: 1, minForks: 1 },
      forks: { maxForks: 2, minForks: 1 }
    }
  }
})
