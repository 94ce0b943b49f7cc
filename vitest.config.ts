import { defineConfig, type UserWorkspaceConfig } from "vitest/config"
import cli from "./packages/cli/vitest.config.js"
import client from "./packages/client/vitest.config.js"
import domain from "./packages/domain/vitest.config.js"
import keeper from "./packages/keeper/vitest.config.js"
import mcp from "./packages/mcp/vitest.config.js"
import sdk from "./packages/sdk/vitest.config.js"
import solana from "./packages/solana/vitest.config.js"
import { resolveSources } from "./vitest.shared.js"

/**
 * The packages whose test files leave no state in the modules they import: one project of
 * their files (each package's `vitest.config.ts` still runs its own, from its folder), in two
 * threads that keep modules loaded (`isolate: false`). vitest gives each project fresh threads
 * and starts a project's files only when the project before has ended, so as one project
 * Effect and the sources load once per thread, not once per package, and no thread waits for
 * the other to finish a package's last file.
 */
const sharing: Readonly<Record<string, UserWorkspaceConfig>> = { domain, solana, sdk, client, cli, keeper, mcp }

/** A package's test option, or nothing. */
const option = <K extends keyof NonNullable<UserWorkspaceConfig["test"]>>(config: UserWorkspaceConfig, key: K) =>
  config.test?.[key]

/** The paths a package's config lists (relative to its folder), relative to the workspace. */
const paths = (key: "include" | "exclude" | "setupFiles" | "globalSetup") => [
  ...new Set(
    Object.entries(sharing).flatMap(([name, config]) => {
      const listed = option(config, key) ?? []
      return (typeof listed === "string" ? [listed] : listed).map((path) =>
        new URL(path, `file:///packages/${name}/`).pathname.slice(1)
      )
    })
  )
]

/** The longest of the packages' time limits: each is a hang guard, not a timing assertion. */
const longest = (key: "testTimeout" | "hookTimeout") =>
  Math.max(...Object.values(sharing).map((config) => option(config, key) ?? 5_000))

/**
 * The workspace's tests in three pools that run side by side (vitest alone would take one
 * worker on a 2-core machine: cores − 1):
 * - threads, two: the project `threads` above (its setup file, `vitest.effect.ts`, puts back
 *   what `@effect/vitest`'s `layer` replaces on its `it`);
 * - vmForks (sandbox), one: each file in a fresh VM context of a process that lives on, so no
 *   module state crosses files (the sandbox's files do not pass sharing modules: a router
 *   declared twice, rate-limit windows), while a file costs a context, not a process start and
 *   a full import;
 * - forks, two, each file in a fresh process: the consumer test (the longest file: it packs,
 *   installs and type-checks the tarballs), which starts first; beside it, one at a time, the
 *   other files of its pool: `servers` and `browser`, which start real servers (Redis,
 *   PostgreSQL, Chromium, tmux), and the keeper's files that set the umask (a worker thread
 *   cannot). A project's `fileParallelism: false` is not honoured when several projects run
 *   together: once the consumer test ends, two of those files may run at once.
 */
export default defineConfig({
  test: {
    projects: [
      {
        ...resolveSources,
        test: {
          name: "threads",
          pool: "threads",
          include: paths("include"),
          exclude: paths("exclude"),
          setupFiles: paths("setupFiles"),
          globalSetup: paths("globalSetup"),
          testTimeout: longest("testTimeout"),
          hookTimeout: longest("hookTimeout")
        }
      },
      "packages/sandbox/vitest.config.ts",
      "packages/servers/vitest.config.ts",
      "packages/browser/vitest.config.ts",
      "packages/consumer/vitest.config.ts",
      "packages/keeper/vitest.process.config.ts"
    ],
    poolOptions: {
      threads: { isolate: false, maxThreads: 2, minThreads: 1 },
      vmForks: { maxForks: 1, minForks: 1 },
      forks: { maxForks: 2, minForks: 1 }
    }
  }
})
