/**
 * What the keeper claims: a wallet's positions (one per token mint), its aggregate vaults
 * (partner and deployer, one per quote mint, swept by `claim-vault`) and its deployer
 * positions (claimed in batches by the deployer claim). Each item has a subject, written in the
 * journal's `mint` column: a position's token mint, `vault:<kind>:<quoteMint>`,
 * `deployer:<quoteMint>`; a journal from before sweeps holds token mints only, which read as
 * positions.
 *
 * @since 0.1.0
 */
import type { ClaimTransactions } from "@feeshare/domain"
import { Schema } from "effect"

/**
 * The kinds of item (the names of `ClaimAll.ItemKind` of `@feeshare/solana`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Kind = Schema.Literal("position", "vault", "deployer")

/**
 * @since 0.1.0
 * @category models
 */
export type Kind = typeof Kind.Type

/**
 * Every kind, in the order a pass claims them.
 *
 * @since 0.1.0
 * @category constants
 */
export const kinds: ReadonlyArray<Kind> = Kind.literals

/**
 * An item, read from its subject.
 *
 * @since 0.1.0
 * @category models
 */
export type Subject =
  | { readonly kind: "position"; readonly mint: string }
  | { readonly kind: "vault"; readonly vault: ClaimTransactions.VaultKind; readonly quoteMint: string }
  | { readonly kind: "deployer"; readonly quoteMint: string }

/**
 * The subject of an aggregate vault.
 *
 * @since 0.1.0
 * @category subjects
 */
export const vaultSubject = (vault: ClaimTransactions.VaultKind, quoteMint: string): string =>
  `vault:${vault}:${quoteMint}`

/**
 * The subject of a wallet's deployer positions.
 *
 * @since 0.1.0
 * @category subjects
 */
export const deployerSubject = (quoteMint: string): string => `deployer:${quoteMint}`

/**
 * Reads a subject (pure): a vault's, the deployer's, else a position's token mint.
 *
 * @since 0.1.0
 * @category subjects
 */
export const parse = (subject: string): Subject => {
  const [head, a, b] = subject.split(":")
  if (head === "vault" && (a === "partner" || a === "deployer") && b !== undefined) {
    return { kind: "vault", vault: a, quoteMint: b }
  }
  if (head === "deployer" && a !== undefined && b === undefined) return { kind: "deployer", quoteMint: a }
  return { kind: "position", mint: subject }
}

/**
 * The kind of item a subject names.
 *
 * @since 0.1.0
 * @category subjects
 */
export const kindOf = (subject: string): Kind => parse(subject).kind
