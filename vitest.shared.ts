/**
 * What every package's vitest project shares: workspace packages resolve to their TypeScript
 * sources (the `@feeshare/source` export condition), so the tests never need a build.
 */
import { defaultServerConditions } from "vite"

/** Export conditions of the tests: the sources first, then Node's usual ones. */
export const conditions = ["@feeshare/source", ...defaultServerConditions]

/** The `resolve` and `ssr.resolve` settings of a package's vitest project. */
export const resolveSources = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@feeshare/source"] } }
}

/**
 * The test settings of a project whose files leave no state in the modules they import: they
 * share the root config's threads, which keep modules loaded (`isolate: false`), and the setup
 * file puts back what `@effect/vitest`'s `layer` in an earlier file of the thread replaced.
 */
export const sharedThreads = {
  setupFiles: ["../../vitest.effect.ts"],
  pool: "threads" as const
}
