/**
 * Several local signers provided together, for transactions that need more than one of the
 * caller's keys. The first is the primary signer (the wallet the request was made for); the
 * others sign only the transactions that list them as required signers.
 *
 * @since 0.1.0
 */
import { Signer } from "@feeshare/domain"
import { Context, Effect, Layer } from "effect"

/**
 * @since 0.1.0
 * @category tags
 */
export class Signers extends Context.Tag("@feeshare/solana/Signers")<Signers, Signers.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace Signers {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** The primary signer (the wallet). */
    readonly primary: Signer.Signer.Service
    /** Every local signer, the primary first, without duplicate public keys. */
    readonly all: ReadonlyArray<Signer.Signer.Service>
  }
}

/**
 * A set of signers: `primary` first, then `others` (a repeated public key is kept once).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  primary: Signer.Signer.Service,
  ...others: ReadonlyArray<Signer.Signer.Service>
): Signers.Service => {
  const seen = new Set<string>()
  const all: Array<Signer.Signer.Service> = []
  for (const signer of [primary, ...others]) {
    if (seen.has(signer.publicKey)) continue
    seen.add(signer.publicKey)
    all.push(signer)
  }
  return { primary, all }
}

/**
 * The signers that sign a transaction requiring `requiredSigners`: the primary always (the
 * verification refuses a transaction that does not require it), the others when required.
 *
 * @since 0.1.0
 * @category combinators
 */
export const forTransaction = (
  signers: Signers.Service,
  requiredSigners: ReadonlyArray<string>
): ReadonlyArray<Signer.Signer.Service> => {
  const required = new Set(requiredSigners)
  return signers.all.filter((signer, i) => i === 0 || required.has(signer.publicKey))
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  primary: Signer.Signer.Service,
  ...others: ReadonlyArray<Signer.Signer.Service>
): Layer.Layer<Signers> => Layer.succeed(Signers, make(primary, ...others))

/**
 * The set from effects that load each signer (e.g. `LocalSigner.fromKeygenFile`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerEffect = <E, R>(
  primary: Effect.Effect<Signer.Signer.Service, E, R>,
  ...others: ReadonlyArray<Effect.Effect<Signer.Signer.Service, E, R>>
): Layer.Layer<Signers, E, R> =>
  Layer.effect(
    Signers,
    Effect.all([primary, ...others]).pipe(Effect.map(([first, ...rest]) => make(first, ...rest)))
  )

/**
 * A set holding only the `Signer` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const fromSigner: Layer.Layer<Signers, never, Signer.Signer> = Layer.effect(
  Signers,
  Effect.map(Signer.Signer, (signer) => make(signer))
)
