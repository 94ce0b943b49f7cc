/**
 * The two file operations the facade needs (reading a solana-keygen file, writing a new one),
 * as a `FileSystem` over `node:fs`, imported only when a key path is actually used, so that
 * the facade itself runs where there is no file system.
 */
import { Error as PlatformError, FileSystem } from "@effect/platform"
import { Effect, type Layer } from "effect"

const reasonOf = (cause: unknown): PlatformError.SystemErrorReason => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return "NotFound"
    case "EACCES":
    case "EPERM":
      return "PermissionDenied"
    case "EISDIR":
      return "BadResource"
    case "EEXIST":
      return "AlreadyExists"
    default:
      return "Unknown"
  }
}

/**
 * `FileSystem` whose `readFileString` and `writeFileString` (with its `flag` and `mode`) use
 * `node:fs`; every other operation is a no-op.
 */
export const layer: Layer.Layer<FileSystem.FileSystem> = FileSystem.layerNoop({
  readFileString: (path) =>
    Effect.tryPromise({
      // a keygen file is JSON, so UTF-8 whatever encoding is asked for
      try: () => import("node:fs/promises").then((fs) => fs.readFile(path, { encoding: "utf8" })),
      catch: (cause) =>
        new PlatformError.SystemError({
          reason: reasonOf(cause),
          module: "FileSystem",
          method: "readFileString",
          pathOrDescriptor: path
        })
    }),
  writeFileString: (path, data, options) =>
    Effect.tryPromise({
      try: () =>
        import("node:fs/promises").then((fs) =>
          fs.writeFile(path, data, { encoding: "utf8", flag: options?.flag, mode: options?.mode })
        ),
      catch: (cause) =>
        new PlatformError.SystemError({
          reason: reasonOf(cause),
          module: "FileSystem",
          method: "writeFileString",
          pathOrDescriptor: path
        })
    })
})
