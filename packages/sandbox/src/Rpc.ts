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
import { Cause, Effect, Either, Exit, Option, Scope, Stream } from "effect"
import { AdminToken, authorizes } from "./AdminToken.js"
import * as JsonRpc from "./internal/http/jsonRpc.js"
import { handle } from "./internal/http/rpcMethods.js"
import { LedgerError } from "./internal/model/ledger/models.js"

/**
 * The path the router serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const path = "/rpc"

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

export { handle } from "./internal/http/rpcMethods.js"

/**
 * The methods that need the sandbox admin token when the sandbox has one (off loopback), as
 * their `/sandbox/...` counterparts do: the faucet.
 *
 * @since 0.1.0
 * @category constants
 */
export const adminMethods: ReadonlySet<string> = new Set(["requestAirdrop"])

/**
 * The error answering an admin method called without the admin token.
 *
 * @since 0.1.0
 * @category constants
 */
export const adminTokenRequired = new LedgerError({
  code: -32001,
  message: "requestAirdrop needs the sandbox admin token off loopback (Authorization: Bearer TOKEN), printed at start"
})

/**
 * One request's answer; every failure, defects included, is a JSON-RPC error of its own.
 * `admitted`: whether the request carried the admin token (or none is required).
 */
const one = (body: unknown, admitted: boolean) =>
  JsonRpc.answer(
    "Rpc",
    body,
    (request) =>
      !admitted && adminMethods.has(request.method)
        ? Effect.fail(adminTokenRequired)
        : handle(request.method, request.params)
  )

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
 * When an `AdminToken` is provided and holds a token (the sandbox off loopback),
 * `requestAirdrop` needs it (`Authorization: Bearer TOKEN`), as `/sandbox/airdrop` does;
 * without it the call is answered with `adminTokenRequired`.
 *
 * @since 0.1.0
 * @category handlers
 */
export const app = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const token = Option.flatten(yield* Effect.serviceOption(AdminToken))
  const admitted = Option.isNone(token) || authorizes(token.value, request.headers.authorization)
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
      return reply(yield* one(body.value, admitted))
    case "Batch":
      return reply(yield* Effect.forEach(body.values, (value) => one(value, admitted)))
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
