/**
 * Set-up of the MCP tests: a seeded sandbox in the test process (its demo wallet holds claimable
 * fees on every seeded token), and `feeshare mcp` spawned from the executable the global set-up
 * built from the CLI's sources, driven by the official MCP TypeScript client over stdio.
 */
import { McpSchema } from "@effect/ai"
import { FetchHttpClient } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import type * as SandboxOptions from "@feeshare/sandbox/Options"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { address, createSolanaRpc, getBase58Decoder } from "@solana/kit"
import { Context, Effect, Layer, Redacted } from "effect"
import { generateKeyPairSync } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { executables } from "../../../../scripts/test-executables.mjs"
import * as Handlers from "../../src/Handlers.js"
import { toolkit } from "../../src/Tools.js"
import * as WritePolicy from "../../src/WritePolicy.js"

/** The command that runs `feeshare`: Node itself, with the built executable first in `serverArgs`. */
export const node = process.execPath

/** What the sandbox was seeded with, and the demo wallet's keygen file. */
export class Seeded
  extends Context.Tag("test/Seeded")<Seeded, Effect.Effect.Success<ReturnType<typeof Seed.makeWithKeygenFile>>>()
{}

/** A seeded sandbox on a free port. */
export const sandboxLayer = (options: Partial<SandboxOptions.Options>) =>
  Layer.scoped(Seeded, Seed.makeWithKeygenFile(options.seed ?? "feeshare-mcp")).pipe(
    Layer.provideMerge(Sandbox.layer({ port: 0, slotMillis: 20, ...options }))
  )

/** The client of an MCP session that never asks anything of its human (askHuman is off). */
export const noClient = Layer.succeed(McpSchema.McpServerClient, {
  clientId: 0,
  getClient: Effect.dieMessage("this test has no MCP client")
})

/**
 * The tools' handlers in the test process, over the sandbox's HTTP API (or `baseUrl`) and
 * ledger, with the seeded demo wallet as the one signer and `policy` (none by default);
 * `client` may stand in for the real client (`real`).
 */
export const inProcessTools = (options: {
  readonly policy?: Record<string, unknown>
  readonly baseUrl?: string
  readonly client?: (real: FeeShareClient.FeeShareClient.Service) => FeeShareClient.FeeShareClient.Service
} = {}) =>
  Effect.gen(function*() {
    const seeded = yield* Seeded
    const info = yield* SandboxInfo
    const real = yield* FeeShareClient.make({ baseUrl: options.baseUrl ?? info.baseUrl, apiKey: info.demoApiKey })
      .pipe(Effect.provide(FetchHttpClient.layer))
    const signer = yield* LocalSigner.fromKeygenFile(seeded.keygenPath).pipe(Effect.provide(NodeFileSystem.layer))
    const environment = Layer.succeed(Handlers.Environment, {
      policy: yield* WritePolicy.decode(options.policy ?? {}),
      signers: [signer],
      hasApiKey: true,
      clientWith: () => Effect.dieMessage("no login in this test"),
      warmupInterval: "100 millis"
    })
    const tools = yield* toolkit.pipe(
      Effect.provide(Handlers.layer.pipe(
        Layer.provide(Layer.mergeAll(
          Layer.succeed(FeeShareClient.FeeShareClient, options.client?.(real) ?? real),
          ChainRpc.layer(info.rpcUrl, { pollInterval: "40 millis" }),
          environment
        ))
      ))
    )
    return { tools, seeded, real }
  })

export const temporaryDirectory = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

/** A solana-keygen file of a fresh key (mode 0600), and its public key in base58. */
export const keygenFile = (dir: string, name: string): { readonly path: string; readonly publicKey: string } => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const pub = publicKey.export({ format: "der", type: "spki" }).subarray(-32)
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32)
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify([...seed, ...pub]), { mode: 0o600 })
  return { path, publicKey: getBase58Decoder().decode(pub) }
}

