/**
 * A throwaway PostgreSQL server for the cluster tests: Debian's `postgresql` binaries (found by
 * scripts/system-parts.mjs, which `npm test` runs first), a fresh data directory in
 * the temporary folder, a free port on loopback, trust authentication. PostgreSQL refuses to
 * run as root: as root, the directory is given to the `postgres` user and the server runs as
 * that user. `stop` ends the server and removes the directory.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chownSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import { requirePart } from "../../../../scripts/system-parts.mjs"

export interface Postgres {
  readonly url: string
  readonly port: number
  readonly stop: () => void
}

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/** Starts a server and waits until it accepts connections (`pg_ctl -w`). */
export const startPostgres = async (): Promise<Postgres> => {
  const bin = requirePart("postgresql")
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), "feeshare-pg-"))
  const data = join(dir, "data")
  const asRoot = userInfo().uid === 0
  if (asRoot) {
    const { uid, gid } = postgresUser()
    chownSync(dir, uid, gid)
  }
  const run = (program: string, args: ReadonlyArray<string>) => {
    const command = join(bin, program)
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
      : spawnSync(command, args, { encoding: "utf8" })
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr}${result.stdout}`)
  }
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"])
  run("pg_ctl", [
    "-D", data, "-w", "-l", join(dir, "server.log"), "start",
    "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  ])
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

const postgresUser = () => {
  const line = execFileSync("getent", ["passwd", "postgres"], { encoding: "utf8" }).trim()
  const [, , uid, gid] = line.split(":")
  return { uid: Number(uid), gid: Number(gid) }
}
