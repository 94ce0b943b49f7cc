import { defineConfig } from "vitest/config"

/**
 * Every package's vitest project (each `packages/<name>/vitest.config.ts`), in three pools that
 * run side by side (vitest alone would take one worker on a 2-core machine: cores − 1):
 * - threads (domain, solana, sdk, client, cli, keeper, mcp, servers, browser), two: files that
 *   leave no state in the modules they import share threads that keep those modules loaded
 *   (`isolate: false`; vitest gives each project fresh threads, and starts a project's files
 *   once the project before it has ended). Effect and the sources load once per thread and
 *   project instead of once per file (a fresh process imported them in about 4 s of CPU per
 *   file). The projects stay apart: one project of all these files, which loads the modules
 *   once per thread, ran the whole suite slower in two clean runs (890 and 908 s against 777 s;
 *   the heaviest files of several packages then ran at once). Their setup file (`vitest.effect.ts`) puts back what
 *   `@effect/vitest`'s `layer` replaces on its `it`. Tests that start servers and spawn
 *   processes run here too: the processes they start are their own;
 * - vmForks (sandbox), one: each file in a fresh VM context of a process that lives on, so no
 *   module state crosses files (the sandbox's files do not pass sharing modules: a router
 *   declared twice, rate-limit windows), while a file costs a context, not a process start and
 *   a full import;
 * - forks (consumer, keeper-process), two: the consumer test (the longest file: it packs,
 *   installs and type-checks the tarballs), which starts at once beside the others, and the
 *   files that need a process of their own (a worker thread cannot set the umask).
 * A project's `fileParallelism: false` is not honoured when several projects run together: at
 * most two files of a pool run at once.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "packages/keeper/vitest.process.config.ts"],
    poolOptions: {
      threads: { isolate: false, maxThreads: 2, minThreads: 1 },
      vmForks: { maxForks: 1, minForks: 1 },
      forks: { maxForks: 2, minForks: 1 }
    }
  }
})
