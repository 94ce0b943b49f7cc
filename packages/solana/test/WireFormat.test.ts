// The hand-written wire parser (src/internal/wireFormat.ts) against Kit:
// - random legacy/v0/v1 transactions compiled by Kit parse to exactly the fields Kit's
//   decoders give, and `WireTransaction.decode` reports what the former Kit-based decode did;
// - random mutations of them are refused, or, when accepted, Kit re-encodes what was parsed
//   to the same bytes (no silent misparse); and every input the former Kit-based decode
//   refused is refused with the same tag (the parser is only ever stricter, and then says
//   NonCanonicalTransaction).
import { assert, describe, it } from "@effect/vitest"
import { PublicKey, WireTransaction as Wire } from "@feeshare/domain"
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  type CompiledTransactionMessage,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayer,
  setTransactionMessageHeapSize,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLoadedAccountsDataSizeLimit,
  setTransactionMessagePriorityFeeLamports,
  type SignatureBytes,
  type Transaction,
  type TransactionMessage,
  type TransactionMessageWithFeePayer
} from "@solana/kit"
import { Effect, FastCheck as fc } from "effect"
import { createHash } from "node:crypto"
import * as WireFormat from "../src/internal/wireFormat.js"
import * as WireTransaction from "../src/WireTransaction.js"

// ---------------------------------------------------------------------------
// random transactions, compiled by Kit
// ---------------------------------------------------------------------------

interface Spec {
  readonly version: "legacy" | 0 | 1
  /** 32-byte keys, all distinct: [payer, ...programs, ...accounts, table]. */
  readonly keys: ReadonlyArray<Uint8Array>
  readonly programCount: number
  readonly instructions: ReadonlyArray<{
    readonly program: number
    readonly accounts: ReadonlyArray<{ readonly index: number; readonly role: 0 | 1 | 2 | 3 }>
    readonly data: Uint8Array
  }>
  /** A raw compute-budget instruction (legacy/v0), to exercise unusual budgets. */
  readonly rawBudget: Uint8Array | undefined
  readonly budget: {
    readonly computeUnitLimit: number | undefined
    readonly loadedAccountsDataSizeLimit: number | undefined
    readonly heapSize: number | undefined
    readonly priorityFee: bigint | undefined
  }
  /** v0: how many pool accounts the lookup table holds (from the end of the pool). */
  readonly tableSize: number
  readonly blockhash: Uint8Array
  /** Per signature slot: a random signature, or none (zeroes). */
  readonly signed: ReadonlyArray<Uint8Array | undefined>
}

const key = fc.uint8Array({ minLength: 32, maxLength: 32 })
const POOL = 8

const spec: fc.Arbitrary<Spec> = fc.record({
  version: fc.constantFrom("legacy" as const, 0 as const, 1 as const),
  keys: fc.uniqueArray(key, { minLength: 1 + 3 + POOL + 1, maxLength: 1 + 3 + POOL + 1, selector: (k) => k.join(",") }),
  programCount: fc.integer({ min: 1, max: 3 }),
  instructions: fc.array(
    fc.record({
      program: fc.nat(2),
      accounts: fc.array(
        fc.record({ index: fc.nat(POOL - 1), role: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const) }),
        { maxLength: 6 }
      ),
      data: fc.uint8Array({ maxLength: 40 })
    }),
    { maxLength: 5 }
  ),
  rawBudget: fc.option(fc.uint8Array({ minLength: 1, maxLength: 10 }), { nil: undefined }),
  budget: fc.record({
    computeUnitLimit: fc.option(fc.integer({ min: 1, max: 1_400_000 }), { nil: undefined }),
    loadedAccountsDataSizeLimit: fc.option(fc.integer({ min: 1, max: 64 * 1024 * 1024 }), { nil: undefined }),
    heapSize: fc.option(fc.integer({ min: 32, max: 256 }).map((k) => k * 1024), { nil: undefined }),
    priorityFee: fc.option(fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }), { nil: undefined })
  }),
  tableSize: fc.nat(POOL),
  blockhash: key,
  signed: fc.array(fc.option(fc.uint8Array({ minLength: 64, maxLength: 64 }), { nil: undefined }), {
    minLength: 13,
    maxLength: 13
  })
})

const addressOf = (bytes: Uint8Array): Address => address(PublicKey.base58.encode(bytes))
const computeBudget = address(WireTransaction.computeBudgetProgram)

