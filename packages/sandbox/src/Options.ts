/**
 * Sandbox options: every knob of the local service.
 *
 * @since 0.1.0
 */
import type { Options } from "./internal/model/options.js"

export type { Options } from "./internal/model/options.js"

/**
 * @since 0.1.0
 * @category constructors
 */
export const defaults: Options = {
  port: 0,
  host: "127.0.0.1",
  seed: "feeshare-sandbox",
  rateLimit: 5000,
  rateWindowMillis: 3_600_000,
  agentAuthLimit: 30,
  agentAuthWindowMillis: 60_000,
  slotMillis: 400,
  latencyMillis: 0,
  errorRates: {},
  burst429: 0,
  dropRate: 0,
  blockhashValidity: 150,
  trustProxy: false,
  maxBodyBytes: 1024 * 1024,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMillis: 10_000,
  requestTimeoutMillis: 30_000,
  adminToken: undefined,
  tamper: []
}

/**
 * Fills the options not given with their defaults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Partial<Options> = {}): Options => ({ ...defaults, ...options })
