/**
 * The `feeshare` executable for tests, with the keeper's hooks: `FEESHARE_KEEPER_HOOK`
 * (`after-journal:STAGE` or `after-send:STAGE`) prints one line on stderr at that moment and
 * stops there, so a crash test can kill the process then. `FEESHARE_KEEPER_PLACEMENT`
 * (`wallet` or `execution-id`) and `FEESHARE_KEEPER_REPLY_POLL_MILLIS` set a runner's
 * `Cluster.Tuning` (the cluster bench compares them). Run it as the executable:
 * `node --import tsx --conditions=@feeshare/source keeperWithHooks.ts keeper run ...`.
 */
import * as Cluster from "@feeshare/keeper/Cluster"
import type * as Keeper from "@feeshare/keeper/Keeper"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { KeeperHooks } from "../../src/internal/keeperHooks.js"
import { main } from "../../src/internal/main.js"

const stop = (line: string) => Effect.zipRight(Effect.sync(() => process.stderr.write(`${line}\n`)), Effect.never)

/** The hooks a spec asks for (none for an empty or unknown one). */
const hooksOf = (spec: string | undefined): Keeper.Hooks => {
  if (spec === undefined || spec === "") return {}
  const [point, stage] = spec.split(":")
  return point === "after-journal"
    ? {
      afterJournal: (stages) => stages.includes(stage ?? "") ? stop(`keeper-hook after-journal ${stage}`) : Effect.void
    }
    : point === "after-send"
    ? { afterSend: (id, signature) => id === stage ? stop(`keeper-hook after-send ${id} ${signature}`) : Effect.void }
    : {}
}

/** The runner's tuning from the environment (the defaults for what is not set). */
const tuningOf = (placement: string | undefined, replyPollMillis: string | undefined): Cluster.Tuning.Service => {
  const defaults = Cluster.Tuning.defaultValue()
  return {
    placement: placement === "execution-id" ? "execution-id" : defaults.placement,
    replyPollInterval: replyPollMillis === undefined || replyPollMillis === ""
      ? defaults.replyPollInterval
      : `${Number(replyPollMillis)} millis`
  }
}

main(
  Layer.merge(
    Layer.succeed(KeeperHooks, hooksOf(process.env.FEESHARE_KEEPER_HOOK)),
    Layer.succeed(
      Cluster.Tuning,
      tuningOf(process.env.FEESHARE_KEEPER_PLACEMENT, process.env.FEESHARE_KEEPER_REPLY_POLL_MILLIS)
    )
  )
)
