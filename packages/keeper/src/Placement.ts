/**
 * Where a claim workflow runs on a cluster: on the runner that owns its wallet. The cluster
 * places an entity by its id (a hash of it picks one of the group's shards, and a shard has one
 * runner): a wallet by its address, a workflow by its execution id, a hash of the workflow's
 * name and idempotency key. So a claim's idempotency key carries a placement number, the first
 * one (0, 1, 2, ...) whose execution id falls in the wallet's shard: the workflow runs beside
 * its wallet, its reply reaches the wallet's pass in memory (no reply polled from storage), and
 * when the runner dies the wallet and its unfinished workflows move together. The number is a
 * function of the key and the shard count, so a pass that resumes a run finds the same
 * workflow again.
 *
 * On one machine every entity is local: the placement is always 0 (the key unchanged).
 *
 * @since 0.1.0
 */
import { ClusterSchema, EntityId, Sharding } from "@effect/cluster"
import type { Workflow } from "@effect/workflow"
import { Context, Effect, Layer } from "effect"

/**
 * The most placement numbers tried before giving up on placing a workflow beside its wallet
 * (it then runs wherever its plain key puts it). With 300 shards, each number falls in the
 * wallet's shard with probability 1/300: 10 000 misses in a row happen with probability e^-33.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxTries = 10_000

/**
 * @since 0.1.0
 * @category tags
 */
export class Placement extends Context.Reference<Placement>()("@feeshare/keeper/Placement", {
  defaultValue: (): Placement.Service => ({ beside: () => Effect.succeed(0) })
}) {}

/**
 * @since 0.1.0
 */
export declare namespace Placement {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * The placement number that puts a run of `workflow` (its payload for a placement number:
     * `payloadOf`) in the shard of `wallet`'s entity.
     */
    readonly beside: (
      workflow: Workflow.Any,
      payloadOf: (placement: number) => unknown,
      wallet: string
    ) => Effect.Effect<number>
  }
}

/** Placement numbers tried at once (each costs a SHA-256 digest). */
const batch = 64

/**
 * The placement of a cluster's runner, through `Sharding`'s own shard function; `walletGroup`
 * is the wallet entity's shard group (`Entity.getShardGroup`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  walletGroup: (entityId: EntityId.EntityId) => string
): Effect.Effect<Placement.Service, never, Sharding.Sharding> =>
  Effect.map(Sharding.Sharding, (sharding): Placement.Service => ({
    beside: (workflow, payloadOf, wallet) =>
      Effect.gen(function*() {
        const walletId = EntityId.make(wallet)
        const target = sharding.getShardId(walletId, walletGroup(walletId))
        const groupOf = Context.get(workflow.annotations, ClusterSchema.ShardGroup)
        for (let first = 0; first < maxTries; first += batch) {
          const ids = yield* Effect.forEach(
            Array.from({ length: batch }, (_, i) => first + i),
            (placement) => workflow.executionId(payloadOf(placement)),
            { concurrency: "unbounded" }
          )
          const found = ids.findIndex((id) => {
            const entityId = EntityId.make(id)
            return sharding.getShardId(entityId, groupOf(entityId)) === target
          })
          if (found >= 0) return first + found
        }
        yield* Effect.logWarning("no placement beside the wallet: the workflow runs where its key puts it").pipe(
          Effect.annotateLogs({ wallet })
        )
        return 0
      })
  }))

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  walletGroup: (entityId: EntityId.EntityId) => string
): Layer.Layer<Placement, never, Sharding.Sharding> => Layer.effect(Placement, make(walletGroup))
