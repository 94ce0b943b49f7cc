/**
 * Cold start of `feeshare --help` against `node -e 0`, measured in this run: each command is
 * started `runs` times as a fresh process (interleaved, so that machine load hits all alike)
 * and the median wall time is compared. The executable is built first, as `npm pack` builds
 * it (the same figure from the installed tarball is in the consumer package's bench).
 *
 * Also a stand-in for the official SDK's start-up: a process that imports its dependencies
 * (axios, @solana/web3.js, @solana/spl-token, @coral-xyz/anchor), those of them the
 * workspace has installed; the ones it has not are named in the output (the stand-in is then
 * a lower bound of the official SDK's import time). Target (issue 34): `feeshare --help` at
 * most 3.0x `node -e 0` and at most 0.3x the stand-in.
 */
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "../scripts/build.js"

const outdir = fileURLToPath(new URL("../.build/bench", import.meta.url))
const bin = join(outdir, "feeshare.js")
const runs = Number(process.env.BENCH_RUNS ?? 15)

const officialDependencies = ["axios", "@solana/web3.js", "@solana/spl-token", "@coral-xyz/anchor"]
const require = createRequire(import.meta.url)
const resolves = (name: string): boolean => {
  try {
    require.resolve(name)
    return true
  } catch {
    return false
  }
}
const installed = officialDependencies.filter(resolves)
const missing = officialDependencies.filter((name) => !installed.includes(name))

const cases: ReadonlyArray<{ readonly name: string; readonly args: ReadonlyArray<string>; readonly env: object }> = [
  { name: "node -e 0 (baseline)", args: ["-e", "0"], env: {} },
  { name: "feeshare --help", args: [bin, "--help"], env: {} },
  { name: "feeshare --version", args: [bin, "--version"], env: {} },
  {
    name: "official-SDK stand-in (its dependencies)",
    // resolved from this package, as the workspace installed them
    args: [
      "--input-type=module",
      "-e",
      installed.map((name) => `await import(${JSON.stringify(require.resolve(name))})`).join(";")
    ],
    env: {}
  }
]

await build(outdir)

const times = cases.map(() => [] as Array<number>)
for (let i = 0; i < runs; i++) {
  cases.forEach((c, j) => {
    const started = process.hrtime.bigint()
    const result = spawnSync(process.execPath, [...c.args], { env: { ...process.env, ...c.env }, stdio: "ignore" })
    if (result.status !== 0) throw new Error(`${c.name} exited ${result.status}`)
    times[j]!.push(Number(process.hrtime.bigint() - started) / 1e6)
  })
}

const median = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const baseline = median(times[0]!)
console.log(`cold start, median of ${runs} fresh processes each (Node ${process.version})`)
console.log(`${"case".padEnd(36)} ${"median ms".padStart(10)} ${"ratio".padStart(7)}`)
cases.forEach((c, j) => {
  const m = median(times[j]!)
  console.log(`${c.name.padEnd(42)} ${m.toFixed(0).padStart(10)} ${(m / baseline).toFixed(2).padStart(6)}x`)
})
const standIn = median(times[3]!)
console.log(`feeshare --help / official-SDK stand-in: ${(median(times[1]!) / standIn).toFixed(2)}x`)
console.log(
  `stand-in imports: ${installed.join(", ")}${missing.length === 0 ? "" : `; not installed: ${missing.join(", ")}`}`
)
