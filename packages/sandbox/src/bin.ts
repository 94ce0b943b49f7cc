#!/usr/bin/env node
/**
 * `npm run sandbox -- [flags]`: serves the sandbox until interrupted (Ctrl-C).
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Either, Option, Redacted } from "effect"
import * as Explorer from "./Explorer.js"
import * as Flags from "./Flags.js"
import * as Sandbox from "./Sandbox.js"
import * as Seed from "./Seed.js"
import { SandboxInfo } from "./Server.js"
import * as Tamper from "./Tamper.js"

const parsed = Flags.parse(process.argv.slice(2))

if (Either.isLeft(parsed)) {
  process.stderr.write(`${parsed.left}\n\n${Flags.usage}`)
  process.exitCode = 2
} else if (parsed.right._tag === "Help") {
  process.stdout.write(Flags.usage)
} else {
  const options = parsed.right.options
  const empty = parsed.right.empty
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const seeded = empty ? undefined : yield* Seed.makeWithKeygenFile(options.seed)
    yield* Console.log([
      "feeshare sandbox (sandbox-only data; nothing here touches a real network)",
      `  base_url    ${info.baseUrl}`,
      `  root_url    ${info.rootUrl}      (GET /ping; sandbox-only set-up under /sandbox/...)`,
      `  rpc_url     ${info.rpcUrl}`,
      `  rpc_ws_url  ${info.rpcSubscriptionsUrl}   (JSON-RPC subscriptions: Kit's createSolanaRpcSubscriptions)`,
      `  explorer    ${Explorer.url(info.rootUrl, info.adminToken)}   (open it in a browser)`,
      `  seed        ${options.seed}`,
      `  demo key    ${Redacted.value(info.demoApiKey)}   (x-api-key; a sandbox key, deterministic from the seed)`,
      ...Option.match(info.adminToken, {
        onNone: () => [],
        onSome: (
          token
        ) => [
          `  admin       ${Redacted.value(token)}   (Authorization: Bearer ...; /sandbox/... needs it off loopback)`
        ]
      }),
      ...(options.tamper.length === 0
        ? []
        : [
          `  tamper    ${
            options.tamper.map(Tamper.format).join(" ")
          }   (claim plans are served tampered: hostile on purpose)`
        ]),
      ...(seeded === undefined ? [] : [
        `  tokens      ${seeded.tokens.map((t) => `${t.symbol} ${t.mint}`).join(", ")}`,
        `  demo wallet ${seeded.demoWallet}   (claimable fees; its keypair: ${seeded.keygenPath}, mode 0600)`
      ]),
      "Ctrl-C to stop."
    ].join("\n"))
    return yield* Effect.never
  }).pipe(Effect.scoped, Effect.provide(Sandbox.layer(options)), NodeRuntime.runMain)
}
