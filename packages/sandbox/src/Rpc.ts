/**
 * The ledger as a Solana JSON-RPC 2.0 endpoint (HTTP, single and batch requests), enough of
 * the surface for `@solana/kit`'s `createSolanaRpc` to send, simulate and confirm
 * transactions against the sandbox unchanged: getLatestBlockhash, getBlockHeight, getSlot,
 * getEpochInfo, sendTransaction (base58 or base64, preflight unless `skipPreflight`),
 * simulateTransaction, getSignatureStatuses (`searchTransactionHistory`), getBalance,
 * getAccountInfo, getMultipleAccounts, getTransaction, requestAirdrop,
 * getMinimumBalanceForRentExemption, getVersion, getHealth.
 *
 * Bad input is answered as a Solana RPC node answers it, with JSON-RPC errors (see `app`);
 * bodies are capped at `maxBodyBytes` and batches at `maxBatchSize`.
 *
 * Mount `Rpc.router` (it serves `POST /rpc`) or `Rpc.app` next to the service API; both need
 * the `Ledger` service. The subscriptions (WebSocket, same path) are `RpcSubscriptions`.
 *
 * @since 0.1.0
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { PublicKey } from "@feeshare/domain"
import { getBase58Decoder, getBase58Encoder } from "@solana/kit"
import { Cause, Effect, Either, Exit, Option, Schema, Scope, Stream } from "effect"
import * as JsonRpc from "./internal/http/jsonRpc.js"
import { Ledger, LedgerError, type TransactionRecord } from "./Ledger.js"

/**
 * The path the router serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const path = "/rpc"

const base58Decoder = getBase58Decoder()
const base58Encoder = getBase58Encoder()

/**
 * The largest request body `/rpc` reads, in bytes (1 MiB: a full batch of the largest
 * transactions fits); a larger one is answered HTTP 413 without being buffered.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxBodyBytes = 1024 * 1024

/**
 * The most requests a batch may hold; a larger batch is answered with one `-32600` error.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxBatchSize = JsonRpc.maxBatchSize

const { decodeParams, invalidParams } = JsonRpc

const Encoding = Schema.Literal("base58", "base64", "base64+zstd", "jsonParsed", "json")

const Config = Schema.Struct({
  encoding: Schema.optional(Encoding),
  skipPreflight: Schema.optional(Schema.Boolean),
  sigVerify: Schema.optional(Schema.Boolean),
  replaceRecentBlockhash: Schema.optional(Schema.Boolean),
  searchTransactionHistory: Schema.optional(Schema.Boolean),
  maxSupportedTransactionVersion: Schema.optional(Schema.Number)
}).annotations({ description: "a config object" })

const OptionalConfig = Schema.optionalElement(
  Schema.NullOr(Config).annotations({ description: "a config object or null" })
)

const Address = PublicKey.PublicKey
const Signature = PublicKey.Base58Signature.annotations({ description: "a base58 signature of 64 bytes" })

const Amount = Schema.Union(Schema.Number, Schema.NumberFromString).annotations({
  description: "a number or a numeric string"
})

const TransactionParams = Schema.Tuple(Schema.String, OptionalConfig).annotations({
  description: "[transaction, config?]"
})
const AddressParams = Schema.Tuple(Address, OptionalConfig).annotations({ description: "[address, config?]" })
const AddressesParams = Schema.Tuple(Schema.Array(Address), OptionalConfig).annotations({
  description: "[addresses, config?]"
})
const SignatureParams = Schema.Tuple(Signature, OptionalConfig).annotations({ description: "[signature, config?]" })
const SignaturesParams = Schema.Tuple(Schema.Array(Signature), OptionalConfig).annotations({
  description: "[signatures, config?]"
})
const AirdropParams = Schema.Tuple(Address, Amount, Schema.optionalElement(Schema.Unknown)).annotations({
  description: "[address, lamports, config?]"
})
const RentParams = Schema.Tuple(Amount, Schema.optionalElement(Schema.Unknown)).annotations({
  description: "[dataLength, config?]"
})

/** The largest wire transaction (a v1 one) as text: 4096 bytes in base64 and in base58. */
const maxTransactionText = { base64: 5464, base58: 5594 } as const

const toWire = (text: string, encoding: string | undefined) =>
  Effect.suspend(() => {
    const kind = encoding === "base64" ? "base64" : encoding === undefined || encoding === "base58" ? "base58" : undefined
    if (kind === undefined) return Effect.fail(invalidParams(`unsupported transaction encoding ${encoding}`))
    if (text.length > maxTransactionText[kind]) {
      return Effect.fail(
        invalidParams(`${kind} transaction too large: ${text.length} characters (at most ${maxTransactionText[kind]})`)
      )
    }
    return Effect.try({
      try: () =>
        kind === "base64" ? new Uint8Array(Buffer.from(text, "base64")) : new Uint8Array(base58Encoder.encode(text)),
      catch: () => invalidParams(`the transaction is not ${kind} text`)
    })
  })