const withBudget = <M extends TransactionMessage & TransactionMessageWithFeePayer>(s: Spec, m: M): M => {
  const { computeUnitLimit, heapSize, loadedAccountsDataSizeLimit } = s.budget
  let out = m
  if (computeUnitLimit !== undefined) out = setTransactionMessageComputeUnitLimit(computeUnitLimit, out)
  if (loadedAccountsDataSizeLimit !== undefined) {
    out = setTransactionMessageLoadedAccountsDataSizeLimit(loadedAccountsDataSizeLimit, out)
  }
  if (heapSize !== undefined) out = setTransactionMessageHeapSize(heapSize, out)
  return out
}

/** Compiles a spec with Kit and fills the signature slots; `undefined` when Kit refuses it. */
const build = (s: Spec): { readonly bytes: Uint8Array; readonly transaction: Transaction } | undefined => {
  const [payer, ...rest] = s.keys.map(addressOf)
  const programs = rest.slice(0, s.programCount)
  const pool = rest.slice(3, 3 + POOL)
  const table = rest[3 + POOL]!
  const instructions: Array<Instruction> = s.instructions.map((ix) => ({
    programAddress: programs[ix.program % programs.length]!,
    accounts: ix.accounts.map((a) => ({ address: pool[a.index]!, role: a.role })),
    data: ix.data
  }))
  if (s.version !== 1 && s.rawBudget !== undefined) {
    instructions.push({ programAddress: computeBudget, data: s.rawBudget })
  }
  const lifetime = { blockhash: PublicKey.base58.encode(s.blockhash) as Blockhash, lastValidBlockHeight: 1n }
  const fee = s.budget.priorityFee
  let compiled: Transaction
  try {
    if (s.version === 1) {
      let m = withBudget(
        s,
        setTransactionMessageLifetimeUsingBlockhash(
          lifetime,
          setTransactionMessageFeePayer(payer!, createTransactionMessage({ version: 1 }))
        )
      )
      if (fee !== undefined) m = setTransactionMessagePriorityFeeLamports(fee, m)
      compiled = compileTransaction(appendTransactionMessageInstructions(instructions, m))
    } else if (s.version === 0) {
      let m = withBudget(
        s,
        setTransactionMessageLifetimeUsingBlockhash(
          lifetime,
          setTransactionMessageFeePayer(payer!, createTransactionMessage({ version: 0 }))
        )
      )
      if (fee !== undefined) m = setTransactionMessageComputeUnitPrice(fee, m)
      const full = appendTransactionMessageInstructions(instructions, m)
      compiled = compileTransaction(
        s.tableSize === 0
          ? full
          : compressTransactionMessageUsingAddressLookupTables(full, { [table]: pool.slice(POOL - s.tableSize) })
      )
    } else {
      let m = withBudget(
        s,
        setTransactionMessageLifetimeUsingBlockhash(
          lifetime,
          setTransactionMessageFeePayer(payer!, createTransactionMessage({ version: "legacy" }))
        )
      )
      if (fee !== undefined) m = setTransactionMessageComputeUnitPrice(fee, m)
      compiled = compileTransaction(appendTransactionMessageInstructions(instructions, m))
    }
  } catch {
    return undefined // e.g. a program also used as a writable account
  }
  const signatures: Record<string, SignatureBytes | null> = {}
  Object.keys(compiled.signatures).forEach((signer, i) => {
    const signature = s.signed[i]
    signatures[signer] = signature === undefined || signature.every((b) => b === 0) ? null : signature as SignatureBytes
  })
  const transaction: Transaction = { ...compiled, signatures: signatures as Transaction["signatures"] }
  return { bytes: new Uint8Array(getTransactionEncoder().encode(transaction)), transaction }
}

const built = spec.map(build).filter((b): b is NonNullable<typeof b> => b !== undefined)

// ---------------------------------------------------------------------------
// the former Kit-based decode, as the reference
// ---------------------------------------------------------------------------

type Reference =
  | "MalformedTransaction"
  | "NonCanonicalTransaction"
  | "Crash"
  | { readonly message: CompiledTransactionMessage; readonly transaction: Transaction }

const equalBytes = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (x: number, i: number) => x === b[i])

const reference = (bytes: Uint8Array): Reference => {
  let transaction: Transaction
  try {
    transaction = getTransactionDecoder().decode(bytes)
  } catch {
    return "MalformedTransaction"
  }
  let message: CompiledTransactionMessage
  let consumed: number
  try {
    ;[message, consumed] = getCompiledTransactionMessageDecoder().read(transaction.messageBytes, 0)
  } catch {
    return "NonCanonicalTransaction"
  }
  if (consumed !== transaction.messageBytes.length) return "NonCanonicalTransaction"
  let encoded: Uint8Array
  try {
    encoded = new Uint8Array(getTransactionEncoder().encode(transaction))
  } catch {
    return "Crash" // the former decode died here (no signature slots)
  }
  if (!equalBytes(encoded, bytes)) return "NonCanonicalTransaction"
  const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts)
  const keys = Object.keys(transaction.signatures)
  if (keys.length !== signers.length || keys.some((k, i) => k !== signers[i])) return "NonCanonicalTransaction"
  return { message, transaction }
}

