/**
 * Real servers and processes for the tests: `redis-server` (from the Debian package) on a
 * free port, the sandbox's bin as a separate process, and tsx worker scripts. Each start waits
 * for a real signal (a line the process prints), never for a fixed time; each stop kills only
 * the process it started.
 */
import { type ChildProcess } from "node:child_process"
export declare const workspace: string
/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
export declare const freePort: () => Promise<number>
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
export declare const startRedis: (options?: {
  readonly password?: string
}) => Promise<RedisServer>
export interface SandboxProcess {
  readonly baseUrl: string
  readonly rootUrl: string
  readonly apiKey: string
  readonly stop: () => Promise<void>
}
/** The sandbox's bin (`src/bin.ts` under tsx) with `flags`, once it printed its URLs and demo key. */
export declare const startSandbox: (flags: ReadonlyArray<string>) => Promise<SandboxProcess>
export interface Worker {
  readonly child: ChildProcess
  /** Every JSON line the worker printed, in order. */
  readonly lines: Array<unknown>
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>
  /** Resolves with the first line for which `predicate` holds. */
  readonly waitFor: (predicate: (line: unknown) => boolean) => Promise<unknown>
}
/** A tsx script of this package (sources resolved), its secrets passed in the environment. */
export declare const startWorker: (script: string, env: Readonly<Record<string, string>>) => Worker
export interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}
/** The CLI from its sources (`packages/cli/src/bin.ts` under tsx), run to its end. */
export declare const feeshare: (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) => Promise<Outcome>
