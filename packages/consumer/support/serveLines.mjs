// The serving side of `LineServer.ts`: one JSON request per line on stdin, one answer per line on
// stdout (`{"id", "code", "stdout", "stderr"}`), in order; it returns when stdin closes. `answer`
// returns a request's `{ code, stdout }`; a request it cannot serve (bad JSON, the wrong shape,
// anything `answer` throws) is answered with `errorCode` and the reason on `stderr`, and the next
// request is served. Plain JavaScript: node runs it without a build.
import { createInterface } from "node:readline"

/**
 * @param {(request: Record<string, unknown>) => Promise<{ readonly code: number, readonly stdout: string }> | { readonly code: number, readonly stdout: string }} answer
 * @param {{ readonly errorCode: number }} options
 * @returns {Promise<void>}
 */
export const serveLines = async (answer, options) => {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") continue
    let id = null
    let reply
    try {
      const request = JSON.parse(line)
      id = request.id
      reply = { id, ...(await answer(request)), stderr: "" }
    } catch (error) {
      reply = {
        id,
        code: options.errorCode,
        stdout: "",
        stderr: String(error instanceof Error ? error.message : error)
      }
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`)
  }
}
