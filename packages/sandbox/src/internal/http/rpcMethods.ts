/**
 * The JSON-RPC methods of `/rpc` over the ledger: their params (decoded as a Solana RPC node
 * decodes them), the views they answer with, and `handle`, which answers one call. `Rpc.ts`
 * serves them over HTTP and re-exports `handle`.
 */
import { PublicKey } from "@feeshare/domain"
import { getBase58Decoder, getBase58Encoder } from "@solana/kit"
import { Effect, Option, Schema } from "effect"
import { LedgerError, type TransactionRecord } from "../model/ledger/models.js"
import { Ledger } from "../model/ledger/service.js"
import * as JsonRpc from "./jsonRpc.js"

const base58Decoder = getBase58Decoder()
const base58Encoder = getBase58Encoder()

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
    const kind = encoding === "base64"
      ? "base64"
      : encoding === undefined || encoding === "base58"
      ? "base58"
      : undefined
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
      if (!Number.isSafeInteger(lamports) || lamports <= 0) {
        return yield* invalidParams("lamports must be a positive integer")
      }
      return yield* ledger.airdrop(address, BigInt(lamports))
    }
    case "getMinimumBalanceForRentExemption": {
      const [size] = yield* decodeParams(RentParams, params)
      if (!Number.isSafeInteger(size) || size < 0) {
        return yield* invalidParams("data length must be a non-negative integer")
      }
      return n(ledger.minimumBalance(size))
    }
    default:
      return yield* new LedgerError({ code: -32601, message: "Method not found" })
  }
})
