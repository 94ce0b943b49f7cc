/**
 * The environment of a command: the global options (`--base-url`, `--api-key`, `--json`, ...)
 * parsed once per run, with what follows from them (the RPC endpoints), as a service every
 * handler reads from its context instead of receiving the options by hand. `root.ts` builds
 * its layer from the root command.
 */
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import * as Defaults from "./defaults.js"
import type { Globals } from "./globals.js"

/** The environment of the running command. */
export class Environment extends Context.Tag("@feeshare/cli/Environment")<Environment, Environment.Service>() {}

/** @internal */
export declare namespace Environment {
  /** The global options as given, and what they resolve to (each default applied here, once). */
  export interface Service extends Globals {
    /** The RPC endpoint(s): `--rpc-url` may list several, separated by commas; else the base URL's `/rpc`. */
    readonly rpcUrls: ReadonlyArray<string>
  }
}

/** The environment of the global options `g`. */
export const make = (g: Globals): Environment.Service => {
  const given = Option.map(g.rpcUrl, (text) => text.split(",").map((url) => url.trim()).filter((url) => url !== ""))
  return {
    ...g,
    rpcUrls: Option.isSome(given) && given.value.length > 0 ? given.value : [Defaults.rpcUrlOf(g.baseUrl)]
  }
}
