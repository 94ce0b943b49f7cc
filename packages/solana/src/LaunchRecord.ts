/**
 * Where a launch keeps what it has made (`LaunchToken.LaunchRecord` of `@feeshare/domain`)
 * between runs: the `Store` port, and records in memory. `LaunchRecordFile` keeps them as
 * files (a module of its own, so that the facade's browser bundle carries no file system).
 * A record holds public values only: the mint, the metadata URL, the lookup table, the config
 * key and the launch signature; never a key or an image.
 *
 * @since 0.1.0
 */
import type { LaunchToken } from "@feeshare/domain"
import { Effect, Option, Schema } from "effect"

/**
 * A record that could not be read or written (the file system's message).
 *
 * @since 0.1.0
 * @category errors
 */
export class RecordUnavailable extends Schema.TaggedError<RecordUnavailable>()("RecordUnavailable", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * A place for launch records.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store {
  /** Where the records are, as shown to the user (`memory` for the in-memory store). */
  readonly location: string
  /** The record of `key`, if there is a usable one. */
  readonly load: (key: string) => Effect.Effect<Option.Option<LaunchToken.LaunchRecord>, RecordUnavailable>
  /** Replaces the record of `record.key`, whole. */
  readonly save: (record: LaunchToken.LaunchRecord) => Effect.Effect<void, RecordUnavailable>
}

/**
 * Records held in memory (resumes within one process only). With `maxRecords`, the records
 * saved longest ago are dropped beyond that many (a long-lived process, such as the MCP
 * server, keeps the launches of its session without growing without bound).
 *
 * @since 0.1.0
 * @category constructors
 */
export const memory = (options: { readonly maxRecords?: number } = {}): Store => {
  const records = new Map<string, LaunchToken.LaunchRecord>()
  const limit = options.maxRecords ?? Number.POSITIVE_INFINITY
  return {
    location: "memory",
    load: (key) => Effect.sync(() => Option.fromNullable(records.get(key))),
    save: (record) =>
      Effect.sync(() => {
        records.delete(record.key)
        records.set(record.key, record)
        for (const oldest of records.keys()) {
          if (records.size <= limit) break
          records.delete(oldest)
        }
      })
  }
}
