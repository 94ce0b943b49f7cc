/**
 * The ledger as a Solana JSON-RPC 2.0 endpoint (HTTP, single and batch requests), enough of
 * the surface for `@solana/kit`'s `createSolanaRpc` to send, simulate and confirm
 * transactions against the sandbox unchanged: getLatestBlockhash, getBlockHeight, getSlot,
 * getEpochInfo, sendTransaction (base58 or base64, preflight unless `skipPreflight`),
 * simulateTransaction, getSignatureStatuses (`searchTransactionHistory`), getBalance,
 * getAccountInfo, getMultipleAccounts, getTransaction, requestAirdrop,
 * getMinimumBalanceForRentExemption, getVersion, getHealth.
 *
 * Mount `Rpc.router` (it serves `POST /rpc`) or `Rpc.app` next to the service API; both need
 * the `Ledger` service.
 *
 * @since 0.1.0
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { getBase58Decoder, getBase58Encoder } from "@solana/kit"
import { Effect, Option, Schema } from "effect"
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

const invalidParams = (message: string) => new LedgerError({ code: -32602, message: `Invalid params: ${message}` })

const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown) =>
  Schema.decodeUnknown(schema)(params ?? []).pipe(
    Effect.mapError((error) => invalidParams(error.message.split("\n")[0] ?? "malformed"))
  )

const Encoding = Schema.Literal("base58", "base64", "base64+zstd", "jsonParsed", "json")
const Loose = { onExcessProperty: "ignore" } as const

const Config = Schema.Struct({
  encoding: Schema.optional(Encoding),
  skipPreflight: Schema.optional(Schema.Boolean),
  sigVerify: Schema.optional(Schema.Boolean),
  replaceRecentBlockhash: Schema.optional(Schema.Boolean),
  searchTransactionHistory: Schema.optional(Schema.Boolean),
  maxSupportedTransactionVersion: Schema.optional(Schema.Number)
})

const Amount = Schema.Union(Schema.Number, Schema.NumberFromString)

const WithConfig = Schema.Tuple(Schema.String, Schema.optionalElement(Schema.NullOr(Config)))
const AddressesWithConfig = Schema.Tuple(Schema.Array(Schema.String), Schema.optionalElement(Schema.NullOr(Config)))
const AirdropParams = Schema.Tuple(Schema.String, Amount, Schema.optionalElement(Schema.Unknown))
const RentParams = Schema.Tuple(Amount, Schema.optionalElement(Schema.Unknown))

const toWire = (text: string, encoding: string | undefined) =>
  Effect.try({
    try: () => {
      if (encoding === "base64") return new Uint8Array(Buffer.from(text, "base64"))
      if (encoding === undefined || encoding === "base58") return new Uint8Array(base58Encoder.encode(text))
      throw new Error(`unsupported encoding ${encoding}`)
    },
    catch: (error) => invalidParams(error instanceof Error ? error.message : "bad transaction encoding")
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
      const [text, config] = yield* decodeParams(WithConfig, params)
      const wire = yield* toWire(text, config?.encoding)
      return yield* ledger.send(wire, { skipPreflight: config?.skipPreflight === true })
    }
    case "simulateTransaction": {
      const [text, config] = yield* decodeParams(WithConfig, params)
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
      const [signatures, config] = yield* decodeParams(AddressesWithConfig, params)
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
      const [address] = yield* decodeParams(WithConfig, params)
      return { context, value: n(yield* ledger.balance(address)) }
    }
    case "getAccountInfo": {
      const [address, config] = yield* decodeParams(WithConfig, params)
      return { context, value: yield* account(address, config?.encoding) }
    }
    case "getMultipleAccounts": {
      const [addresses, config] = yield* decodeParams(AddressesWithConfig, params)
      return { context, value: yield* Effect.forEach(addresses, (address) => account(address, config?.encoding)) }
    }
    case "getTransaction": {
      const [signature, config] = yield* decodeParams(WithConfig, params)
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
      return yield* new LedgerError({ code: -32601, message: `Method not found: ${method}` })
  }
})

const Request = Schema.Struct({
  jsonrpc: Schema.optional(Schema.String),
  id: Schema.optional(Schema.Unknown),
  method: Schema.String,
  params: Schema.optional(Schema.Unknown)
})

const one = (body: unknown) =>
  Effect.gen(function*() {
    const decoded = Schema.decodeUnknownOption(Request)(body, Loose)
    if (Option.isNone(decoded)) {
      return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } }
    }
    const request = decoded.value
    const id = request.id ?? null
    return yield* handle(request.method, request.params).pipe(
      Effect.map((result) => ({ jsonrpc: "2.0", id, result })),
      Effect.catchAll((error) =>
        Effect.succeed({
          jsonrpc: "2.0",
          id,
          error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
        })
      )
    )
  })

/**
 * The JSON-RPC endpoint as an `HttpApp` (POST body: one request or a batch).
 *
 * @since 0.1.0
 * @category handlers
 */
export const app = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const body = yield* Effect.either(request.json)
  if (body._tag === "Left") {
    return HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
  }
  const answer = Array.isArray(body.right)
    ? yield* Effect.forEach(body.right, one)
    : yield* one(body.right)
  return HttpServerResponse.unsafeJson(answer)
})

/**
 * A router serving the endpoint at `POST /rpc`.
 *
 * @since 0.1.0
 * @category routers
 */
export const router = HttpRouter.empty.pipe(HttpRouter.post(path, app))
