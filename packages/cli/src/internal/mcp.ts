/**
 * `feeshare mcp` (loaded only by that command): the MCP server of @feeshare/mcp on stdio,
 * with the global options' service, RPC endpoint(s), API key and `--keypair`.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Server from "@feeshare/mcp/Server"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Globals } from "../Cli.js"
import { apiKeyOf, rpcUrlsOf } from "./context.js"

/** The options of `feeshare mcp`. */
export interface Args {
  readonly policy: Option.Option<string>
  readonly readOnly: boolean
}

/** Serves until stdin closes: nothing but JSON-RPC on stdout, the library's warnings on stderr. */
export const run = (g: Globals, args: Args, version: string) =>
  Effect.gen(function*() {
    const { policy, signers } = yield* Server.loadPolicy({ policyFile: args.policy, readOnly: args.readOnly, keypair: g.keypair })
    const apiKey = yield* apiKeyOf(g)
    return yield* Server.serveStdio({ version, baseUrl: g.baseUrl, apiKey, rpcUrl: rpcUrlsOf(g), policy, signers })
  }).pipe(Effect.provide(NodeFileSystem.layer))
