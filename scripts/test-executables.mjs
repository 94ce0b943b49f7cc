/**
 * The executables the tests spawn, built from the sources once per test run by the global set-up
 * of every project that spawns them (`packages/cli/test/support/build.ts`) into
 * `packages/cli/.build/test/` (not `dist/`, which the consumer test rebuilds while these run).
 * They are what `npm pack` ships plus the test-only entry points, bundled as users run them: a
 * spawn costs a Node start, not a TypeScript transform of every source it imports.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../packages/", import.meta.url))

/** Where the tests' build goes. */
export const outdir = join(packages, "cli", ".build", "test")

/** The test-only entry points bundled beside `feeshare` (name to source file). */
export const testEntries = {
  // `feeshare` with the keeper's test hooks (`FEESHARE_KEEPER_HOOK`)
  "feeshare-with-hooks": join(packages, "cli", "test", "support", "keeperWithHooks.ts"),
  // the sandbox's own bin (`feeshare-sandbox`)
  "feeshare-sandbox": join(packages, "sandbox", "src", "bin.ts"),
  // the servers tests' fleet worker: a client process of a shared Redis budget
  "fleet-worker": join(packages, "servers", "support", "fleetWorker.ts")
}

/** The built executables, run with `node <path> ...args`. */
export const executables = {
  feeshare: join(outdir, "feeshare.js"),
  feeshareWithHooks: join(outdir, "feeshare-with-hooks.js"),
  sandbox: join(outdir, "feeshare-sandbox.js"),
  fleetWorker: join(outdir, "fleet-worker.js")
}