/** The former budget reading, over Kit's compiled message. */
const referenceBudget = (message: CompiledTransactionMessage): WireTransaction.MessageBudget => {
  if (message.version === 1) {
    const values = message.configValues.map((v) => BigInt(v.value))
    let i = 0
    const next = (bit: number) => (message.configMask & bit) === bit ? values[i++] : undefined
    const fee = next(0b11)
    const cu = next(0b100)
    const data = next(0b1000)
    const heap = next(0b1_0000)
    return {
      ...(fee === undefined ? {} : { priorityFee: fee }),
      ...(cu === undefined ? {} : { computeUnitLimit: Number(cu) }),
      ...(data === undefined ? {} : { loadedAccountsDataSizeLimit: Number(data) }),
      ...(heap === undefined ? {} : { heapSize: Number(heap) })
    }
  }
  const found: { -readonly [K in keyof WireTransaction.MessageBudget]: WireTransaction.MessageBudget[K] } = {}
  const seen = new Set<number>()
  for (const ix of message.instructions) {
    if (message.staticAccounts[ix.programAddressIndex] !== computeBudget) continue
    const data = new Uint8Array(ix.data ?? [])
    const kind = data[0]
    if (kind === undefined) continue
    if (seen.has(kind)) found.problem = `duplicate compute-budget instruction ${kind}`
    seen.add(kind)
    const view = new DataView(data.buffer)
    if (kind === 1 && data.length === 5) found.heapSize = view.getUint32(1, true)
    else if (kind === 2 && data.length === 5) found.computeUnitLimit = view.getUint32(1, true)
    else if (kind === 3 && data.length === 9) found.priorityFee = view.getBigUint64(1, true)
    else if (kind === 4 && data.length === 5) found.loadedAccountsDataSizeLimit = view.getUint32(1, true)
    else found.problem = `unrecognised compute-budget instruction ${kind}`
  }
  return found
}

const parsedOrFail = (bytes: Uint8Array): WireFormat.Parsed => {
  const result = WireFormat.parse(bytes)
  if (result._tag !== "Parsed") return assert.fail(`refused a valid transaction: ${result._tag} ${result.reason}`)
  return result.parsed
}

/** Kit's view of what the parser read: the message and the signature map. */
const asKit = (bytes: Uint8Array, parsed: WireFormat.Parsed) => {
  const message = WireFormat.toCompiledMessage(bytes, parsed)
  const signatures: Record<string, Uint8Array | null> = {}
  for (let i = 0; i < parsed.signatureCount; i++) {
    const at = WireFormat.signatureOffset(parsed, i)
    signatures[WireFormat.address(bytes, parsed, i)] = WireFormat.isEmptySignature(bytes, parsed, i)
      ? null
      : bytes.slice(at, at + 64)
  }
  return { message, signatures }
}

// ---------------------------------------------------------------------------
// mutations
// ---------------------------------------------------------------------------

type Mutation =
  | { readonly kind: "flip"; readonly at: number; readonly xor: number }
  | { readonly kind: "truncate"; readonly at: number }
  | { readonly kind: "append"; readonly extra: Uint8Array }
  | { readonly kind: "insert"; readonly at: number; readonly byte: number }
  | { readonly kind: "delete"; readonly at: number }
  | { readonly kind: "count"; readonly which: number; readonly delta: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("append" as const), extra: fc.uint8Array({ minLength: 1, maxLength: 70 }) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), byte: fc.nat(255) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("count" as const), which: fc.nat(), delta: fc.constantFrom(-2, -1, 1, 2, 64, 128) }),
  fc.record({ kind: fc.constant("count" as const), which: fc.nat(), delta: fc.constantFrom(-1, 1) })
)

