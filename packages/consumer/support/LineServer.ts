/**
 * A helper process that serves many requests, one JSON line in and one JSON line out each
 * (`typecheck.mjs --serve`, `attw.mjs --serve`): what it loads and parses once (TypeScript,
 * Effect's declarations) serves every project of a run instead of being loaded again by a
 * process per project. It answers one request at a time, in order.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { Outcome } from "./Tarballs.js"

export interface LineServer {
  /**
   * Sends `request` (with an `id` added) and resolves with the answer, an `Outcome` as `run`'s:
   * the helper's exit-code-to-be and its output. After `timeout` ms (default 300 s, as `run`'s),
   * or when the process has ended, it resolves with code -1 and the reason in `stderr`.
   */
  readonly ask: (request: Readonly<Record<string, unknown>>, timeout?: number) => Promise<Outcome>
  /**
   * Closes its input, on which the process ends by itself, and resolves when it has exited; it is
   * killed if it has not within 5 s. A request still waiting resolves with code -1.
   */
  readonly stop: () => Promise<void>
}

interface Pending {
  readonly resolve: (outcome: Outcome) => void
  readonly timer: ReturnType<typeof setTimeout>
}

/** Starts `node <script> --serve` in `cwd`. */
export const start = (script: string, cwd: string): LineServer => {
  const child = spawn("node", [script, "--serve"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"]
  })
  const pending = new Map<number, Pending>()
  let next = 0
  let stderr = ""
  let ended: string | null = null
  // "error" without "exit" when it could not be started
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.once("error", () => resolve())
  })
  const settle = (id: number, outcome: Outcome): void => {
    const waiting = pending.get(id)
    if (waiting === undefined) return
    pending.delete(id)
    clearTimeout(waiting.timer)
    waiting.resolve(outcome)
  }
  const endAll = (reason: string): void => {
    ended = reason
    for (const id of [...pending.keys()]) settle(id, { code: -1, stdout: "", stderr: reason })
  }
  child.stderr.on("data", (chunk: Buffer) => {
    // bounded: the end of what it says is kept for the message if it dies
    stderr = (stderr + chunk.toString()).slice(-64 * 1024)
  })
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    const answer: { readonly id: number; readonly code: number; readonly stdout: string; readonly stderr: string } =
      JSON.parse(line)
    settle(answer.id, { code: answer.code, stdout: answer.stdout, stderr: answer.stderr })
  })
  child.on("error", (error) => endAll(`${script} --serve: ${error.message}`))
  child.on("exit", (code, signal) => endAll(`${script} --serve exited (${code ?? signal}): ${stderr}`))
  // a closed pipe shows as the exit above
  child.stdin.on("error", () => undefined)
  return {
    ask: (request, timeout = 300_000) =>
      new Promise((resolve) => {
        if (ended !== null) return resolve({ code: -1, stdout: "", stderr: ended })
        const id = next++
        const timer = setTimeout(
          () =>
            settle(id, {
              code: -1,
              stdout: "",
              stderr: `${script}: no answer in ${timeout} ms to ${JSON.stringify(request)}`
            }),
          timeout
        )
        pending.set(id, { resolve, timer })
        child.stdin.write(`${JSON.stringify({ ...request, id })}\n`)
      }),
    stop: async () => {
      child.stdin.end()
      const timer = setTimeout(() => child.kill(), 5_000)
      await exited
      clearTimeout(timer)
    }
  }
}
