/**
 * Where a keeper pass spends its time: one pass on a fresh sandbox (the bench's positions),
 * every span's total and count (the steps, the workflow engine's, the pass), and the time to
 * build the keeper's layers apart from the pass.
 *
 * Run: npx tsx --conditions=@feeshare/source packages/keeper/bench/profile.ts
 */
import { Effect, Layer, Option, Tracer } from "effect"
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { createRequire } from "node:module"
import * as Keeper from "../src/Keeper.js"
import { keeper, keyFile, positions, sandboxLayer, temporaryDirectory } from "../test/support/fixture.js"

const totals = new Map<string, { millis: number; count: number }>()

/** Every statement libsql runs (the journal's and the workflow engine's), timed by its text. */
const statements = new Map<string, { millis: number; count: number }>()
const require = createRequire(import.meta.url)
const libsql = require("libsql") as { prototype: { prepare: (sql: string) => Record<string, unknown> } }
const prepare = libsql.prototype.prepare
libsql.prototype.prepare = function(this: unknown, sql: string) {
  const statement = prepare.call(this, sql)
  for (const method of ["run", "all"]) {
    const original = statement[method] as (...args: Array<unknown>) => unknown
    statement[method] = (...args: Array<unknown>) => {
      const start = performance.now()
      try {
        return original.apply(statement, args)
      } finally {
        const key = sql.replace(/\s+/g, " ").slice(0, 100)
        const entry = statements.get(key) ?? { millis: 0, count: 0 }
        entry.millis += performance.now() - start
        entry.count++
        statements.set(key, entry)
      }
    }
  }
  return statement
}

let ids = 0

/** A span that adds its duration to `totals` under its name when it ends. */
const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const attributes = new Map<string, unknown>()
    const span: Tracer.Span = {
      _tag: "Span",
      name,
      spanId: String(++ids),
      traceId: "profile",
      parent,
      context,
      status: { _tag: "Started", startTime },
      attributes,
      links: [...links],
      sampled: true,
      kind,
      end: (endTime) => {
        const statement = attributes.get("db.statement")
        if (typeof statement === "string") {
          const key = `  sql: ${statement.replace(/\s+/g, " ").slice(0, 90)}`
          const entry = totals.get(key) ?? { millis: 0, count: 0 }
          entry.millis += Number(endTime - startTime) / 1e6
          entry.count++
          totals.set(key, entry)
        }
        const entry = totals.get(name) ?? { millis: 0, count: 0 }
        entry.millis += Number(endTime - startTime) / 1e6
        entry.count++
        totals.set(name, entry)
      },
      attribute: (key, value) => {
        attributes.set(key, value)
      },
      event: () => {},
      addLinks: () => {}
    }
    return span
  },
  context: (f) => f()
})

const program = Effect.gen(function*() {
  const dir = temporaryDirectory("keeper-profile-")
  const wallets = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) => keyFile(dir, `w${i}`))
  yield* positions({ wallets, tokens: 2, claimersPerToken: 5, buySol: () => 2n })
  const layer = yield* keeper(wallets, { minClaimableLamports: 1, transactionFormat: "v1" })
  totals.clear()
  statements.clear()
  const start = performance.now()
  yield* Effect.scoped(
    Effect.gen(function*() {
      const context = yield* Layer.build(layer)
      const built = performance.now()
      // a CPU profile of the pass alone (set KEEPER_PROFILE_CPU=file.cpuprofile)
      const cpuFile = process.env.KEEPER_PROFILE_CPU
      const session = new Session()
      if (cpuFile !== undefined) {
        session.connect()
        yield* Effect.promise(() => session.post("Profiler.enable").then(() => session.post("Profiler.start")))
      }
      const report = yield* Keeper.pass.pipe(Effect.provide(context))
      const passed = performance.now()
      if (cpuFile !== undefined) {
        const { profile } = yield* Effect.promise(() => session.post("Profiler.stop"))
        writeFileSync(cpuFile, JSON.stringify(profile))
        session.disconnect()
      }
      const claimed = report.wallets.flatMap((w) => w.positions).filter((p) => p.outcome === "claimed").length
      console.log(`layers ${(built - start).toFixed(0)} ms, pass ${(passed - built).toFixed(0)} ms, ${claimed} claimed`)
    }).pipe(Effect.withTracer(tracer))
  )
  const rows = [...totals.entries()].sort((a, b) => b[1].millis - a[1].millis)
  for (const [name, { count, millis }] of rows.slice(0, 70)) {
    console.log(`${millis.toFixed(0).padStart(7)} ms ${String(count).padStart(5)}x  ${name}`)
  }
  console.log("libsql statements (text, count, total time):")
  for (const [text, { count, millis }] of [...statements.entries()].sort((a, b) => b[1].millis - a[1].millis)) {
    console.log(`${millis.toFixed(0).padStart(7)} ms ${String(count).padStart(5)}x  ${text}`)
  }
}).pipe(Effect.scoped, Effect.provide(sandboxLayer({ port: 0, slotMillis: 5, seed: "keeper-bench" })))

Effect.runPromise(program.pipe(Effect.map(() => Option.none()))).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
