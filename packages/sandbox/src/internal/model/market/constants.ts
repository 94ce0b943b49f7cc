/**
 * The market's constants: its economics, the Token-2022 quote mint, the budgets of the
 * transactions it builds (re-exported by `MarketLive`).
 */
import type { Budget } from "@feeshare/solana/StageBuilder"

/**
 * The market's economics.
 *
 * @since 0.1.0
 * @category constants
 */
export const economics = {
  /** Swap fee on the SOL side of every trade. */
  feeBps: 100,
  /** Share of each fee that goes to the token's partner, when it has one. */
  partnerFeeBps: 2_000,
  /**
   * Share of each fee on a migrated (DAMM v2) pool that goes to the token's deployer (its
   * creator), into the deployer's aggregate vault; pre-migration (DBC) fees pay no deployer
   * share. The partner's and the deployer's shares come off the fee first; the claimers split
   * the rest by their basis points.
   */
  deployerFeeBps: 1_000,
  /** Virtual SOL reserve of a new pool (constant product on virtual + real SOL). */
  virtualSolLamports: 30_000_000_000n,
  /** Whole tokens minted to the pool at launch. */
  supplyTokens: 1_000_000_000n,
  /** A pre-migration pool migrates to DAMM v2 once its real SOL reserve reaches this. */
  migrationLamports: 5_000_000_000n,
  /** Default decimals of a created token. */
  decimals: 6,
  /** Slippage of an `auto` quote. */
  autoSlippageBps: 50
} as const

/**
 * Config creation (`POST /fee-share/config`) in the sandbox: what its transactions cost the
 * payer, and when they come as a bundle.
 *
 * @since 0.1.0
 * @category constants
 */
export const configCreation = {
  /** Lamports the payer moves into its deployer vault (config creation funds the deployer accounts). */
  deployerFundingLamports: 50_000_000n,
  /** Bytes of the config account: a header and 34 bytes per claimer (key and basis points). */
  accountSpace: (claimers: number) => 64 + 34 * claimers,
  /** A config with more claimers than this comes as one bundle (both transactions land or none). */
  bundleAbove: 7
} as const

/**
 * The sandbox's Token-2022 quote mint: created on the ledger when the market starts, from keys
 * derived from the seed (the sandbox holds the mint, mint authority, transfer-fee-config and
 * withdraw-withheld authority keys), with a TransferFeeConfig extension and this initial
 * schedule: `basisPoints` of every transfer, at most `maximumFee` (raw units).
 *
 * @since 0.1.0
 * @category constants
 */
export const quoteMint2022 = {
  decimals: 6,
  basisPoints: 100,
  maximumFee: 5_000_000n,
  /** Seed labels of the mint's keypair and of its authority. */
  mintLabel: "quote-mint/token-2022/mint",
  authorityLabel: "quote-mint/token-2022/authority"
} as const

/**
 * Budgets of the transactions the market builds.
 *
 * @since 0.1.0
 * @category constants
 */
export const budgets = {
  swap: { computeUnitLimit: 150_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n },
  claimV0: { computeUnitLimit: 100_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n },
  claimV1: { computeUnitLimit: 100_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 5_000n },
  setup: { computeUnitLimit: 60_000, loadedAccountsDataSizeLimit: 1_048_576, priorityFee: 1_000n }
} as const satisfies Record<string, Budget>
