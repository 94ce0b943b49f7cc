/** Where the tests' build goes (`packages/cli/.build/test/`). */
export declare const outdir: string
/** The test-only entry points bundled beside `feeshare` (name to source file). */
export declare const testEntries: Readonly<Record<"feeshare-with-hooks" | "feeshare-sandbox" | "fleet-worker", string>>
/** The built executables, run with `node <path> ...args`. */
export declare const executables: {
  /** `feeshare`, as `npm pack` ships it. */
  readonly feeshare: string
  /** `feeshare` with the keeper's test hooks (`FEESHARE_KEEPER_HOOK`). */
  readonly feeshareWithHooks: string
  /** The sandbox's own bin (`feeshare-sandbox`). */
  readonly sandbox: string
  /** The servers tests' fleet worker. */
  readonly fleetWorker: string
}
