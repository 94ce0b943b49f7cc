/**
 * The sandbox's knobs, as the model and the HTTP side read them; `Options.ts` holds the
 * defaults and re-exports this model.
 */
import type { Tamper } from "./tamper.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port: number
  /** Host to bind; default 127.0.0.1. */
  readonly host: string
  /** Seed of every deterministic choice (keys, fixtures, TOTP secrets). */
  readonly seed: string
  /** Requests per sliding window per user and per IP (default 5000). */
  readonly rateLimit: number
  /** Length of the sliding window in milliseconds (default one hour). */
  readonly rateWindowMillis: number
  /** The separate, smaller limit on the agent-auth operations per IP (default 30). */
  readonly agentAuthLimit: number
  /** The sliding window of `agentAuthLimit`, in milliseconds (default one minute). */
  readonly agentAuthWindowMillis: number
  /** Milliseconds per slot of the block clock (default 400; tests use less). */
  readonly slotMillis: number
  /** Latency added to every HTTP answer, in milliseconds (default 0). */
  readonly latencyMillis: number
  /** Probability in [0, 1] per status (e.g. `{ 500: 0.1, 503: 0.05 }`) of answering that error instead. */
  readonly errorRates: Readonly<Record<number, number>>
  /** Number of requests, from the start, that are answered 429 regardless of the budget. */
  readonly burst429: number
  /** Probability in [0, 1] that `/rpc` accepts a transaction and never lands it. */
  readonly dropRate: number
  /** Blocks a blockhash stays valid (default 150); lower values make expiry come early. */
  readonly blockhashValidity: number
  /**
   * Take the client's IP from `X-Forwarded-For` (default `false`): only behind a proxy that
   * sets it. Otherwise anyone could pick their IP, and with it a fresh per-IP budget.
   */
  readonly trustProxy: boolean
  /** Largest request body accepted, in bytes (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes: number
  /** Largest request head (request line and headers), in bytes (default 16 KiB); larger is 431. */
  readonly maxHeaderBytes: number
  /** Time allowed to receive a request's headers, in milliseconds (default 10 s); then 408. */
  readonly headersTimeoutMillis: number
  /** Time allowed to receive a whole request, body included, in milliseconds (default 30 s); then 408. */
  readonly requestTimeoutMillis: number
  /**
   * The token the sandbox-only routes (`/sandbox/...`) require as `Authorization: Bearer TOKEN`
   * when the sandbox is bound to a host other than loopback. Default: a random one made at start
   * (see `SandboxInfo.adminToken`). On loopback the routes need no token.
   */
  readonly adminToken: string | undefined
  /**
   * Hostile claim plans (default none): the claim-plan endpoint serves a plan with one stage
   * tampered, e.g. `[{ kind: "flip-byte" }]` (every plan), `[{ kind: "wrong-hash", plans: 2 }]`
   * (the next two plans), `[{ kind: "forged-signature", probability: 0.3 }]`. See `Tamper`.
   */
  readonly tamper: ReadonlyArray<Tamper>
}
