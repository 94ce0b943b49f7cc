/** The checks `npm test` runs beside vitest (npm scripts of the root package.json). */
export declare const checks: ReadonlyArray<string>
/** The nice value the checks run at beside vitest. */
export declare const checksPriority: number
/**
 * Runs the npm scripts `checkScripts` and the program `command` at the same time; the checks'
 * blocks are written after the command ends. Resolves with 0 when both passed, 1 otherwise.
 */
export declare const runBeside: (options: {
  readonly checkScripts: ReadonlyArray<string>
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly priority?: number
  readonly cwd?: string
  readonly write?: (text: string) => void
}) => Promise<number>
