/**
 * The machinery of the facade's error classes: the base each one extends (the core failure
 * class of its tag, whose instances gain `tag` and, without an HTTP answer, `status` 0), and
 * the registry each one joins from its class body, which the conversion reads.
 */
import type * as Failures from "@feeshare/solana/Failures"
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import type { Schema } from "effect"

/**
 * What every rejection of a `FeeShare` call carries.
 *
 * @since 0.1.0
 * @category models
 */
export interface ErrorFields {
  /** The class name, e.g. `RateLimited` (the same as `_tag`). */
  readonly tag: string
  readonly _tag: string
  /** HTTP status of the answer; 0 when no HTTP answer is involved. */
  readonly status: number
  readonly message: string
  /** The rate-limit headers seen with the answer, when there was one. */
  readonly rateLimit?: RateLimitInfo | undefined
}

/**
 * What the facade adds to a core failure `E`: `tag`, and, when `E` has no HTTP answer,
 * `status` 0 and no `rateLimit`.
 *
 * @since 0.1.0
 * @category models
 */
export type FacadeFields<E extends { readonly _tag: string }> =
  & { readonly tag: E["_tag"] }
  & (E extends { readonly status: number } ? unknown : { readonly status: 0; readonly rateLimit: RateLimitInfo | undefined })

/**
 * The base of the facade class of the core failure class `C`: `C`'s statics, and a
 * constructor of `C`'s instances with `FacadeFields`.
 *
 * @since 0.1.0
 * @category models
 */
export type FacadeBase<C extends Failures.Class> =
  & Omit<C, "prototype">
  & (new(
    props: ConstructorParameters<C>[0],
    options?: Schema.MakeOptions
  ) => InstanceType<C> & FacadeFields<InstanceType<C>>)

/** A core failure class, as the implementation of `facade` sees it. */
type AnyCore = new(props: never, options?: Schema.MakeOptions) => { readonly _tag: string }

/** The base of a facade class: the core class `core`, its instances given `FacadeFields`. */
export function facade<C extends Failures.Class>(core: C): FacadeBase<C>
export function facade(core: AnyCore): AnyCore {
  return class extends core {
    readonly tag = this._tag
    constructor(props: never, options?: Schema.MakeOptions) {
      super(props, options)
      if (!("status" in this)) Object.assign(this, { status: 0, rateLimit: undefined })
    }
  }
}

/** A facade class, as registered: the class of a core failure's tag. */
export type Registered = { readonly _tag: Failures.Tag } & (new(props: never, options?: Schema.MakeOptions) => ErrorFields)

const classes: Array<Registered> = []

/** The facade classes, in the order their modules declared them. */
export const registered: ReadonlyArray<Registered> = classes

/** Called from a facade class's body (`static { register(this) }`). */
export const register = (facadeClass: Registered): void => {
  classes.push(facadeClass)
}