/** A policy file with these fields. */
export const policyFile = (policy: Record<string, unknown>): string => {
  const path = join(temporaryDirectory("mcp-policy-"), "policy.json")
  writeFileSync(path, JSON.stringify(policy))
  return path
}

/** A connected client, everything the server wrote on stderr, and every tool result's text. */
export interface Session {
  readonly client: Client
  readonly stderr: () => string
  readonly call: (name: string, args?: Record<string, unknown>) => Effect.Effect<ToolResult>
  readonly seen: Array<string>
}

export interface ToolResult {
  readonly isError: boolean
  readonly structured: Record<string, unknown>
  readonly text: string
}

/** The server's command line: `feeshare mcp` against the sandbox, with `extra` flags. */
export const serverArgs = (info: Context.Tag.Service<typeof SandboxInfo>, extra: ReadonlyArray<string>) => [
  executables.feeshare,
  "mcp",
  "--base-url",
  info.baseUrl,
  "--rpc-url",
  info.rpcUrl,
  ...extra
]

/** The environment of the server: the API key only through it, never on the command line. */
export const serverEnv = (info: Context.Tag.Service<typeof SandboxInfo>, apiKey = true): Record<string, string> => {
  const { FEESHARE_API_KEY: _k, FEESHARE_BASE_URL: _b, FEESHARE_RPC_URL: _r, FEESHARE_KEYPAIR: _p, ...inherited } =
    process.env
  const env = Object.fromEntries(Object.entries(inherited).filter((e): e is [string, string] => e[1] !== undefined))
  // no stored credentials either: a home of its own
  return apiKey
    ? { ...env, FEESHARE_API_KEY: Redacted.value(info.demoApiKey) }
    : { ...env, HOME: temporaryDirectory("mcp-home-"), XDG_CONFIG_HOME: temporaryDirectory("mcp-config-") }
}

/** Spawns `feeshare mcp` with `extra` flags and connects the official client (closed with the scope). */
export const connect = (
  extra: ReadonlyArray<string>,
  options: {
    readonly apiKey?: boolean
    /** Declares elicitation and answers each request with this (the human's answer). */
    readonly elicit?: (
      message: string
    ) => { readonly action: "accept" | "decline" | "cancel"; readonly content?: Record<string, unknown> }
  } = {}
) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const transport = new StdioClientTransport({
      command: node,
      args: serverArgs(info, extra),
      env: serverEnv(info, options.apiKey ?? true),
      stderr: "pipe"
    })
    let stderr = ""
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
    })
    const elicit = options.elicit
    const client = new Client(
      { name: "feeshare-mcp-test", version: "0.0.0" },
      elicit === undefined ? {} : { capabilities: { elicitation: {} } }
    )
    if (elicit !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request) => Promise.resolve(elicit(request.params.message)))
    }
    yield* Effect.acquireRelease(
      Effect.promise(() => client.connect(transport)),
      () => Effect.promise(() => client.close())
    )
    const seen: Array<string> = []
    const call = (name: string, args: Record<string, unknown> = {}) =>
      Effect.promise(async (): Promise<ToolResult> => {
        const result = await client.callTool({ name, arguments: args })
        const content = Array.isArray(result.content) ? result.content : []
        const text = content.map((
          part: { readonly text?: unknown }
        ) => (typeof part.text === "string" ? part.text : "")).join("")
        seen.push(JSON.stringify(result))
        const structured: Record<string, unknown> =
          typeof result.structuredContent === "object" && result.structuredContent !== null
            ? { ...result.structuredContent }
            : {}
        return { isError: result.isError === true, structured, text }
      })
    return { client, stderr: () => stderr, call, seen } satisfies Session
  })

/** SOL balance (lamports) of an address on the sandbox's ledger. */
export const solBalance = (owner: string) =>
  Effect.flatMap(
    SandboxInfo,
    (info) => Effect.promise(async () => (await createSolanaRpc(info.rpcUrl).getBalance(address(owner)).send()).value)
  )