/** Offsets of the count and index bytes of a parsed transaction (header, counts, lengths). */
const countOffsets = (parsed: WireFormat.Parsed): Array<number> => {
  const ixs = parsed.instructions
  if (parsed.version === 1) {
    const headers = ixs.length === 0 ? 0 : ixs[0]!.accountsOffset - 4 * ixs.length
    return [1, 2, 3, 4, 40, 41, ...ixs.flatMap((_, i) => [headers + 4 * i, headers + 4 * i + 1, headers + 4 * i + 2])]
  }
  const m = parsed.messageOffset + (parsed.version === 0 ? 1 : 0)
  return [
    0,
    parsed.messageOffset,
    m,
    m + 1,
    m + 2,
    parsed.staticAccountsOffset - 1,
    parsed.lifetimeOffset + 32,
    ...ixs.flatMap((ix) => [ix.accountsOffset - 2, ix.accountsOffset - 1, ix.dataOffset - 1]),
    ...parsed.lookups.flatMap((l) => [l.writableOffset - 1, l.readonlyOffset - 1]),
    parsed.messageOffset + parsed.messageLength - 1
  ].filter((at) => at >= 0)
}

const mutate = (bytes: Uint8Array, parsed: WireFormat.Parsed, m: Mutation): Uint8Array => {
  const out = Array.from(bytes)
  if (out.length === 0 && m.kind !== "append" && m.kind !== "insert") return bytes
  switch (m.kind) {
    case "flip":
      out[m.at % out.length] = out[m.at % out.length]! ^ m.xor
      break
    case "truncate":
      out.length = m.at % out.length
      break
    case "append":
      out.push(...m.extra)
      break
    case "insert":
      out.splice(m.at % (out.length + 1), 0, m.byte)
      break
    case "delete":
      out.splice(m.at % out.length, 1)
      break
    case "count": {
      const offsets = countOffsets(parsed)
      const at = offsets[m.which % offsets.length]!
      out[at] = (out[at]! + m.delta + 256) & 0xff
      break
    }
  }
  return Uint8Array.from(out)
}

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

describe("WireFormat.parse", () => {
  it.prop("Kit-compiled legacy/v0/v1 transactions parse to Kit's fields", [built], ([{ bytes, transaction }]) => {
    const parsed = parsedOrFail(bytes)
    const kitMessage = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
    assert.strictEqual(parsed.version, kitMessage.version)
    assert.deepStrictEqual(
      bytes.subarray(parsed.messageOffset, parsed.messageOffset + parsed.messageLength),
      new Uint8Array(transaction.messageBytes)
    )
    const mine = asKit(bytes, parsed)
    assert.deepStrictEqual(mine.message, kitMessage)
    const kitTransaction = getTransactionDecoder().decode(bytes)
    assert.deepStrictEqual(Object.keys(mine.signatures), Object.keys(kitTransaction.signatures))
    for (const [signer, signature] of Object.entries(kitTransaction.signatures)) {
      assert.deepStrictEqual(mine.signatures[signer], signature === null ? null : new Uint8Array(signature))
    }
  }, { fastCheck: { numRuns: 150 } })

  it.prop("mutations are refused, or re-encode to the same bytes; former refusals keep their tag", [
    built,
    fc.array(mutation, { minLength: 1, maxLength: 3 })
  ], ([{ bytes }, mutations]) => {
    let input = bytes
    for (const m of mutations) {
      const current = WireFormat.parse(input)
      input = mutate(input, current._tag === "Parsed" ? current.parsed : parsedOrFail(bytes), m)
    }
    const result = WireFormat.parse(input)
    const former = reference(input)
    if (result._tag !== "Parsed") {
      const tag = result._tag === "Malformed" ? "MalformedTransaction" : "NonCanonicalTransaction"
      if (typeof former === "string" && former !== "Crash") assert.strictEqual(tag, former, result.reason)
      else if (typeof former !== "string") assert.strictEqual(tag, "NonCanonicalTransaction", result.reason)
      return
    }
    const parsed = result.parsed
    const messageBytes = input.subarray(parsed.messageOffset, parsed.messageOffset + parsed.messageLength)
    const { message, signatures } = asKit(input, parsed)
    assert.deepStrictEqual(new Uint8Array(getCompiledTransactionMessageEncoder().encode(message)), messageBytes)
    const reencoded = getTransactionEncoder().encode({
      messageBytes: getTransactionDecoder().decode(input).messageBytes,
      signatures: signatures as Transaction["signatures"]
    })
    assert.deepStrictEqual(new Uint8Array(reencoded), input)
    if (typeof former === "string") return assert.fail(`accepted what the former decode refused (${former})`)
    assert.deepStrictEqual(message, former.message)
  }, { fastCheck: { numRuns: 400 } })

  it("refuses what the runtime refuses and Kit's decoder lets through", () => {
    const fixed = [
      // legacy: 1 signature, header 1/0/1, accounts [payer, program], blockhash, 1 instruction
      1,
      ...new Array(64).fill(7),
      1,
      0,
      1,
      2,
      ...new Array(32).fill(1),
      ...new Array(32).fill(2),
      ...new Array(32).fill(3),
      1,
      1,
      0,
      0
    ]
    assert.strictEqual(WireFormat.parse(Uint8Array.from(fixed))._tag, "Parsed")
    const refused = (bytes: ReadonlyArray<number>, tag: string, reason: string) => {
      const result = WireFormat.parse(Uint8Array.from(bytes))
      assert.strictEqual(result._tag, tag)
      if (result._tag !== "Parsed") assert.include(result.reason, reason)
    }
    const at = (i: number, value: number) => fixed.map((b, k) => k === i ? value : b)
    const header = 65
    const instruction = header + 3 + 1 + 64 + 32 + 1
    refused(at(instruction, 0), "NonCanonical", "invokes the fee payer")
    refused(at(instruction, 2), "NonCanonical", "invokes account 2")
    refused([...fixed.slice(0, instruction + 1), 1, 5, 0], "NonCanonical", "refers to account 5")
    refused([...fixed.slice(0, -1), 0x80, 0], "NonCanonical", "not minimally encoded")
    refused(fixed.slice(0, -1), "NonCanonical", "truncated")
    refused([...fixed, 0], "NonCanonical", "after the end")
    refused(at(header + 1, 1), "NonCanonical", "fee payer read-only")
    refused(at(header + 2, 2), "NonCanonical", "counts 3 accounts")
    refused(at(header, 2), "Malformed", "1 signatures for 2 signers")
    refused(
      [...fixed.slice(0, header + 36), ...new Array(32).fill(1), ...fixed.slice(header + 68)],
      "NonCanonical",
      "repeats account 0"
    )
    refused([0x80, ...fixed.slice(1)], "Malformed", "must start with its signatures")
    refused([0x82], "Malformed", "unsupported transaction version 2")
    refused([], "Malformed", "no bytes")
    // v1: one signer, two accounts, one instruction; mask bits set one at a time
    const v1 = (mask: number, values: ReadonlyArray<number>) => [
      0x81,
      1,
      0,
      1,
      mask,
      0,
      0,
      0,
      ...new Array(32).fill(3),
      1,
      2,
      ...new Array(32).fill(1),
      ...new Array(32).fill(2),
      ...values,
      1,
      0,
      0,
      0,
      ...new Array(64).fill(9)
    ]
    assert.strictEqual(
      WireFormat.parse(Uint8Array.from(v1(0b11100, [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0])))._tag,
      "Parsed"
    )
    refused(v1(0b01, [0, 0, 0, 0]), "NonCanonical", "one priority-fee bit")
    refused(v1(0b10, [0, 0, 0, 0]), "NonCanonical", "one priority-fee bit")
    refused(v1(0b100000, []), "NonCanonical", "unknown config mask bits 0x20")
    refused(v1(0b100, []), "NonCanonical", "truncated")
  })
})

