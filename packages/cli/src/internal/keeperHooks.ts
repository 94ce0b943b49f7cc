/**
 * The keeper's hooks as a service: none unless a caller provides them (the test entry point
 * `test/support/keeperWithHooks.ts` does, for the crash tests); the executable never reads
 * them from anywhere.
 */
import type * as Keeper from "@feeshare/keeper/Keeper"
import * as Context from "effect/Context"

/** The hooks `keeper once`/`run` give the keeper (none by default). */
export class KeeperHooks extends Context.Reference<KeeperHooks>()("@feeshare/cli/KeeperHooks", {
  defaultValue: (): Keeper.Hooks => ({})
}) {}
