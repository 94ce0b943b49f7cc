// Benchmarks of @feeshare/solana, each against a baseline measured in the same run.
//   1. verify + co-sign of a v0 and a v1 plan stage vs raw Kit (decode + partiallySignTransaction
//      + re-encode), which checks nothing. Target: ratio <= 1.5.
//   2. PlanExecutor wall time for a 24-stage plan of depth 3 on a chain with a fixed 200 ms
//      confirmation, beside sequential submission (24 x 200 ms) and the target 1.2 x depth x 200 ms.
import { Plan, WireTransaction as Wire } from "@feeshare/domain"
import {
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction
} from "@solana/kit"
import { Effect, Layer } from "effect"
import * as Chain from "../src/Chain.js"
import * as LocalSigner from "../src/LocalSigner.js"
import * as PlanExecutor from "../src/PlanExecutor.js"
import * as Signers from "../src/Signers.js"
import * as WireTransaction from "../src/WireTransaction.js"
import * as FakeChain from "../test/helpers/FakeChain.js"
import { buildStage, plan, randomBlockhash, transfer } from "../test/helpers/StageBuilder.js"

const median = (xs: Array<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/**
 * Median per-operation times in microseconds of `a` and `b`, measured in alternating rounds
 * of `n` operations (so that load from other processes hits both alike).
 */
const measurePair = async (n: number, rounds: number, a: () => Promise<unknown>, b: () => Promise<unknown>) => {
  for (let i = 0; i < n; i++) {
    await a()
    await b()
  }
  const round = async (op: () => Promise<unknown>) => {
    const start = performance.now()
    for (let i = 0; i < n; i++) await op()
    return ((performance.now() - start) * 1000) / n
  }
  const as: Array<number> = []
  const bs: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    as.push(await round(a))
    bs.push(await round(b))
  }
  return [median(as), median(bs)] as const
}

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`

const signing = async () => {
  const [service, caller, dest] = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner()
  ])
  const signer = LocalSigner.fromKeyPairSigner(caller)
  const lines: Array<string> = []
  for (const format of ["v0", "v1"] as const) {
    const stage = await buildStage({
      id: format,
      format,
      feePayer: service,
      instructions: [transfer(caller.address, dest.address, 1_000n), transfer(caller.address, service.address, 2_000n)],
      lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000n },
      budget: { computeUnitLimit: 60_000, loadedAccountsDataSizeLimit: 128 * 1024, priorityFee: 10n }
    })
    const decoder = getTransactionDecoder()
    const raw = () => {
      const transaction = decoder.decode(Wire.toBytes(stage.transaction, "base64")!)
      return partiallySignTransaction([caller.keyPair], transaction).then(getBase64EncodedWireTransaction)
    }
    const ours = () =>
      Effect.runPromise(WireTransaction.verifyStage(stage, [signer]).pipe(Effect.flatMap(WireTransaction.sign)))
    const [baseline, checked] = await measurePair(200, 15, raw, ours)
    lines.push(row([
      `verify + sign ${format} (${stage.size.bytes} B)`,
      `${baseline.toFixed(0)} µs`,
      `${checked.toFixed(0)} µs`,
      `${(checked / baseline).toFixed(2)}×`,
      "≤ 1.50×"
    ]))
  }
  return lines
}

const executor = async () => {
  const [service, caller, dest] = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner()
  ])
  const lifetime = { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000_000n }
  const width = 8
  const stages: Array<Plan.Stage> = []
  for (let level = 0; level < 3; level++) {
    for (let i = 0; i < width; i++) {
      stages.push(
        await buildStage({
          id: `l${level}-${i}`,
          dependsOn: level === 0 ? [] : [`l${level - 1}-${i}`],
          format: i % 2 === 0 ? "v1" : "v0",
          feePayer: service,
          instructions: [transfer(caller.address, dest.address, BigInt(level * width + i + 1))],
          lifetime
        })
      )
    }
  }
  const thePlan = plan(stages)
  const depth = Plan.depth(thePlan)
  const confirmation = 200
  const runOnce = async () => {
    const chain = FakeChain.make({
      behaviours: [{ latencyMs: confirmation }],
      blockMillis: 400,
      pollMillis: 10,
      lifetimeOf: () => 1_000_000n
    })
    const start = performance.now()
    await Effect.runPromise(
      PlanExecutor.execute(thePlan, { rebuild: () => Effect.die("no rebuild expected") }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(caller)))
      )
    )
    return performance.now() - start
  }
  await runOnce()
  const times: Array<number> = []
  for (let i = 0; i < 5; i++) times.push(await runOnce())
  const wall = median(times)
  const sequential = stages.length * confirmation
  const target = 1.2 * depth * confirmation
  return [
    row([
      `execute ${stages.length} stages, depth ${depth}, ${confirmation} ms confirmation (poll 10 ms)`,
      `${sequential} ms (sequential)`,
      `${wall.toFixed(0)} ms`,
      `${(wall / sequential).toFixed(2)}× of sequential; ${
        (wall / (depth * confirmation)).toFixed(2)
      }× of depth × ${confirmation} ms`,
      `≤ ${target.toFixed(0)} ms (1.2 × depth × ${confirmation} ms)`
    ])
  ]
}

const main = async () => {
  console.log(`@feeshare/solana benchmarks (node ${process.version}, ${process.arch})\n`)
  console.log(row(["case", "baseline", "ours", "ratio", "target"]))
  console.log(row(["---", "---:", "---:", "---:", "---"]))
  for (const line of await signing()) console.log(line)
  for (const line of await executor()) console.log(line)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
