/**
 * `redis-server` (Debian package) for the keeper's budget test: a free port on loopback, no
 * persistence, ready once it says so. (The `servers` package has its own, richer starter; test
 * projects do not import each other.)
 */
import { spawn } from "node:child_process"
import { requirePart } from "../../../../scripts/system-parts.mjs"
import { freePort } from "./postgres.js"

export const startRedis = async (): Promise<{ readonly url: string; readonly stop: () => Promise<void> }> => {
  const port = await freePort()
  const child = spawn(requirePart("redis-server"), ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  await new Promise<void>((ready, fail) => {
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("Ready to accept connections")) ready()
    })
    child.once("exit", (code) => fail(new Error(`redis-server exited (${code}): ${output}`)))
  })
  child.stdout.resume()
  return {
    url: `redis://127.0.0.1:${port}/0`,
    stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once("exit", () => done()), child.kill("SIGTERM"))))
  }
}
