/**
 * A helper process that serves many requests, one JSON line in and one JSON line out each
 * (`typecheck.mjs --serve`, `attw.mjs --serve`): what it loads and parses once (TypeScript,
 * Effect's declarations) serves every project of a run instead of being loaded again by a
 * process per project. It answers one request at a time, in the order they were sent.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { Outcome } from "./Tarballs.js"

export interface LineServer {
  /**
   * Sends `request` (with an `id` added) and resolves with the answer, an `Outcome` as `run`'s:
   * the helper's exit-code-to-be and its output. `timeout` (default 300 s, as `run`'s) bounds
   * the helper's work on this request, counted from when it starts on it (the requests before
   * it answered): past it the helper is stuck, it is killed, and this request and every one
   * still waiting resolve with code -1 and the reason in `stderr`, as they do when it has ended.
   */
  readonly ask: (request: Readonly<Record<string, unknown>>, timeout?: number) => Promise<Outcome>
  /**
   * Closes its input, on which the process ends by itself, and resolves when it has exited; it is
   * killed if it has not within 5 s. A request still waiting resolves with code -1.
   */
  readonly stop: () => Promise<void>
}

interface Pending {
  readonly id: number
  readonly request: Readonly<Record<string, unknown>>
  readonly timeout: number
  readonly resolve: (outcome: Outcome) => void
}

/** The answer line of a request: its `id` and an `Outcome`. */
const parseAnswer = (line: string): (Outcome & { readonly id: unknown }) | null => {
  try {
    const answer: unknown = JSON.parse(line)
    if (
      typeof answer === "object" && answer !== null && "id" in answer && "code" in answer &&
      typeof answer.code === "number" && "stdout" in answer && typeof answer.stdout === "string" &&
      "stderr" in answer && typeof answer.stderr === "string"
    ) return { id: answer.id, code: answer.code, stdout: answer.stdout, stderr: answer.stderr }
    return null
  } catch {
    return null
  }
}

/** Starts `node <script> --serve` in `cwd`. */
export const start = (script: string, cwd: string): LineServer => {
  const child = spawn("node", [script, "--serve"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["pipe", "pipe", "pipe"]
  })
  /** The requests sent and not answered, in the order sent (the order of the answers). */
  const pending: Array<Pending> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let next = 0
  let stderr = ""
  let ended: string | null = null
  // "error" without "exit" when it could not be started
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.once("error", () => resolve())
  })
  const end = (reason: string): void => {
    ended ??= reason
    clearTimeout(timer)
    for (const waiting of pending.splice(0)) waiting.resolve({ code: -1, stdout: "", stderr: ended })
  }
  /** The helper's clock runs on the request it is working on: the first one not answered. */
  const watchHead = (): void => {
    clearTimeout(timer)
    const head = pending[0]
    if (head === undefined) return
    timer = setTimeout(() => {
      end(`${script}: no answer in ${head.timeout} ms to ${JSON.stringify(head.request)}`)
      child.kill()
    }, head.timeout)
  }
  child.stderr.on("data", (chunk: Buffer) => {
    // bounded: the end of what it says is kept for the message if it dies
    stderr = (stderr + chunk.toString()).slice(-64 * 1024)
  })
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    const answer = parseAnswer(line)
    const head = pending[0]
    if (answer === null || head === undefined || answer.id !== head.id) {
      end(`${script}: an answer out of turn or not one (${line.slice(0, 200)})`)
      child.kill()
      return
    }
    pending.shift()
    head.resolve({ code: answer.code, stdout: answer.stdout, stderr: answer.stderr })
    watchHead()
  })
  child.on("error", (error) => end(`${script} --serve: ${error.message}`))
  child.on("exit", (code, signal) => end(`${script} --serve exited (${code ?? signal}): ${stderr}`))
  // a closed pipe shows as the exit above
  child.stdin.on("error", () => undefined)
  return {
    ask: (request, timeout = 300_000) =>
      new Promise((resolve) => {
        if (ended !== null) return resolve({ code: -1, stdout: "", stderr: ended })
        const id = next++
        pending.push({ id, request, timeout, resolve })
        if (pending.length === 1) watchHead()
        child.stdin.write(`${JSON.stringify({ ...request, id })}\n`)
      }),
    stop: async () => {
      child.stdin.end()
      const kill = setTimeout(() => child.kill(), 5_000)
      await exited
      clearTimeout(kill)
    }
  }
}
