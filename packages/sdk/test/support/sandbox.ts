/**
 * A sandbox for the tests, started on a free port inside the test process, with its
 * sandbox-only set-up operations (typed from `SandboxApi`) and the Effect client next to it
 * (the reference the facade must match).
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import * as Client from "@feeshare/client/FeeShareClient"
import type * as Options from "@feeshare/sandbox/Options"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { mkdir, rm } from "node:fs/promises"
import { afterAll, beforeAll } from "vitest"

export const SOL = 1_000_000_000n

const makeSetup = (rootUrl: string) =>
  HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: rootUrl }).pipe(Effect.provide(FetchHttpClient.layer))

type Setup = Effect.Effect.Success<ReturnType<typeof makeSetup>>["sandbox"]

export interface Running {
  readonly rootUrl: string
  readonly baseUrl: string
  readonly rpcUrl: string
  /** The seeded demo key, in clear (as a user copies it from `npm run sandbox`). */
  readonly apiKey: string
  /** The sandbox-only set-up operations. */
  readonly setup: <A>(f: (setup: Setup) => Effect.Effect<A, unknown>) => Promise<A>
  /** Runs `f` with the Effect client (`@feeshare/client`) on this sandbox. */
  readonly effect: <A, E>(
    f: (client: Client.FeeShareClient.Service) => Effect.Effect<A, E>,
    apiKey?: string
  ) => Promise<A>
  readonly close: () => Promise<void>
}

export const start = async (options: Partial<Options.Options> = {}): Promise<Running> => {
  const server = ManagedRuntime.make(Sandbox.layer({ port: 0, ...options }))
  const info = await server.runPromise(SandboxInfo)
  const apiKey = Redacted.value(info.demoApiKey)
  const setupClient = await Effect.runPromise(makeSetup(info.rootUrl))
  const clients = new Map<string, ManagedRuntime.ManagedRuntime<FeeShareClient, unknown>>()
  const clientFor = (key: string) => {
    const found = clients.get(key)
    if (found !== undefined) return found
    const made = ManagedRuntime.make(
      Client.layer({ baseUrl: info.baseUrl, apiKey: Redacted.make(key) }).pipe(Layer.provide(FetchHttpClient.layer))
    )
    clients.set(key, made)
    return made
  }
  return {
    rootUrl: info.rootUrl,
    baseUrl: info.baseUrl,
    rpcUrl: info.rpcUrl,
    apiKey,
    setup: (f) => Effect.runPromise(f(setupClient.sandbox)),
    effect: (f, key = apiKey) => clientFor(key).runPromise(Effect.flatMap(FeeShareClient, f)),
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.dispose()))
      await server.dispose()
    }
  }
}

/**
 * For tests that run documented examples as written: starts a sandbox before the file's
 * tests, exports its URLs and demo key as `FEESHARE_BASE_URL` / `FEESHARE_RPC_URL` /
 * `FEESHARE_API_KEY`, creates `directory` for the extracted examples, and undoes all of it
 * afterwards. Returns the running sandbox (available once the tests run).
 */
export const sandboxForExamples = (directory: string, options: Partial<Options.Options> = {}): () => Running => {
  let running: Running | undefined
  const environment = { ...process.env }
  beforeAll(async () => {
    running = await start(options)
    process.env.FEESHARE_BASE_URL = running.baseUrl
    process.env.FEESHARE_RPC_URL = running.rpcUrl
    process.env.FEESHARE_API_KEY = running.apiKey
    await mkdir(directory, { recursive: true })
  })
  afterAll(async () => {
    process.env = environment
    await rm(directory, { recursive: true, force: true })
    await running?.close()
  })
  return () => {
    if (running === undefined) throw new Error("the sandbox starts before the tests run")
    return running
  }
}
