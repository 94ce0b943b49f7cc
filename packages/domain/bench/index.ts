// Benchmark of @feeshare/domain: validated decode (`Envelope.decode` with the endpoint's
// success schema) of a 10,000-position envelope and of a 100-stage plan, against
// `JSON.parse` of the same text alone, measured in alternating rounds in this process (the
// last columns show Effect's parser alone on the same body, the path the compiled decoder
// replaces for valid bodies).
// Target: ratio <= 4.
import { Either, FastCheck as fc, Schema } from "effect"
import { Envelope, PublicKey } from "../src/index.js"
import { encodedPlan } from "../test/arbitraries.js"
import { endpoint } from "../test/endpoints.js"

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Median milliseconds per call of each operation, in alternating rounds after a warm-up. */
const measure = (calls: number, rounds: number, ops: ReadonlyArray<() => unknown>): Array<number> => {
  for (let i = 0; i < calls * 3; i++) for (const op of ops) op()
  const round = (op: () => unknown) => {
    const start = performance.now()
    for (let i = 0; i < calls; i++) op()
    return (performance.now() - start) / calls
  }
  const times = ops.map((): Array<number> => [])
  for (let r = 0; r < rounds; r++) ops.forEach((op, i) => times[i]!.push(round(op)))
  return times.map(median)
}

const key = (i: number): string => {
  const bytes = new Uint8Array(32)
  new DataView(bytes.buffer).setUint32(0, i * 2654435761)
  bytes[31] = i & 0xff
  return PublicKey.fromBytes(bytes)
}

/** A realistic claimable position: DAMM v2 ones carry the position info, others the pool. */
const position = (i: number) => ({
  isCustomFeeVault: i % 5 === 0,
  baseMint: key(i),
  isMigrated: i % 2 === 0,
  totalClaimableLamportsUserShare: i * 1_234,
  programId: key(1),
  quoteMint: key(2),
  virtualPool: i % 2 === 0 ? null : key(i + 1),
  virtualPoolAddress: i % 2 === 0 ? null : key(i + 2),
  virtualPoolClaimableAmount: i % 2 === 0 ? null : i * 10,
  virtualPoolClaimableLamportsUserShare: i % 2 === 0 ? null : i * 5,
  dammPoolClaimableAmount: i % 2 === 0 ? i * 7 : null,
  dammPoolClaimableLamportsUserShare: i % 2 === 0 ? i * 3 : null,
  dammPoolAddress: i % 2 === 0 ? key(i + 3) : null,
  dammPositionInfo: i % 2 === 0
    ? {
      position: key(i + 4),
      pool: key(i + 3),
      positionNftAccount: key(i + 5),
      tokenAMint: key(i),
      tokenBMint: key(2),
      tokenAVault: key(i + 6),
      tokenBVault: key(i + 7)
    }
    : null,
  claimableDisplayAmount: i / 1000,
  user: key(9),
  claimerIndex: i % 7,
  userBps: 10_000,
  ...(i % 5 === 0
    ? {
      customFeeVault: key(i + 8),
      customFeeVaultClaimerA: key(9),
      customFeeVaultClaimerB: key(10),
      customFeeVaultClaimerSide: "A"
    }
    : {})
})

const positionsText = JSON.stringify({ success: true, response: Array.from({ length: 10_000 }, (_, i) => position(i)) })
const stageDeps = Array.from({ length: 100 }, (_, i) => (i === 0 ? [] : i % 10 === 0 ? [i - 10, i - 1] : [i - 1]))
const [plan] = fc.sample(encodedPlan(stageDeps, "v0"), { seed: 7, numRuns: 1 })
const planText = JSON.stringify({ success: true, response: plan })

const positionsSchema = endpoint("claims", "positions").successSchema
const planSchema = endpoint("claims", "createPlan").successSchema
const context = { status: 200, operation: "bench" }

const check = (result: Either.Either<unknown, { readonly message: string }>) => {
  if (Either.isLeft(result)) throw new Error(`benchmark input did not decode: ${result.left.message}`)
}
check(Envelope.decode(positionsSchema, positionsText, context))
check(Envelope.decode(planSchema, planText, context))

const cases = [
  {
    name: `10,000 positions (${(positionsText.length / 1e6).toFixed(1)} MB)`,
    calls: 3,
    rounds: 15,
    decode: () => Envelope.decode(positionsSchema, positionsText, context),
    effect: () => Schema.decodeUnknownEither(positionsSchema, { errors: "first" })(JSON.parse(positionsText)),
    parse: () => JSON.parse(positionsText)
  },
  {
    name: `100-stage plan (${(planText.length / 1e3).toFixed(0)} kB)`,
    calls: 50,
    rounds: 15,
    decode: () => Envelope.decode(planSchema, planText, context),
    effect: () => Schema.decodeUnknownEither(planSchema, { errors: "first" })(JSON.parse(planText)),
    parse: () => JSON.parse(planText)
  }
]

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
const ms = (n: number) => `${n.toFixed(2)} ms`
const lines = [
  row(["case", "JSON.parse", "Envelope.decode", "ratio", "target", "JSON.parse + Effect parser alone", "its ratio"]),
  row(["---", "---:", "---:", "---:", "---", "---:", "---:"])
]
for (const c of cases) {
  const [parse, decode, effect] = measure(c.calls, c.rounds, [c.parse, c.decode, c.effect])
  const ratio = decode / parse
  lines.push(row([
    c.name,
    ms(parse),
    ms(decode),
    `${ratio.toFixed(2)}×`,
    `≤ 4× ${ratio <= 4 ? "✓" : "✗"}`,
    ms(effect),
    `${(effect / parse).toFixed(2)}×`
  ]))
}
console.log(
  `@feeshare/domain (node ${process.version}, ${process.arch}; medians of ${
    cases[0]?.rounds
  } alternating rounds after warm-up)`
)
console.log(lines.join("\n"))
