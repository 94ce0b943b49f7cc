/**
 * The `Accounts` service's tag and interface, and the models it answers with (key owners,
 * API keys, MFA secrets); the implementation is `Accounts.ts`, which re-exports them.
 */
import type { AgentAuth, Identity } from "@feeshare/domain"
import type { BadRequest, NotFound } from "@feeshare/domain/FeeShareError"
import type { PublicKey } from "@feeshare/domain/PublicKey"
import { Context, type Effect, type Option, type Redacted } from "effect"

/**
 * The owner of a valid key.
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyOwner {
  readonly userId: string
  readonly keyId: string
}

/**
 * Sandbox-only: the TOTP secret of a wallet, shown when MFA is enabled.
 *
 * @since 0.1.0
 * @category models
 */
export interface MfaSecret {
  readonly wallet: string
  /** Base32 secret, as authenticator apps take it. */
  readonly secret: string
  readonly otpauthUrl: string
  readonly digits: number
  readonly periodSeconds: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Accounts extends Context.Tag("@feeshare/sandbox/Accounts")<Accounts, Accounts.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Accounts {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** The owner of a key (synchronous: the rate limiter needs it before admitting a request). */
    readonly resolve: (apiKey: string) => Option.Option<KeyOwner>
    readonly user: (userId: string) => Effect.Effect<Identity.User, NotFound>
    readonly init: (address: PublicKey) => Effect.Effect<AgentAuth.Challenge>
    readonly callback: (request: AgentAuth.CallbackRequest) => Effect.Effect<AgentAuth.CallbackResponse, BadRequest>
    /** Sandbox-only: turns TOTP MFA on for a wallet and returns its secret (random, new at each call). */
    readonly enableMfa: (wallet: PublicKey) => Effect.Effect<MfaSecret>
    /** Sandbox-only: revokes a key; `false` when no such key. */
    readonly revoke: (keyId: string) => Effect.Effect<boolean>
    /** The API keys issued, by id and name (never the key itself), at most `max`. */
    readonly keys: (max: number) => ReadonlyArray<KeyInfo>
    /** How many nonces and MFA auth codes wait to be used (each at most `maxPending`). */
    readonly pending: () => { readonly nonces: number; readonly authCodes: number }
    /** A key created at start-up for the demo user (deterministic from the seed on loopback, random off it). */
    readonly demoKey: Redacted.Redacted<string>
    readonly demoUserId: string
  }
}

/**
 * An API key as the explorer lists it: its id, owner and name, never the key.
 *
 * @since 0.1.0
 * @category models
 */
export interface KeyInfo {
  readonly keyId: string
  readonly userId: string
  readonly name: string
  readonly revoked: boolean
}
