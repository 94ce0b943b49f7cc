/**
 * `feeshare mcp` (loaded only by that command): the MCP server of @feeshare/mcp on stdio,
 * with the global options' service, RPC endpoint(s), API key and `--keypair`.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Server from "@feeshare/mcp/Server"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import packageJson from "../../package.json" with { type: "json" }
import { WeakToken } from "../CliError.js"
import { findApiKey } from "./context.js"
import { Environment } from "./environment.js"

/** The options of `feeshare mcp`. */
export interface Args {
  readonly policy: Option.Option<string>
  readonly readOnly: boolean
  readonly http: Option.Option<number>
}

const say = (line: string) => Effect.sync(() => process.stderr.write(`feeshare mcp: ${line}\n`))

/**
 * Serves until stdin closes (nothing but JSON-RPC on stdout, the library's warnings on
 * stderr), or with `--http` until interrupted.
 */
export const run = (args: Args) =>
  Effect.gen(function*() {
    const g = yield* Environment
    const { policy, signers } = yield* Server.loadPolicy({
      policyFile: args.policy,
      readOnly: args.readOnly,
      keypair: g.keypair
    })
    const apiKey = yield* findApiKey
    const options = { version: packageJson.version, baseUrl: g.baseUrl, apiKey, rpcUrl: g.rpcUrls, policy, signers }
    if (Option.isNone(args.http)) return yield* Server.serveStdio(options)
    const given = process.env.FEESHARE_MCP_TOKEN
    if (given !== undefined && given.length < Server.minTokenLength) {
      return yield* new WeakToken({
        operation: "mcp",
        message: `FEESHARE_MCP_TOKEN is ${given.length} characters; the bearer token needs at least ` +
          `${Server.minTokenLength} (unset it to get a random one, printed at start)`
      })
    }
    const token = given !== undefined ? Redacted.make(given) : Server.makeToken()
    return yield* Layer.launch(Server.layerHttp({
      ...options,
      port: args.http.value,
      token,
      onListening: (url) =>
        Effect.zipRight(
          say(`listening on ${url}`),
          given === undefined ? say(`bearer token: ${Redacted.value(token)}`) : say("bearer token: FEESHARE_MCP_TOKEN")
        )
    }))
  }).pipe(Effect.provide(NodeFileSystem.layer))
