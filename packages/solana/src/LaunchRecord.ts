/**
 * Where a launch keeps what it has made (`LaunchToken.LaunchRecord` of `@feeshare/domain`)
 * between runs: in memory, or as one small JSON file per launch in a directory, named by the
 * record's key (a digest of the launch's inputs and wallet). A file is written whole to a
 * temporary name and renamed over the old one (mode 0600), so a crash leaves the previous
 * record or the new one, never half of one; a record over
 * `LaunchToken.limits.maxRecordBytes`, or one that is not a record of this key, is not used.
 * A record holds public values only: the mint, the metadata URL, the lookup table, the config
 * key and the launch signature; never a key or an image.
 *
 * @since 0.1.0
 */
import { FileSystem, Path } from "@effect/platform"
import { LaunchToken } from "@feeshare/domain"
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
 * Records held in memory (resumes within one process only).
 *
 * @since 0.1.0
 * @category constructors
 */
export const memory = (): Store => {
  const records = new Map<string, LaunchToken.LaunchRecord>()
  return {
    location: "memory",
    load: (key) => Effect.sync(() => Option.fromNullable(records.get(key))),
    save: (record) => Effect.sync(() => void records.set(record.key, record))
  }
}

const decode = Schema.decodeUnknownOption(Schema.parseJson(LaunchToken.LaunchRecord))
const encode = Schema.encodeSync(Schema.parseJson(LaunchToken.LaunchRecord))

/**
 * The file of a record in `directory`.
 *
 * @since 0.1.0
 * @category files
 */
export const fileName = (key: string): string => `launch-${key}.json`

/**
 * Records as files in `directory` (created, mode 0700, when the first record is saved).
 *
 * @since 0.1.0
 * @category constructors
 */
export const directory = (dir: string): Effect.Effect<Store, never, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fileOf = (key: string) => path.join(dir, fileName(key))
    const unavailable = (file: string) => (error: { readonly message: string }) =>
      new RecordUnavailable({ path: file, message: `${file}: ${error.message}` })
    const store: Store = {
      location: dir,
      load: (key) => {
        const file = fileOf(key)
        return Effect.gen(function*() {
          if (!(yield* fs.exists(file))) return Option.none()
          const info = yield* fs.stat(file)
          if (Number(info.size) > LaunchToken.limits.maxRecordBytes) return Option.none()
          const record = decode(yield* fs.readFileString(file))
          return Option.filter(record, (r) => r.key === key)
        }).pipe(Effect.mapError(unavailable(file)))
      },
      save: (record) => {
        const file = fileOf(record.key)
        const temporary = `${file}.${Math.random().toString(36).slice(2)}.tmp`
        return Effect.gen(function*() {
          yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 })
          yield* fs.writeFileString(temporary, `${encode(record)}\n`, { mode: 0o600 })
          yield* fs.rename(temporary, file)
        }).pipe(Effect.mapError(unavailable(file)))
      }
    }
    return store
  })
