/**
 * Launch wallets by social handle: the single lookup
 * (`GET /token-launch/fee-share/wallet/v2`, a miss is a 404) and the bulk one
 * (`POST /token-launch/fee-share/wallet/v2/bulk`, a miss is a null wallet in input order).
 *
 * Providers carry the neutral names of the public reference: `social`, `main` (the raw
 * wallet passthrough: the username is a base58 public key, SOL only) and `email`; the
 * reference's eight other, brand-named providers are not offered.
 *
 * Usernames are normalised as the service does for the bulk lookup (lower-cased, one leading
 * `@` removed), on both lookups and before they are sent; a `main` username is a public key
 * and is left as it is (lower-casing base58 would change the key). Failures of these
 * operations (400, 404, 500) carry their message in `response`, not `error`.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { isEvmAddress } from "./EvmAddress.js"
import { ArrayBetween, KeepUnknown, optional } from "./internal/schema.js"
import { isPublicKey } from "./PublicKey.js"

/**
 * Limits stated by the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = { maxUsername: 100, minItems: 1, maxItems: 100 } as const

/**
 * Rule texts, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  username: `must be 1 to ${limits.maxUsername} characters, and not only a leading @`,
  mainChain: "must be SOL (or absent) with provider main",
  mainUsername: "must be a base58 public key with provider main",
  /** The rule of a bulk item that repeats the item at index `first`. */
  duplicate: (first: number) =>
    `repeats items[${first}]: the same username, provider and chain (usernames compared lower-cased, without a leading @; an absent chain is SOL)`
} as const

/**
 * Where a handle's wallet is looked up.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Provider = Schema.Literal("social", "main", "email").annotations({ identifier: "SocialProvider" })

/**
 * @since 0.1.0
 * @category models
 */
export type Provider = typeof Provider.Type

/**
 * The chain of the wallet: `SOL` (base58, the default) or `EVM` (`0x…`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Chain = Schema.Literal("SOL", "EVM").annotations({ identifier: "WalletChain" })

/**
 * @since 0.1.0
 * @category models
 */
export type Chain = typeof Chain.Type

/**
 * A username as the service compares it: lower-cased, one leading `@` removed; a `main`
 * username (a public key) unchanged.
 *
 * @since 0.1.0
 * @category rules
 */
export const normalizeUsername = (provider: Provider, username: string): string =>
  provider === "main" ? username : (username.startsWith("@") ? username.slice(1) : username).toLowerCase()

/**
 * The key two lookups are the same under: normalised username, provider, chain (absent = SOL).
 *
 * @since 0.1.0
 * @category rules
 */
export const lookupKey = (item: { readonly username: string; readonly provider: Provider; readonly chain?: Chain }) =>
  `${item.provider}\u0000${item.chain ?? "SOL"}\u0000${normalizeUsername(item.provider, item.username)}`

const Username = Schema.String.pipe(
  Schema.filter((s) => (s.length >= 1 && s.length <= limits.maxUsername) || rules.username)
)

const fields = { username: Username, provider: Provider, chain: optional(Chain) }

const Raw = Schema.Struct(fields)

const Checked = Schema.Struct(fields).pipe(
  Schema.filter((lookup) => {
    if (lookup.provider === "main") {
      if (lookup.chain === "EVM") return { path: ["chain"], message: rules.mainChain }
      if (!isPublicKey(lookup.username)) return { path: ["username"], message: rules.mainUsername }
    }
    return normalizeUsername(lookup.provider, lookup.username).length > 0 ||
      { path: ["username"], message: rules.username }
  })
)

const normalized = <A extends typeof Raw.Type>(lookup: A): A => ({
  ...lookup,
  username: normalizeUsername(lookup.provider, lookup.username)
})

/**
 * One handle to look up: `{ username, provider, chain? }`, normalised when sent and when
 * received; no other keys.
 *
 * @since 0.1.0
 * @category requests
 */
export const Lookup = Schema.transform(Raw, Checked, { strict: true, decode: normalized, encode: normalized })
  // no identifier: OpenAPI lists the fields of an unnamed schema as query parameters
  .annotations({ parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.1.0
 * @category requests
 */
export type Lookup = typeof Lookup.Type

/**
 * The bulk body: `{ items }`, 1 to 100 lookups, no two the same (`lookupKey`), no other keys.
 *
 * @since 0.1.0
 * @category requests
 */
export const BulkLookupRequest = Schema.Struct({
  items: ArrayBetween(Lookup, limits.minItems, limits.maxItems).pipe(
    Schema.filter((items) => {
      const seen = new Map<string, number>()
      for (let i = 0; i < items.length; i++) {
        const key = lookupKey(items[i]!)
        const first = seen.get(key)
        if (first !== undefined) return { path: [i], message: rules.duplicate(first) }
        seen.set(key, i)
      }
      return true
    })
  )
}).annotations({ identifier: "BulkWalletLookupRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.1.0
 * @category requests
 */
export type BulkLookupRequest = typeof BulkLookupRequest.Type

/**
 * The profile behind a handle; other keys the service sends are kept.
 *
 * @since 0.1.0
 * @category resources
 */
export const PlatformData = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  display_name: Schema.String,
  avatar_url: Schema.String
}, KeepUnknown).annotations({ identifier: "PlatformData" })

/**
 * `true` when `wallet` is an address of `chain` (base58 for SOL, `0x…` for EVM).
 *
 * @since 0.1.0
 * @category rules
 */
export const isWalletOf = (chain: Chain, wallet: string): boolean =>
  chain === "SOL" ? isPublicKey(wallet) : isEvmAddress(wallet)

const walletRule = "must be an address of the chain (base58 for SOL, 0x… for EVM)"

/**
 * The single lookup's answer.
 *
 * @since 0.1.0
 * @category resources
 */
export const LaunchWallet = Schema.Struct({
  provider: Provider,
  platformData: PlatformData,
  wallet: Schema.String,
  chain: Chain
}).pipe(
  Schema.filter((found) => isWalletOf(found.chain, found.wallet) || { path: ["wallet"], message: walletRule }),
  Schema.annotations({ identifier: "LaunchWallet" })
)

/**
 * @since 0.1.0
 * @category resources
 */
export type LaunchWallet = typeof LaunchWallet.Type

/**
 * One entry of the bulk answer: a miss has `platformData` and `wallet` null.
 *
 * @since 0.1.0
 * @category resources
 */
export const BulkLaunchWallet = Schema.Struct({
  username: Schema.String,
  provider: Provider,
  platformData: Schema.NullOr(PlatformData),
  wallet: Schema.NullOr(Schema.String),
  chain: Chain
}).pipe(
  Schema.filter((found) =>
    found.wallet === null || isWalletOf(found.chain, found.wallet) || { path: ["wallet"], message: walletRule }
  ),
  Schema.annotations({ identifier: "BulkLaunchWallet" })
)

/**
 * The bulk answer, in the order of the request's items.
 *
 * @since 0.1.0
 * @category resources
 */
export const BulkLaunchWallets = Schema.Array(BulkLaunchWallet).annotations({ identifier: "BulkLaunchWallets" })

/**
 * @since 0.1.0
 * @category resources
 */
export type BulkLaunchWallets = typeof BulkLaunchWallets.Type
