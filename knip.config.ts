/**
 * The declared-dependency check (`npm run deps`, part of `npm test`): every import resolves to a
 * declared dependency or peer, and nothing is declared that is not used. It runs twice: over
 * the whole workspace (sources, tests, benches, scripts), and in production mode, strictly, over
 * the packages whose tarballs import their dependencies at run time (everything published but
 * the two bundles, `feeshare` and `@feeshare/cli`, whose imports esbuild bundles), so that a
 * published module importing what is only a devDependency fails.
 */
import type { KnipConfig } from "knip"

const config: KnipConfig = {
  // what builds write (the packages' exports name dist/ for plain node); the check reads sources
  ignore: ["**/dist/**", "**/.build/**", "**/.tsc/**"],
  include: ["dependencies", "devDependencies", "optionalPeerDependencies", "unlisted", "unresolved", "binaries"],
  // system tools the tests and scripts run (scripts/system-parts.mjs, the PostgreSQL starter)
  ignoreBinaries: ["apt-get", "getent", "runuser"],
  workspaces: {
    "packages/cli": {
      // externals of the bundled executable: imported by the workspace packages it bundles
      ignoreDependencies: ["@libsql/client", "ioredis", "litesvm"]
    },
    "packages/consumer": {
      // programs the consumer test runs on the packed tarballs (node <their bin>), not imports
      ignoreDependencies: ["@arethetypeswrong/cli", "publint"]
    },
    "packages/client": {
      // an optional peer: only @feeshare/client/RedisBudget imports it
      ignoreDependencies: ["ioredis"]
    },
    "packages/solana": {
      // an optional peer: only @feeshare/solana/web3 imports it
      ignoreDependencies: ["@solana/web3.js"]
    },
    "packages/sandbox": {
      // ExplorerAssets.bundle builds the page in the workspace only (the tarball ships it built)
      ignoreDependencies: ["esbuild"]
    }
  }
}

export default config
