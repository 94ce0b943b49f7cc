/**
 * Real servers and processes for the tests: `redis-server` (from the Debian package) on a
 * free port, the sandbox's bin as a separate process, worker scripts and the CLI (the executables
 * the global set-up built from the sources). Each start waits
 * for a real signal (a line the process prints), never for a fixed time; each stop kills only
 * the process it started.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { requirePart } from "../../../scripts/system-parts.mjs"
import { executables } from "../../../scripts/test-executables.mjs"

export const workspace = fileURLToPath(new URL("../../..", import.meta.url))

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(
        () => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
      )
    })
  })

/** Resolves with the first stdout line matching `pattern`; rejects if the process exits first. */
const lineMatching = (child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpMatchArray> =>
  new Promise((resolve, reject) => {
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(pattern)
      if (match !== null) {
        child.stdout?.off("data", onData)
        child.off("exit", onExit)
        resolve(match)
      }
    }
    const onExit = (code: number | null) => reject(new Error(`${what} exited (${code}) before it was ready: ${output}`))
    child.stdout?.on("data", onData)
    child.once("exit", onExit)
  })

/** Ends a child (by its own handle) and waits for its exit. */
const stop = (child: ChildProcess, signal: NodeJS.Signals): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => {
      child.once("exit", () => resolve())
      child.kill(signal)
    })

export interface RedisServer {
  readonly port: number
  readonly url: string
  /** SIGKILL: the server vanishes without closing its connections. */
  readonly kill: () => Promise<void>
  /** SIGSTOP / SIGCONT: the server keeps its connections and stops answering, then resumes. */
  readonly freeze: () => void
  readonly thaw: () => void
  readonly stop: () => Promise<void>
}

/** `redis-server` on a free port, without persistence, in a temporary directory. */
export const startRedis = async (options: { readonly password?: string } = {}): Promise<RedisServer> => {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), "feeshare-redis-"))
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
    "--loglevel",
    "notice",
    ...(options.password === undefined ? [] : ["--requirepass", options.password])
  ]
  const child = spawn(requirePart("redis-server"), args, { stdio: ["ignore", "pipe", "inherit"] })
  await lineMatching(child, /Ready to accept connections/, "redis-server")
  const cleanup = () => rmSync(dir, { recursive: true, force: true })
  const auth = options.password === undefined ? "" : `:${encodeURIComponent(options.password)}@`
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}/0`,
    kill: () => stop(child, "SIGKILL").then(cleanup),
    freeze: () => child.kill("SIGSTOP"),
    thaw: () => child.kill("SIGCONT"),
    stop: () => {
      child.kill("SIGCONT")
      return stop(child, "SIGTERM").then(cleanup)
    }
  }
}

export interface SandboxProcess {
  readonly baseUrl: string
  readonly rootUrl: string
  readonly apiKey: string
  readonly stop: () => Promise<void>
}

/** The sandbox's bin (`feeshare-sandbox`) with `flags`, once it printed its URLs and demo key. */
export const startSandbox = async (flags: ReadonlyArray<string>): Promise<SandboxProcess> => {
  const child = spawn(
    process.execPath,
    [executables.sandbox, "--port", "0", ...flags],
    { stdio: ["ignore", "pipe", "inherit"], cwd: workspace }
  )
  const match = await lineMatching(
    child,
    /base_url\s+(\S+)[\s\S]*root_url\s+(\S+)[\s\S]*demo key\s+(\S+)/,
    "the sandbox"
  )
  return { baseUrl: match[1]!, rootUrl: match[2]!, apiKey: match[3]!, stop: () => stop(child, "SIGINT") }
}

export interface Worker {
  readonly child: ChildProcess
  /** Every JSON line the worker printed, in order. */
  readonly lines: Array<unknown>
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>
  /** Resolves with the first line for which `predicate` holds. */
  readonly waitFor: (predicate: (line: unknown) => boolean) => Promise<unknown>
}

/** The fleet worker (`fleetWorker.ts`, built), its secrets passed in the environment. */
export const startFleetWorker = (env: Readonly<Record<string, string>>): Worker => {
  const child = spawn(process.execPath, [executables.fleetWorker], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: workspace,
    env: { ...process.env, ...env }
  })
  const lines: Array<unknown> = []
  const waiting = new Set<
    { readonly predicate: (line: unknown) => boolean; readonly resolve: (line: unknown) => void }
  >()
  let buffer = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString()
    let newline = buffer.indexOf("\n")
    while (newline >= 0) {
      const text = buffer.slice(0, newline).trim()
      buffer = buffer.slice(newline + 1)
      newline = buffer.indexOf("\n")
      if (text === "") continue
      const line: unknown = JSON.parse(text)
      lines.push(line)
      for (const waiter of waiting) {
        if (waiter.predicate(line)) {
          waiting.delete(waiter)
          waiter.resolve(line)
        }
      }
    }
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return {
    child,
    lines,
    exited,
    waitFor: (predicate) => {
      const found = lines.find(predicate)
      if (found !== undefined) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        waiting.add({ predicate, resolve })
        void exited.then((code) => reject(new Error(`the worker exited (${code}) before the awaited line`)))
      })
    }
  }
}

export interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The CLI (`feeshare`), run to its end. */
export const feeshare = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): Promise<Outcome> =>
  new Promise((resolve) => {
    const { FEESHARE_API_KEY: _k, FEESHARE_BASE_URL: _b, FEESHARE_REDIS_URL: _r, ...inherited } = process.env
    const child = spawn(
      process.execPath,
      [executables.feeshare, ...args],
      { cwd: workspace, env: { ...inherited, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] }
    )
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })
