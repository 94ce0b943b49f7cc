/**
 * The EVM fixtures as the handlers read them; `EvmFixtures.ts` makes them from the seed and
 * re-exports this model.
 */
import type { Evm } from "@feeshare/domain"

/**
 * @since 0.1.0
 * @category models
 */
export interface Fixtures {
  /** Index tokens (EIP-55) and the basket each one buys. */
  readonly indexTokens: ReadonlyArray<{ readonly address: string; readonly basket: ReadonlyArray<string> }>
  /** Tokens that are not index tokens. */
  readonly plainTokens: ReadonlyArray<string>
  /** An owner with one position of each version (v1, v2, v3). */
  readonly holder: string
  /** An owner with more positions than `discoveryBound`. */
  readonly whale: string
  readonly creationFeeWei: bigint
  readonly discoveryBound: number
  readonly indexStatus: (addresses: ReadonlyArray<string>) => ReadonlyArray<Evm.IndexTokenStatus>
  readonly positions: (owner: string) => typeof Evm.EvmPositions.Type
}