const n = (value: bigint): number => Number(value)

const encodeData = (data: Uint8Array, encoding: string | undefined): readonly [string, string] =>
  encoding === "base58"
    ? [base58Decoder.decode(data), "base58"]
    : [Buffer.from(data).toString("base64"), "base64"]

const transactionView = (record: TransactionRecord, encoding: string | undefined) => ({
  slot: n(record.slot),
  blockTime: record.blockTime,
  version: record.version,
  transaction: encodeData(record.wire, encoding),
  meta: {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: n(record.fee),
    preBalances: record.preBalances.map(n),
    postBalances: record.postBalances.map(n),
    logMessages: record.logs,
    computeUnitsConsumed: n(record.computeUnitsConsumed),
    innerInstructions: [],
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] }
  }
})

const versionNumber = (version: TransactionRecord["version"]): number => (version === "legacy" ? -1 : version)

/**
 * Answers one JSON-RPC method call (the `result` value, or a `LedgerError` for the `error`).
 *
 * @since 0.1.0
 * @category handlers
 */
export const handle = Effect.fn("Rpc.handle")(function*(method: string, params: unknown) {
  const ledger = yield* Ledger
  const clock = yield* ledger.clock
  const context = { slot: n(clock.slot), apiVersion: "feeshare-sandbox" }
  const account = (address: string, encoding: string | undefined) =>
    Effect.map(ledger.account(address), (found) =>
      Option.match(found, {
        onNone: () => null,
        onSome: (a) => ({
          data: encodeData(a.data, encoding),
          executable: a.executable,
          lamports: n(a.lamports),
          owner: a.owner,
          rentEpoch: 0,
          space: a.data.length
        })
      }))
  switch (method) {
    case "getLatestBlockhash":
      return { context, value: { blockhash: clock.blockhash, lastValidBlockHeight: n(clock.lastValidBlockHeight) } }
    case "getBlockHeight":
      return n(clock.blockHeight)
    case "getSlot":
      return n(clock.slot)
    case "getEpochInfo": {
      const slotsInEpoch = 432_000n
      return {
        absoluteSlot: n(clock.slot),
        blockHeight: n(clock.blockHeight),
        epoch: n(clock.slot / slotsInEpoch),
        slotIndex: n(clock.slot % slotsInEpoch),
        slotsInEpoch: n(slotsInEpoch),
        transactionCount: null
      }
    }
    case "getHealth":
      return "ok"
    case "getVersion":
      return { "solana-core": "feeshare-sandbox", "feature-set": 0 }
    case "sendTransaction": {
      const [text, config] = yield* decodeParams(TransactionParams, params)
      const wire = yield* toWire(text, config?.encoding)
      return yield* ledger.send(wire, { skipPreflight: config?.skipPreflight === true })
    }
    case "simulateTransaction": {
      const [text, config] = yield* decodeParams(TransactionParams, params)
      const wire = yield* toWire(text, config?.encoding)
      const simulation = yield* ledger.simulate(wire, {
        sigVerify: config?.sigVerify === true,
        replaceRecentBlockhash: config?.replaceRecentBlockhash === true
      })
      return {
        context,
        value: {
          err: simulation.err,
          logs: simulation.logs,
          accounts: null,
          unitsConsumed: n(simulation.unitsConsumed),
          returnData: null,
          ...(simulation.replacementBlockhash === null ? {} : {
            replacementBlockhash: {
              blockhash: simulation.replacementBlockhash.blockhash,
              lastValidBlockHeight: n(simulation.replacementBlockhash.lastValidBlockHeight)
            }
          })
        }
      }
    }
    case "getSignatureStatuses": {
      const [signatures, config] = yield* decodeParams(SignaturesParams, params)
      if (signatures.length > 256) return yield* invalidParams("at most 256 signatures")
      const statuses = yield* ledger.statuses(signatures, config?.searchTransactionHistory === true)
      return {
        context,
        value: statuses.map((status) =>
          status === null ? null : {
            slot: n(status.slot),
            confirmations: status.confirmations === null ? null : n(status.confirmations),
            err: status.err,
            status: status.err === null ? { Ok: null } : { Err: status.err },
            confirmationStatus: status.confirmationStatus
          }
        )
      }
    }
    case "getBalance": {
      const [address] = yield* decodeParams(AddressParams, params)
      return { context, value: n(yield* ledger.balance(address)) }
    }
    case "getAccountInfo": {
      const [address, config] = yield* decodeParams(AddressParams, params)
      return { context, value: yield* account(address, config?.encoding) }
    }
    case "getMultipleAccounts": {
      const [addresses, config] = yield* decodeParams(AddressesParams, params)
      if (addresses.length > 100) return yield* invalidParams("at most 100 addresses")
      return { context, value: yield* Effect.forEach(addresses, (address) => account(address, config?.encoding)) }
    }
    case "getTransaction": {
      const [signature, config] = yield* decodeParams(SignatureParams, params)
      const found = yield* ledger.transaction(signature)
      if (Option.isNone(found)) return null
      const record = found.value
      const supported = config?.maxSupportedTransactionVersion
      if (record.version !== "legacy" && (supported === undefined || supported < versionNumber(record.version))) {
        return yield* new LedgerError({
          code: -32015,
          message: `Transaction version (${record.version}) is not supported by the requesting client. ` +
            `Please try the request again with the following configuration parameter: ` +
            `"maxSupportedTransactionVersion": ${record.version}`
        })
      }
      return transactionView(record, config?.encoding)
    }
    case "requestAirdrop": {
      const [address, lamports] = yield* decodeParams(AirdropParams, params)
      if (!Number.isSafeInteger(lamports) || lamports <= 0) return yield* invalidParams("lamports must be a positive integer")
      return yield* ledger.airdrop(address, BigInt(lamports))
    }
    case "getMinimumBalanceForRentExemption": {
      const [size] = yield* decodeParams(RentParams, params)
      if (!Number.isSafeInteger(size) || size < 0) return yield* invalidParams("data length must be a non-negative integer")
      return n(ledger.minimumBalance(size))
    }
    default:
      return yield* new LedgerError({ code: -32601, message: "Method not found" })
  }
})

/** One request's answer; every failure, defects included, is a JSON-RPC error of its own. */
const one = (body: unknown) => JsonRpc.answer("Rpc", body, (request) => handle(request.method, request.params))

/**
 * The body as text, or `None` when it is larger than `maxBodyBytes`: a declared
 * `Content-Length` over the cap is refused before anything is read, and the bytes are counted
 * as they arrive. Past the cap the rest is read and dropped (never kept) so that the 413 can
 * be answered at once and the connection still closes cleanly.
 */
const readBody = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    if (Number(request.headers["content-length"]) > maxBodyBytes) return Option.none<string>()
    const scope = yield* Scope.make()
    const pull = yield* Scope.extend(Stream.toPull(request.stream), scope)
    const chunks: Array<Uint8Array> = []
    let bytes = 0
    const collect = Effect.gen(function*() {
      while (true) {
        const next = yield* Effect.either(pull)
        if (Either.isLeft(next)) {
          if (Option.isSome(next.left)) return yield* next.left.value
          return Option.some(Buffer.concat(chunks).toString("utf8"))
        }
        for (const chunk of next.right) {
          bytes += chunk.length
          chunks.push(chunk)
        }
        if (bytes > maxBodyBytes) return Option.none<string>()
      }
    })
    return yield* collect.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) && Option.isNone(exit.value)
          ? Effect.forkDaemon(pull.pipe(Effect.forever, Effect.ignore, Effect.ensuring(Scope.close(scope, Exit.void))))
          : Scope.close(scope, Exit.void)
      )
    )
  })

const reply = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status })

/**
 * The JSON-RPC endpoint as an `HttpApp` (POST body: one request or a batch of at most
 * `maxBatchSize`). It never fails: bad input is a JSON-RPC error as a Solana RPC node words
 * it (`-32700` parse error, `-32600` invalid request, `-32601` method not found, `-32602`
 * invalid params, `-32603` internal error, never a stack trace), with HTTP 200, except a body
 * over `maxBodyBytes`: HTTP 413 (and the connection closed) with a `-32600` error. Requests
 * without an id are answered too (with `id: null`), not treated as notifications.
 *
 * @since 0.1.0
 * @category handlers
 */
export const app = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const read = yield* Effect.either(readBody(request))
  if (Either.isLeft(read)) return reply(JsonRpc.invalidRequest(null, "the body could not be read"), 400)
  const text = read.right
  if (Option.isNone(text)) {
    return HttpServerResponse.setHeader(
      reply(JsonRpc.invalidRequest(null, `the body is larger than ${maxBodyBytes} bytes`), 413),
      "connection",
      "close"
    )
  }
  const body = JsonRpc.parseBody(text.value)
  switch (body._tag) {
    case "Refused":
      return reply(body.reply)
    case "Single":
      return reply(yield* one(body.value))
    case "Batch":
      return reply(yield* Effect.forEach(body.values, one))
  }
}).pipe(
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.as(Effect.logError("Rpc failed", cause), reply(JsonRpc.internalError(null), 500))
  )
)

/**
 * A router serving the endpoint at `POST /rpc`.
 *
 * @since 0.1.0
 * @category routers
 */
export const router = HttpRouter.empty.pipe(HttpRouter.post(path, app))
