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
