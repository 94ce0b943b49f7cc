/**
 * Files that hold secrets (key files, the credentials file) should be readable by their owner
 * only. A group- or world-readable one gets one warning per process on stderr (the command
 * still runs: the file is the user's), and a world-writable directory of ours is tightened.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

const warned = new Set<string>()

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`

/** Warns once when `path` (a `what`) can be read by other users. Never fails. */
export const warnIfShared = (path: string, what: string) =>
  Effect.gen(function*() {
    if (warned.has(path)) return
    const fs = yield* FileSystem.FileSystem
    const info = yield* fs.stat(path)
    if ((info.mode & 0o077) === 0) return
    warned.add(path)
    yield* Console.error(
      `feeshare: warning: ${what} ${path} can be read by other users (mode ${octal(info.mode)}); run: chmod 600 ${path}`
    )
  }).pipe(Effect.ignore)

/**
 * Makes `dir` private (0700) when others may write into it and it is ours to change: owned by
 * this user and not a shared sticky directory such as /tmp. Never fails.
 */
export const tightenDirectory = (dir: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* fs.stat(dir)
    const sticky = (info.mode & 0o1000) !== 0
    const owned = typeof process.getuid !== "function" || Option.contains(info.uid, process.getuid())
    if ((info.mode & 0o022) === 0 || sticky || !owned) return
    yield* fs.chmod(dir, 0o700)
    yield* Console.error(
      `feeshare: warning: ${dir} was writable by other users (mode ${octal(info.mode)}); made it 0700`
    )
  }).pipe(Effect.ignore)
