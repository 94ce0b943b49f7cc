/**
 * `feeshare keeper once --json` (the executable with the keeper's test hooks, built by the
 * global set-up) as a child process, for the crash tests.
 */
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { executables } from "../../../../scripts/test-executables.mjs"

/** What a finished or killed keeper process printed. */
export interface Exit {
  readonly code: number | null
  readonly signal: string | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `feeshare keeper once --json --config FILE` against the sandbox, with `rpcUrl` as its
 * Solana RPC. With `hook` (`after-journal:STAGE` or `after-send:STAGE`), the process is killed
 * with SIGKILL as soon as it prints the hook's line; otherwise it runs to its end.
 */
export const keeperProcess = (options: { readonly config: string; readonly rpcUrl: string; readonly hook?: string }) =>
  Effect.flatMap(SandboxInfo, (info) =>
    Effect.async<Exit>((resume) => {
      const child = spawn(
        process.execPath,
        [
          executables.feeshareWithHooks,
          "keeper",
          "once",
          "--json",
          "--config",
          options.config
        ],
        {
          env: {
            ...process.env,
            NO_COLOR: "1",
            FEESHARE_BASE_URL: info.baseUrl,
            FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
            FEESHARE_RPC_URL: options.rpcUrl,
            FEESHARE_KEEPER_HOOK: options.hook ?? ""
          },
          stdio: ["ignore", "pipe", "pipe"]
        }
      )
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
        // the hook's line: the moment is reached, kill -9
        if (options.hook !== undefined && stderr.includes("keeper-hook ")) child.kill("SIGKILL")
      })
      child.on("close", (code, signal) => resume(Effect.succeed({ code, signal, stdout, stderr })))
    }))

/** The part of `keeper once --json`'s report the crash tests read. */
export interface Report {
  readonly reconciled: { readonly landed: number; readonly rebroadcast: number; readonly dead: number }
  readonly wallets: ReadonlyArray<
    { readonly positions: ReadonlyArray<{ readonly outcome: string; readonly lamports: string | number }> }
  >
}
