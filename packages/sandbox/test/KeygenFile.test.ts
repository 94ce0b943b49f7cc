/**
 * The demo wallet's keygen file lives as long as the sandbox process: removed when it stops,
 * however it stops (SIGHUP, which no runtime handles, included).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { executables } from "../../../scripts/test-executables.mjs"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

/** Starts the sandbox executable, answers the keygen path it printed, sends `signal`, waits for the exit. */
const runUntil = (signal: NodeJS.Signals) =>
  Effect.async<{ readonly path: string; readonly existedWhileRunning: boolean; readonly mode: number }, Error>(
    (resume) => {
      const child = spawn(
        process.execPath,
        [executables.sandbox, "--port", "0"],
        { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] }
      )
      let stdout = ""
      let stderr = ""
      let seen: { path: string; existedWhileRunning: boolean; mode: number } | undefined
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString()
        const path = /its keypair: (\S+),/.exec(stdout)?.[1]
        if (seen === undefined && path !== undefined && stdout.includes("Ctrl-C to stop.")) {
          seen = { path, existedWhileRunning: existsSync(path), mode: statSync(path).mode & 0o777 }
          child.kill(signal)
        }
      })
      child.once("close", () =>
        resume(
          seen === undefined
            ? Effect.fail(new Error(`the sandbox ended before it printed its keygen path: ${stdout}${stderr}`))
            : Effect.succeed(seen)
        ))
      return Effect.sync(() => child.kill("SIGKILL"))
    }
  )

describe("the demo keygen file", () => {
  for (const signal of ["SIGHUP", "SIGTERM", "SIGINT"] as const) {
    it.live(`is removed when the sandbox gets ${signal}`, () =>
      Effect.gen(function*() {
        const run = yield* runUntil(signal)
        assert.isTrue(run.existedWhileRunning)
        assert.strictEqual(run.mode, 0o600)
        assert.isFalse(existsSync(run.path), `${run.path} left behind after ${signal}`)
      }), 120_000)
  }
})
