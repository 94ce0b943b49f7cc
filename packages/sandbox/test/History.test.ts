/**
 * The explorer's history without a browser: bounded rings, transactions named from their memo
 * or from what the service handed out, plan stages through built, superseded, expired and
 * landed, requests by key id (never the key); and the explorer's routes (state, events).
 */
import { assert, describe, it, layer } from "@effect/vitest"
import {
  createKeyPairSignerFromBytes,
  generateKeyPairSigner,
  getBase64Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransaction
} from "@solana/kit"
import { Effect, Layer, Redacted } from "effect"
import { get as httpGet } from "node:http"
import type { State } from "../src/Explorer.js"
import * as Explorer from "../src/Explorer.js"
import * as History from "../src/History.js"
import { Ledger } from "../src/Ledger.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Seed from "../src/Seed.js"
import { SandboxInfo } from "../src/Server.js"
import { call, fetchReply } from "./support/http.js"

const landed = (overrides: Partial<History.LandedRecord> = {}): History.LandedRecord => ({
  signature: "sig",
  slot: 1n,
  blockTime: 0,
  wire: new Uint8Array([1, 2, 3]),
  fee: 5000n,
  logs: [],
  computeUnitsConsumed: 150n,
  err: null,
  ...overrides
})

/** An event stream opened from `localAddress` (a client address of its own): its status, and how to close it. */
const openStream = (port: number, localAddress: string) =>
  Effect.async<{ readonly status: number; readonly close: () => void }>((resume) => {
    const request = httpGet(
      { host: "127.0.0.1", port, path: Explorer.paths.events, localAddress },
      (response) => resume(Effect.succeed({ status: response.statusCode ?? 0, close: () => request.destroy() }))
    )
    request.on("error", (error) => resume(Effect.die(error)))
  })

describe("History (in memory)", () => {
  it("keeps the newest entries of each ring, newest first", () => {
    const history = History.makeUnsafe(() => 0)
    for (let i = 0; i < History.limits.requests + 7; i++) {
      history.request({
        at: i,
        method: "GET",
        path: "/p",
        operation: "op",
        status: 200,
        latencyMillis: 1,
        keyId: null,
        rateLimit: null
      })
    }
    for (let i = 0; i < History.limits.transactions + 3; i++) history.transaction(landed({ signature: `s${i}` }))
    const snapshot = history.snapshot(0n)
    assert.strictEqual(snapshot.requests.length, History.limits.requests)
    assert.strictEqual(snapshot.requests[0]?.at, History.limits.requests + 6)
    assert.strictEqual(snapshot.transactions.length, History.limits.transactions)
    assert.strictEqual(snapshot.transactions[0]?.signature, `s${History.limits.transactions + 2}`)
    assert.strictEqual(snapshot.version, History.limits.requests + 7 + History.limits.transactions + 3)
  })

  it("names a transaction from its memo, keeps a failed one's error, and bounds its logs", () => {
    const history = History.makeUnsafe()
    history.transaction(landed({
      signature: "a",
      logs: ["Program log: Memo (len 19)", "Program log: sandbox airdrop #12"]
    }))
    history.transaction(landed({
      signature: "b",
      logs: [
        "Program log: Memo (len 30): \"feeshare:launch ipfs://x\"",
        ...Array.from({ length: 200 }, () => "x".repeat(1000))
      ],
      err: { InstructionError: [0, { Custom: 1 }] }
    }))
    const [b, a] = history.snapshot(0n).transactions
    assert.deepStrictEqual([a?.kind, a?.label, a?.status, a?.error], [
      "airdrop",
      "sandbox airdrop #12",
      "success",
      null
    ])
    assert.strictEqual(b?.kind, "launch")
    assert.strictEqual(b?.status, "failed")
    assert.strictEqual(b?.error, "{\"InstructionError\":[0,{\"Custom\":1}]}")
    assert.strictEqual(b?.logs.length, History.limits.logLines + 1)
    assert.isTrue(b?.logs.every((line) => line.length <= History.limits.logLineChars + 30))
    // a wire that does not decode: no instructions, never a throw
    assert.deepStrictEqual(b?.instructions, [])
  })
})

const base64 = getBase64Encoder()
const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()

