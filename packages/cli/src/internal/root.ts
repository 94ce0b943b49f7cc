/**
 * The root of the command tree: the root command over the global options (`globals.ts`), and
 * how a handler runs (its group's module loaded on demand, its result printed).
 */
import * as Command from "@effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Output from "../Output.js"
import { type Globals, options as globals } from "./globals.js"

/** The root command without its subcommands (subcommands read the global options from it). */
export const root = Command.make("feeshare", globals)

/** Prints a command's result: its JSON document with `--json`, its human lines otherwise. */
export const print = (g: Pick<Globals, "json">, result: Output.Result) =>
  g.json ? Console.log(Output.json(result.json)) : Console.log(result.human.join("\n"))

/** The handlers of each command group, loaded when one of its commands runs. */
export const groups = {
  auth: () => import("./commands/auth.js"),
  claims: () => import("./commands/claims.js"),
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

/** Runs a handler of a group (loaded now) with the global options, and prints its result. */
export const handle = <H, E, R>(
  load: () => Promise<H>,
  f: (handlers: H, g: Globals) => Effect.Effect<Output.Result, E, R>
) =>
  Effect.gen(function*() {
    const g = yield* root
    const handlers = yield* Effect.promise(load)
    yield* print(g, yield* f(handlers, g))
  }).pipe(Effect.scoped)
