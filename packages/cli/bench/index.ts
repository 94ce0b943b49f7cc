/**
 * Cold start of `feeshare --help` against `node -e 0`, measured in this run: each command is
 * started `runs` times as a fresh process (interleaved, so that machine load hits all alike)
 * and the median wall time is compared. The executable is built first, as `npm pack` builds
 * it (the same figure from the installed tarball is in the consumer package's bench).
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "../scripts/build.js"

const outdir = fileURLToPath(new URL("../.build/bench", import.meta.url))
const bin = join(outdir, "feeshare.js")
const runs = Number(process.env.BENCH_RUNS ?? 15)

const cases = [
  { name: "node -e 0 (baseline)", args: ["-e", "0"], env: {} },
  { name: "feeshare --help", args: [bin, "--help"], env: {} },
  { name: "feeshare --version", args: [bin, "--version"], env: {} }
] as const

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
  console.log(`${c.name.padEnd(36)} ${m.toFixed(0).padStart(10)} ${(m / baseline).toFixed(2).padStart(6)}x`)
})
