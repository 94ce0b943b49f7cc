/**
 * The credentials file: API keys obtained by `feeshare auth login`, one per base URL, in
 * `$FEESHARE_CONFIG_DIR/credentials.json`, else `$XDG_CONFIG_HOME/feeshare/credentials.json`,
 * else `~/.config/feeshare/credentials.json`. The directory is created with mode 0700 and
 * the file is written with mode 0600 (through a temporary file and a rename).
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { homedir } from "node:os"
import * as Permissions from "./internal/permissions.js"

/**
 * The credentials file could not be read or written.
 *
 * @since 0.1.0
 * @category errors
 */
export class CredentialsError extends Schema.TaggedError<CredentialsError>()("CredentialsError", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * One stored key.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Entry = Schema.Struct({
  apiKey: Schema.Redacted(Schema.String),
  keyId: Schema.String,
  keyName: Schema.String,
  wallet: Schema.String,
  savedAt: Schema.String
})

/**
 * @since 0.1.0
 * @category models
 */
export type Entry = typeof Entry.Type

/**
 * The file: keys by base URL.
 *
 * @since 0.1.0
 * @category schemas
 */
export const File = Schema.Struct({
  version: Schema.Literal(1),
  keys: Schema.Record({ key: Schema.String, value: Entry })
})

/**
 * @since 0.1.0
 * @category models
 */
export type File = typeof File.Type

/**
 * File mode of the credentials file.
 *
 * @since 0.1.0
 * @category constants
 */
export const fileMode = 0o600

/**
 * The environment the location is read from.
 *
 * @since 0.1.0
 * @category models
 */
export interface Environment {
  readonly FEESHARE_CONFIG_DIR?: string | undefined
  readonly XDG_CONFIG_HOME?: string | undefined
  readonly HOME?: string | undefined
}

const nonEmpty = (text: string | undefined): text is string => text !== undefined && text !== ""

/**
 * The directory holding `credentials.json`.
 *
 * @since 0.1.0
 * @category location
 */
export const directory = (env: Environment = process.env): string =>
  nonEmpty(env.FEESHARE_CONFIG_DIR)
    ? env.FEESHARE_CONFIG_DIR
    : `${
      nonEmpty(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : `${nonEmpty(env.HOME) ? env.HOME : homedir()}/.config`
    }/feeshare`

/**
 * The path of `credentials.json`.
 *
 * @since 0.1.0
 * @category location
 */
export const path = (env: Environment = process.env): string => `${directory(env)}/credentials.json`

/**
 * The key a base URL is stored under (no trailing slash).
 *
 * @since 0.1.0
 * @category location
 */
export const keyOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, "")

const empty: File = { version: 1, keys: {} }

const decodeFile = Schema.decodeUnknown(Schema.parseJson(File))
const encodeFile = Schema.encode(Schema.parseJson(File, { space: 2 }))

/**
 * Reads the file; a missing file is an empty one.
 *
 * @since 0.1.0
 * @category io
 */
export const read = Effect.fn("Credentials.read")(function*(file: string = path()) {
  const fs = yield* FileSystem.FileSystem
  const exists = yield* fs.exists(file).pipe(Effect.orElseSucceed(() => false))
  if (!exists) return empty
  yield* Permissions.warnIfShared(file, "the credentials file")
  const text = yield* fs.readFileString(file).pipe(
    Effect.mapError(() => new CredentialsError({ path: file, message: `${file}: cannot be read` }))
  )
  return yield* decodeFile(text).pipe(
    Effect.mapError(() =>
      new CredentialsError({
        path: file,
        message: `${file}: not a feeshare credentials file (remove it and log in again)`
      })
    )
  )
})

/**
 * The stored key for a base URL, if any.
 *
 * @since 0.1.0
 * @category io
 */
export const lookup = (baseUrl: string, file: string = path()) =>
  Effect.map(read(file), (contents) => Option.fromNullable(contents.keys[keyOf(baseUrl)]))

/**
 * Stores a key for a base URL (replacing the previous one), with mode 0600.
 *
 * @since 0.1.0
 * @category io
 */
export const save = Effect.fn("Credentials.save")(function*(
  baseUrl: string,
  entry: Omit<Entry, "savedAt">,
  file: string = path()
) {
  const fs = yield* FileSystem.FileSystem
  const paths = yield* Path.Path
  const current = yield* read(file)
  const next: File = {
    version: 1,
    keys: { ...current.keys, [keyOf(baseUrl)]: { ...entry, savedAt: new Date().toISOString() } }
  }
  const failed = (what: string) => () => new CredentialsError({ path: file, message: `${file}: cannot ${what}` })
  const text = yield* encodeFile(next).pipe(Effect.mapError(failed("encode the credentials")))
  const dir = paths.dirname(file)
  yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 }).pipe(Effect.mapError(failed("create its directory")))
  yield* Permissions.tightenDirectory(dir)
  const temporary = `${file}.${process.pid}.tmp`
  yield* fs.writeFileString(temporary, `${text}\n`, { mode: fileMode }).pipe(Effect.mapError(failed("be written")))
  // the mode given to open() is masked by the umask: set it explicitly before the rename
  yield* fs.chmod(temporary, fileMode).pipe(Effect.mapError(failed("be made private")))
  yield* fs.rename(temporary, file).pipe(Effect.mapError(failed("be written")))
  return file
})
