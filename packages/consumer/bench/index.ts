/**
 * What a user who installs the tarballs gets, measured in one run: every published package is
 * packed, `feeshare` and `@feeshare/cli` are installed into fresh projects, and then
 * - installed size (disk usage) of `feeshare`, of the CLI's whole node_modules, and of an
 *   Effect application's node_modules with the Effect packages and their peers;
 * - a fresh `node` importing `feeshare` and constructing a client, vs `node -e 0`;
 * - `feeshare --help` from the installed bin, vs `node -e 0`;
 * - a browser bundle of a page using the facade: minified and gzipped size.
 * Processes are started interleaved (so machine load hits all alike); medians are compared.
 *
 * Run: `npm run bench -w @feeshare/consumer` (BENCH_SPAWNS, default 15)
 */
import { spawnSync } from "node:child_process"
import { mkdir } from "node:fs/promises"
import { join } from "node:path"
import * as BrowserBundle from "../support/BrowserBundle.js"
import { diskUsage, makeProject, packAll, remove, temporaryDirectory } from "../support/Tarballs.js"

const spawns = Number(process.env.BENCH_SPAWNS ?? 15)
const median = (samples: ReadonlyArray<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const root = await temporaryDirectory("feeshare-bench-")
try {
  const tarballs = await packAll(
    await mkdir(join(root, "tarballs"), { recursive: true }).then(() => join(root, "tarballs"))
  )
  const facade = join(root, "facade")
  const cli = join(root, "cli")
  await mkdir(facade)
  await mkdir(cli)
  await makeProject(facade, [tarballs.get("feeshare") ?? ""])
  await makeProject(cli, [tarballs.get("@feeshare/cli") ?? ""])
  const effect = join(root, "effect")
  await mkdir(effect)
  await makeProject(effect, [
    ...["@feeshare/domain", "@feeshare/client", "@feeshare/solana"].map((name) => tarballs.get(name) ?? ""),
    "effect@^3.22.4",
    "@effect/platform@^0.97.2",
    "@effect/platform-node@^0.108.2"
  ])

  const cases = [
    { name: "node -e 0 (baseline)", cwd: facade, command: process.execPath, args: ["-e", "0"] },
    {
      name: "import feeshare + new FeeShare()",
      cwd: facade,
      command: process.execPath,
      args: [
        "--input-type=module",
        "-e",
        "const { FeeShare } = await import('feeshare'); new FeeShare({ baseUrl: 'http://127.0.0.1:1/api/v1' })"
      ]
    },
    {
      name: "feeshare --help (installed bin)",
      cwd: cli,
      command: join(cli, "node_modules", ".bin", "feeshare"),
      args: ["--help"]
    },
    {
      name: "feeshare --version (installed bin)",
      cwd: cli,
      command: join(cli, "node_modules", ".bin", "feeshare"),
      args: ["--version"]
    }
  ]
  const times = cases.map(() => [] as Array<number>)
  for (let i = 0; i < spawns; i++) {
    cases.forEach((c, j) => {
      const started = process.hrtime.bigint()
      const result = spawnSync(c.command, c.args, { cwd: c.cwd, stdio: "ignore" })
      if (result.status !== 0) throw new Error(`${c.name} exited ${result.status}`)
      times[j]?.push(Number(process.hrtime.bigint() - started) / 1e6)
    })
  }

  const browser = await BrowserBundle.build(facade)

  const baseline = median(times[0] ?? [])
  console.log(`installed tarballs, Node ${process.version}; ${spawns} fresh processes per case (median)`)
  console.log(`${"case".padEnd(40)} ${"median ms".padStart(10)} ${"ratio".padStart(7)}`)
  cases.forEach((c, j) => {
    const m = median(times[j] ?? [])
    console.log(`${c.name.padEnd(40)} ${m.toFixed(0).padStart(10)} ${(m / baseline).toFixed(2).padStart(6)}x`)
  })
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`
  console.log(
    `installed size: feeshare ${mb(await diskUsage(join(facade, "node_modules", "feeshare")))}` +
      ` (its project's node_modules ${mb(await diskUsage(join(facade, "node_modules")))});` +
      ` @feeshare/cli with its dependencies ${mb(await diskUsage(join(cli, "node_modules")))};` +
      ` an Effect application with domain, client, solana and their peers ${
        mb(await diskUsage(join(effect, "node_modules")))
      }`
  )
  console.log(
    `browser bundle of a page using FeeShare: ${(browser.bytes / 1000).toFixed(0)} kB minified, ${
      (browser.gzipped / 1000).toFixed(0)
    } kB gzipped`
  )
} finally {
  await remove(root)
}