describe("WireTransaction.decode over the parser", () => {
  it.effect.prop(
    "reports what the former Kit-based decode did",
    [built],
    ([{ bytes, transaction }]) =>
      Effect.gen(function*() {
        const decoded = yield* WireTransaction.decode(Wire.fromBytes(bytes, "base64"), "base64", "t")
        const kitMessage = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes)
        const lookups = kitMessage.version === 0
          ? (kitMessage.addressTableLookups ?? []).reduce(
            (n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length,
            0
          )
          : 0
        assert.strictEqual(decoded.version, kitMessage.version)
        assert.deepStrictEqual(decoded.signers, kitMessage.staticAccounts.slice(0, kitMessage.header.numSignerAccounts))
        assert.strictEqual(decoded.blockhash, kitMessage.lifetimeToken)
        assert.deepStrictEqual(decoded.budget, referenceBudget(kitMessage))
        assert.deepStrictEqual(decoded.size, {
          bytes: bytes.length,
          accounts: kitMessage.staticAccounts.length + lookups,
          signatures: kitMessage.header.numSignerAccounts
        })
        assert.strictEqual(
          decoded.messageSha256,
          createHash("sha256").update(new Uint8Array(transaction.messageBytes)).digest("hex")
        )
        assert.deepStrictEqual(decoded.message, kitMessage)
        assert.deepStrictEqual(decoded.transaction, getTransactionDecoder().decode(bytes))
        // random signatures do not verify; empty slots count as fine
        assert.deepStrictEqual(
          decoded.signatureChecks,
          Object.values(decoded.transaction.signatures).map((signature) => signature === null)
        )
      }),
    { fastCheck: { numRuns: 60 } }
  )
})
