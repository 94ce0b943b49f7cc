/**
 * The root of the command tree: the root command over the global options (`globals.ts`), the
 * command's `Environment` built once from them, and how a handler runs (its group's module
 * loaded on demand, in the environment, its result printed).
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Output from "../Output.js"
import * as Environment from "./environment.js"
import { type Globals, options as globals } from "./globals.js"

/** The root command without its subcommands (subcommands read the global options from it). */
export const root = Command.make("feeshare", globals)

/** The environment of a subcommand: the global options of `root`, parsed once. */
export const environment = Layer.effect(Environment.Environment, Effect.map(root, Environment.make))

/** Prints a command's result: its JSON document with `--json`, its human lines otherwise. */
export const print = (g: Pick<Globals, "json">, result: Output.Result) =>
  g.json ? Console.log(Output.json(result.json)) : Console.log(result.human.join("\n"))

/** The handlers of each command group, loaded when one of its commands runs. */
export const groups = {
  auth: () => import("./commands/auth.js"),
  claims: () => import("./commands/claims.js"),
  claimAll: () => import("./commands/claimAll.js"),
  feeShare: () => import("./commands/feeShare.js"),
  partner: () => import("./commands/partner.js"),
  launch: () => import("./commands/launch.js"),
  trade: () => import("./commands/trade.js"),
  analytics: () => import("./commands/analytics.js"),
  evm: () => import("./commands/evm.js"),
  keeper: () => import("./keeper.js"),
  mcp: () => import("./mcp.js"),
  demo: () => import("../Demo.js")
}

/** Runs a handler of a group (loaded now) in the command's environment, and prints its result. */
export const handle = <H, E, R>(
  load: () => Promise<H>,
  f: (handlers: H) => Effect.Effect<Output.Result, E, R>
) =>
  Effect.gen(function*() {
    const handlers = yield* Effect.promise(load)
    const result = yield* f(handlers)
    yield* print(yield* Environment.Environment, result)
  }).pipe(Effect.scoped, Effect.provide(environment))
