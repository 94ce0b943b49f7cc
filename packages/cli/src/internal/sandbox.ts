/**
 * `feeshare sandbox [flags]`: dispatched by the bin before @effect/cli; the sandbox's own flag
 * parser (`Flags` of @feeshare/sandbox) is the only one that reads them, with the CLI's default
 * port so that `feeshare`'s default base URL reaches it.
 */
import * as Explorer from "@feeshare/sandbox/Explorer"
import * as Flags from "@feeshare/sandbox/Flags"
import * as SandboxOptions from "@feeshare/sandbox/Options"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as Tamper from "@feeshare/sandbox/Tamper"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { InvalidKnobs } from "../CliError.js"
import * as Output from "../Output.js"
import * as Defaults from "./defaults.js"

/** The port `feeshare sandbox` listens on unless `--port` says otherwise. */
export const defaultPort = Defaults.sandboxPort

/** The sandbox's usage text, for `feeshare sandbox`. */
export const usage = Flags.usageOf("feeshare sandbox", { ...SandboxOptions.defaults, port: defaultPort })

/** Serves until interrupted. */
export const main = (knobs: ReadonlyArray<string>, json: boolean) =>
  Effect.gen(function*() {
    const parsed = Flags.parse(["--port", String(defaultPort), ...knobs])
    if (Either.isLeft(parsed)) {
      yield* Console.error(usage)
      return yield* new InvalidKnobs({ operation: "sandbox", message: parsed.left })
    }
    if (parsed.right._tag === "Help") return yield* Console.log(usage)
    const options = parsed.right.options
    const empty = parsed.right.empty
    // hostile plans on purpose (`--tamper`): said at start-up, never silently
    const tamper = options.tamper.map(Tamper.format)
    return yield* Effect.gen(function*() {
      const info = yield* SandboxInfo
      const key = Redacted.value(info.demoApiKey)
      const admin = Option.map(info.adminToken, Redacted.value)
      const seeded = empty ? undefined : yield* Seed.makeWithKeygenFile(options.seed)
      yield* Console.log(
        json
          ? Output.json({
            baseUrl: info.baseUrl,
            rootUrl: info.rootUrl,
            rpcUrl: info.rpcUrl,
            rpcSubscriptionsUrl: info.rpcSubscriptionsUrl,
            explorerUrl: Explorer.url(info.rootUrl, info.adminToken),
            seed: options.seed,
            demoApiKey: key,
            adminToken: Option.getOrNull(admin),
            ...(tamper.length === 0 ? {} : { tamper }),
            seeded: seeded === undefined
              ? null
              : { demoWallet: seeded.demoWallet, demoKeypair: seeded.keygenPath, tokens: seeded.tokens }
          })
          : [
            "feeshare sandbox (sandbox-only data; nothing here touches a real network)",
            ...Output.fields([
              ["base_url", info.baseUrl],
              ["root_url", `${info.rootUrl}   (GET /ping; sandbox-only set-up under /sandbox/...)`],
              ["rpc_url", info.rpcUrl],
              [
                "rpc_ws_url",
                `${info.rpcSubscriptionsUrl}   (JSON-RPC subscriptions: Kit's createSolanaRpcSubscriptions)`
              ],
              [
                "explorer",
                `${
                  Explorer.url(info.rootUrl, info.adminToken)
                }   (open it in a browser: tokens, transactions, plans, live)`
              ],
              ["seed", options.seed],
              ["demo key", `${key}   (a sandbox key, deterministic from the seed)`],
              ...Option.match(admin, {
                onNone: () => [],
                onSome: (
                  token
                ) => [["admin", `${token}   (Authorization: Bearer ...; /sandbox/... needs it off loopback)`] as const]
              }),
              ...(tamper.length === 0
                ? []
                : [["tamper", `${tamper.join(" ")}   (claim plans are served tampered: hostile on purpose)`] as const]),
              ...(seeded === undefined ? [] : [
                [
                  "tokens",
                  seeded.tokens.map((t) =>
                    `${t.symbol} ${t.mint}${t.migrated ? " (migrated)" : t.launched ? "" : " (not launched)"}`
                  ).join(", ")
                ] as const,
                [
                  "demo wallet",
                  `${seeded.demoWallet}   (claimable fees in ${
                    seeded.tokens.filter((t) => t.launched).map((t) => t.symbol).join(" and ")
                  })`
                ] as const,
                ["demo keypair", `${seeded.keygenPath}   (mode 0600)`] as const
              ])
            ]).map((line) => `  ${line}`),
            seeded === undefined
              ? `Try: feeshare --base-url ${info.baseUrl} --api-key ${key} limits`
              : `Try: feeshare --base-url ${info.baseUrl} --api-key ${key} --keypair ${seeded.keygenPath} claims positions`,
            "Ctrl-C to stop."
          ].join("\n")
      )
      return yield* Effect.never
    }).pipe(Effect.scoped, Effect.provide(Sandbox.layer(options)))
  })