/** What seeding made. */
class SeedResult extends Effect.Tag("test/SeedResult")<SeedResult, Seed.Seeded>() {}

/** A seeded sandbox with a short blockhash life (plans expire after 20 blocks). */
const seeded = Layer.effect(
  SeedResult,
  Effect.flatMap(SandboxInfo, (info) => Seed.make(info.options.seed))
).pipe(Layer.provideMerge(Sandbox.layer({ slotMillis: 0, blockhashValidity: 20 })))

describe("History and the explorer over a sandbox", () => {
  // the live clock: the event stream polls on a schedule
  layer(seeded, { excludeTestServices: true })((it) => {
    it.effect("a plan's stages: built, superseded by a rebuild, expired past their block height, landed when sent", () =>
      Effect.gen(function*() {
        const { demoKeygen, demoWallet, tokens } = yield* SeedResult
        const history = yield* History.History
        const ledger = yield* Ledger
        const mint = tokens.find((t) => t.launched)?.mint ?? ""
        const request = { feeClaimer: demoWallet, tokenMint: mint, transactionFormat: "v0" }
        const first = yield* call("claims", "createPlan", { body: request })
        assert.strictEqual(first.status, 200, first.text)
        const afterFirst = history.snapshot((yield* ledger.clock).blockHeight).plans
        assert.isAbove(afterFirst[0]?.stages.length ?? 0, 0)
        assert.isTrue(afterFirst[0]?.stages.every((stage) => stage.state === "built"))
        assert.strictEqual(afterFirst[0]?.wallet, demoWallet)
        assert.isNull(afterFirst[0]?.tampered)

        yield* call("claims", "createPlan", { body: request })
        const rebuilt = history.snapshot((yield* ledger.clock).blockHeight).plans
        assert.strictEqual(rebuilt.length, afterFirst.length + 1)
        assert.isTrue(rebuilt[1]?.stages.every((stage) => stage.state === "superseded"))
        assert.isTrue(rebuilt[0]?.stages.every((stage) => stage.state === "built"))

        // past the blockhash's life: expired
        yield* ledger.advance(25)
        const expired = history.snapshot((yield* ledger.clock).blockHeight).plans
        assert.isTrue(expired[0]?.stages.every((stage) => stage.state === "expired"))

        // a fresh plan's first stage, signed and sent: landed, and named a claim stage
        const reply = yield* call("claims", "createPlan", { body: request })
        const plan =
          (reply.json as { response: { transactions: ReadonlyArray<{ id: string; transaction: string }> } }).response
        const stage = plan.transactions[0]
        assert.isDefined(stage)
        const signer = yield* Effect.promise(() =>
          createKeyPairSignerFromBytes(new Uint8Array(JSON.parse(Redacted.value(demoKeygen)) as Array<number>))
        )
        const signed = yield* Effect.promise(() =>
          partiallySignTransaction([signer.keyPair], transactionDecoder.decode(base64.encode(stage?.transaction ?? "")))
        )
        const signature = yield* ledger.send(new Uint8Array(transactionEncoder.encode(signed)))
        const after = history.snapshot((yield* ledger.clock).blockHeight)
        const landedStage = after.plans[0]?.stages.find((s) => s.id === stage?.id)
        assert.strictEqual(landedStage?.state, "landed")
        assert.strictEqual(landedStage?.signature, signature)
        const transaction = after.transactions.find((t) => t.signature === signature)
        assert.strictEqual(transaction?.kind, "claim stage")
        assert.include(transaction?.label ?? "", `${stage?.id}`)
        assert.isAbove(transaction?.instructions.length ?? 0, 0)
      }))

    it.effect("requests: operation, status, rate-limit headers and the key's id; never the key", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const history = yield* History.History
        const reply = yield* call("analytics", "pools", { query: { onlyMigrated: "false" } })
        assert.strictEqual(reply.status, 200, reply.text)
        const last = history.snapshot(0n).requests[0]
        assert.strictEqual(last?.operation, "analytics.pools")
        assert.strictEqual(last?.status, 200)
        assert.match(last?.keyId ?? "", /^key_[0-9a-f]+$/)
        assert.strictEqual(last?.rateLimit?.remaining, reply.headers["x-ratelimit-remaining"])
        assert.notInclude(JSON.stringify(history.snapshot(0n)), Redacted.value(info.demoApiKey))
        // the explorer's own routes and /rpc are not API requests
        const before = history.snapshot(0n).requests.length
        yield* fetchReply(`${info.rootUrl}${Explorer.paths.state}`)
        assert.strictEqual(history.snapshot(0n).requests.length, before)
      }))

    it.effect("GET /explorer/state: the market, the wallets, the buckets and key ids, no key anywhere", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const { demoWallet, tokens } = yield* SeedResult
        const reply = yield* fetchReply(`${info.rootUrl}${Explorer.paths.state}`)
        assert.strictEqual(reply.status, 200)
        assert.notInclude(reply.text, Redacted.value(info.demoApiKey))
        const state = reply.json as State
        assert.deepStrictEqual(state.market.tokens.map((t) => t.symbol), tokens.map((t) => t.symbol))
        assert.include(state.wallets.map((w) => w.address), demoWallet)
        assert.strictEqual(state.keys[0]?.name, "demo")
        assert.isAbove(state.buckets.length, 0)
        assert.strictEqual(state.blockhashValidity, 20)
        // the page and its script
        const page = yield* fetchReply(`${info.rootUrl}/`)
        assert.include(page.headers["content-type"] ?? "", "text/html")
        assert.include(page.text, Explorer.paths.script)
        const script = yield* fetchReply(`${info.rootUrl}${Explorer.paths.script}`)
        assert.include(script.headers["content-type"] ?? "", "javascript")
        assert.include(script.text, Explorer.paths.events)
      }))

    it.effect("GET /explorer/events: a tick per change, with the history's version; at most limits.streams at once", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const ledger = yield* Ledger
        const history = yield* History.History
        const events = yield* Effect.promise(async () => {
          const controller = new AbortController()
          const response = await fetch(`${info.rootUrl}${Explorer.paths.events}`, { signal: controller.signal })
          return { response, controller, reader: response.body!.getReader() }
        })
        assert.strictEqual(events.response.headers.get("content-type"), "text/event-stream")
        const decoder = new TextDecoder()
        let buffered = ""
        /** Reads until an event with `version` at least `min` arrives. */
        const tickWith = (min: number) =>
          Effect.promise(async () => {
            for (;;) {
              const { done, value } = await events.reader.read()
              if (done) throw new Error("the event stream ended")
              buffered += decoder.decode(value)
              for (const match of buffered.matchAll(/event: tick\ndata: (.*)\n\n/g)) {
                const tick = JSON.parse(match[1] ?? "{}") as { version: number }
                if (tick.version >= min) return tick
              }
            }
          })
        const first = yield* tickWith(0)
        assert.strictEqual(first.version, history.version())
        // an airdrop lands: the next tick carries the new version
        const somebody = yield* Effect.promise(() => generateKeyPairSigner())
        yield* ledger.airdrop(somebody.address, 1_000_000n)
        const next = yield* tickWith(first.version + 1)
        assert.strictEqual(next.version, history.version())

        // the bounds: limits.streamsPerClient from one client address (this one and 3 more), the next is a 429
        const fromOwn = yield* Effect.forEach(
          Array.from({ length: Explorer.limits.streamsPerClient - 1 }, () => "127.0.0.1"),
          (address) => openStream(info.port, address)
        )
        assert.deepStrictEqual(fromOwn.map((s) => s.status), [200, 200, 200])
        const perClient = yield* openStream(info.port, "127.0.0.1")
        assert.strictEqual(perClient.status, 429)
        // other clients (other loopback addresses) fill the global limit, then the next is a 503
        const others = yield* Effect.forEach(
          Array.from(
            { length: Explorer.limits.streams - Explorer.limits.streamsPerClient },
            (_, i) => `127.0.0.${2 + Math.floor(i / Explorer.limits.streamsPerClient)}`
          ),
          (address) => openStream(info.port, address)
        )
        assert.isTrue(others.every((s) => s.status === 200))
        const refused = yield* openStream(info.port, "127.0.0.99")
        assert.strictEqual(refused.status, 503)
        for (const open of [...fromOwn, perClient, ...others, refused]) open.close()
        events.controller.abort()
      }))
  })
})
