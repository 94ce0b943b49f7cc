/**
 * Launch records as files: one small JSON file per launch in a directory, named by the
 * record's key (a digest of the launch's inputs and wallet). A file is written whole to a
 * temporary name and renamed over the old one (mode 0600), so a crash leaves the previous
 * record or the new one, never half of one; a record over
 * `LaunchToken.limits.maxRecordBytes`, or one that is not a record of this key, is not used.
 *
 * @since 0.1.0
 */
import { FileSystem, Path } from "@effect/platform"
import { LaunchToken } from "@feeshare/domain"
import { Effect, Option, Schema } from "effect"
import { RecordUnavailable, type Store } from "./LaunchRecord.js"

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
