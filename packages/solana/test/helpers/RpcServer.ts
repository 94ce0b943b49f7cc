// A minimal Solana JSON-RPC server over LiteSVM on 127.0.0.1 (random port), enough for
// ChainRpc: sendTransaction (with preflight), getSignatureStatuses, getBlockHeight,
// getTransaction. Knobs: `drop` accepts transactions without executing them; every
// getBlockHeight call advances the height by one block (deterministic expiry).
import { PublicKey, WireTransaction as Wire } from "@feeshare/domain"
import { getTransactionDecoder } from "@solana/kit"
import { Effect } from "effect"
import { FailedTransactionMetadata, type LiteSVM } from "litesvm"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

type SvmTransaction = Parameters<LiteSVM["sendTransaction"]>[0]

interface Landed {
  readonly slot: number
  readonly err: unknown
  readonly logs: ReadonlyArray<string>
}

export interface RpcServer {
  readonly url: string
  readonly calls: Array<{ readonly method: string; readonly skipPreflight?: boolean }>
  readonly knobs: { drop: boolean }
  readonly height: () => number
}

/** The JSON form the RPC uses for a LiteSVM failure (instruction errors as `{InstructionError:[i, …]}`). */
const jsonError = (failed: FailedTransactionMetadata): unknown => {
  const err = failed.err()
  if (typeof err === "object" && err !== null && "index" in err && "err" in err && typeof err.err === "function") {
    const inner: unknown = err.err()
    const detail = typeof inner === "object" && inner !== null && "code" in inner
      ? { Custom: inner.code }
      : String(inner)
    return { InstructionError: [err.index, detail] }
  }
  return String(err)
}

export const make = (svm: LiteSVM): Effect.Effect<RpcServer, never, import("effect").Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ server: Server; state: RpcServer }>((resume) => {
      const landed = new Map<string, Landed>()
      const calls: Array<{ method: string; skipPreflight?: boolean }> = []
      const knobs = { drop: false }
      let height = 1000
      const handle = (method: string, params: ReadonlyArray<unknown>): { result?: unknown; error?: unknown } => {
        if (method === "getBlockHeight") return { result: height++ }
        if (method === "getSignatureStatuses") {
          const [signatures] = params as [ReadonlyArray<string>]
          return {
            result: {
              context: { slot: height },
              value: signatures.map((s) => {
                const l = landed.get(s)
                return l === undefined
                  ? null
                  : { slot: l.slot, confirmations: null, err: l.err, confirmationStatus: "finalized", status: {} }
              })
            }
          }
        }
        if (method === "getTransaction") {
          const l = landed.get(params[0] as string)
          return {
            result: l === undefined ? null : {
              slot: l.slot,
              blockTime: null,
              meta: { err: l.err, logMessages: l.logs, fee: 5000, preBalances: [], postBalances: [] },
              transaction: { signatures: [params[0]], message: {} }
            }
          }
        }
        if (method === "sendTransaction") {
          const [text, config] = params as [string, { skipPreflight?: boolean }]
          calls[calls.length - 1] = { method, skipPreflight: config.skipPreflight === true }
          const tx = getTransactionDecoder().decode(Wire.toBytes(text, "base64")!)
          const signature = PublicKey.base58.encode(Object.values(tx.signatures)[0]!)
          if (config.skipPreflight !== true) {
            const simulated = svm.simulateTransaction(tx as SvmTransaction)
            if (simulated instanceof FailedTransactionMetadata) {
              return {
                error: {
                  code: -32002,
                  message: "Transaction simulation failed",
                  data: { err: jsonError(simulated), logs: simulated.meta().logs(), accounts: null, unitsConsumed: 0 }
                }
              }
            }
          }
          if (!knobs.drop && !landed.has(signature)) {
            const result = svm.sendTransaction(tx as SvmTransaction)
            landed.set(signature, {
              slot: Number(svm.getClock().slot),
              err: result instanceof FailedTransactionMetadata ? jsonError(result) : null,
              logs: result instanceof FailedTransactionMetadata ? result.meta().logs() : result.logs()
            })
          }
          return { result: signature }
        }
        return { error: { code: -32601, message: `method not found: ${method}` } }
      }
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk) => (body += chunk))
        request.on("end", () => {
          const { id, method, params } = JSON.parse(body) as {
            id: unknown
            method: string
            params: ReadonlyArray<unknown>
          }
          calls.push({ method })
          const answer = handle(method, params ?? [])
          response.setHeader("content-type", "application/json")
          response.end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }))
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          state: { url: `http://127.0.0.1:${port}`, calls, knobs, height: () => height }
        }))
      })
    }),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map(({ state }) => state))
