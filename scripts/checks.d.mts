/**
 * Runs `npm run <script>` for each script at once (in `cwd`, at the nice value `priority`), giving
 * `print` each one's block (outcome, time, output) when it ends; resolves with the failed ones.
 */
export declare const runChecks: (
  scripts: ReadonlyArray<string>,
  options?: {
    readonly priority?: number
    readonly print?: (block: string) => void
    readonly cwd?: string
  }
) => Promise<ReadonlyArray<string>>
