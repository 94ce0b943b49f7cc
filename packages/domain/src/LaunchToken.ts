/**
 * Launching a token from nothing: the inputs of the launch flow (the token info, a fee split
 * given as wallets and/or social handles with basis points, the initial buy, an optional tip,
 * partner and config type), the rules they follow before anything is sent, the split once the
 * handles are resolved, the text forms the CLI takes (`social:alice:3000`, `WALLET:7000`,
 * `0.5SOL`), and the resume record a launch keeps between runs.
 *
 * The flow itself (token info, handles, lookup tables, config, launch) is
 * `@feeshare/solana/LaunchToken`; this module holds only what is pure.
 *
 * @since 0.1.0
 */
import { Either, Schema } from "effect"
import * as BasisPoints from "./BasisPoints.js"
import * as FeeShare from "./FeeShare.js"
import { InvalidRequest } from "./FeeShareError.js"
import { ArrayBetween, optional } from "./internal/schema.js"
import * as LaunchWallet from "./LaunchWallet.js"
import { isPublicKey, PublicKey } from "./PublicKey.js"
import { LamportsNumber } from "./RawAmount.js"
import * as TokenInfo from "./TokenInfo.js"
import { toInvalidRequest } from "./Validation.js"

/**
 * The operation name errors of the launch flow carry.
 *
 * @since 0.1.0
 * @category constants
 */
export const operation = "launchToken"

/**
 * Limits of a launch.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = {
  minShares: FeeShare.limits.minClaimers,
  maxShares: FeeShare.limits.maxClaimers,
  /** The largest resume record read back (bytes); a record is a few hundred. */
  maxRecordBytes: 8 * 1024
} as const

/**
 * Rule texts, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  shares: `must have ${limits.minShares} to ${limits.maxShares} entries`,
  sum: "must sum to exactly 10000 (the bps of every share)",
  shareText: "must be WALLET:BPS or PROVIDER:USERNAME:BPS (provider social, email or main), e.g. social:alice:3000",
  /** A share naming the handle of `shares[first]` again. */
  duplicateHandle: (first: number) => `names the same handle as shares[${first}]`,
  /** A handle the service knows no SOL launch wallet of. */
  unknownHandle: (provider: string, username: string) =>
    `names ${provider}:${username}, which has no SOL launch wallet`,
  /** A share resolving to the wallet of `shares[first]`. */
  duplicateWallet: (first: number, wallet: string) =>
    `resolves to ${wallet}, the wallet of shares[${first}] (a wallet takes one share)`,
  amount: "must be lamports (a whole number) or an amount in SOL with its unit, e.g. 0.5SOL (at most 9 decimals)"
} as const

/**
 * A share paid to a wallet.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletShare = Schema.Struct({ wallet: PublicKey, bps: BasisPoints.BasisPoints }).annotations({
  identifier: "WalletShare"
})

/**
 * A share paid to the SOL launch wallet of a social handle (`provider` names where it is
 * looked up; `main` is the raw wallet passthrough).
 *
 * @since 0.1.0
 * @category schemas
 */
export const HandleShare = Schema.Struct({
  provider: LaunchWallet.Provider,
  username: Schema.String.pipe(
    Schema.filter((s) => (s.length >= 1 && s.length <= LaunchWallet.limits.maxUsername) || LaunchWallet.rules.username)
  ),
  bps: BasisPoints.BasisPoints
}).annotations({ identifier: "HandleShare" })

/**
 * One share of the fee split: a wallet or a handle, with its basis points.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Share = Schema.Union(WalletShare, HandleShare).annotations({ identifier: "LaunchShare" })

/**
 * @since 0.1.0
 * @category models
 */
export type Share = typeof Share.Type

/**
 * Whether a share names a handle.
 *
 * @since 0.1.0
 * @category guards
 */
export const isHandle = (share: Share): share is typeof HandleShare.Type => "provider" in share

/**
 * How a share is shown: its wallet, or `provider:username` (normalised).
 *
 * @since 0.1.0
 * @category formatting
 */
export const label = (share: Share): string =>
  isHandle(share)
    ? `${share.provider}:${LaunchWallet.normalizeUsername(share.provider, share.username)}`
    : share.wallet

/**
 * The first broken rule of a split as given (before handles are resolved): the sum, and no
 * handle named twice.
 *
 * @since 0.1.0
 * @category rules
 */
export const sharesIssue = (
  shares: ReadonlyArray<Share>
): { readonly field: string; readonly rule: string } | undefined => {
  if (shares.reduce((sum, share) => sum + share.bps, 0) !== BasisPoints.total) {
    return { field: "shares", rule: rules.sum }
  }
  const seen = new Map<string, number>()
  for (const [i, share] of shares.entries()) {
    if (!isHandle(share)) continue
    const key = LaunchWallet.lookupKey(share)
    const first = seen.get(key)
    if (first !== undefined) return { field: `shares[${i}]`, rule: rules.duplicateHandle(first) }
    seen.set(key, i)
  }
  return undefined
}

const tokenFields = TokenInfo.TokenInfoRequest.from.fields

/**
 * The inputs of the launch flow: the token info's fields (an image file or an image URL,
 * and links), the split (1 to 100 shares summing to 10000), the initial buy in lamports,
 * and the optional tip (both fields or none), partner (both fields or none) and config type
 * (default `FeeShare.defaultConfigType`).
 *
 * @since 0.1.0
 * @category requests
 */
export const LaunchTokenRequest = Schema.Struct({
  name: tokenFields.name,
  symbol: tokenFields.symbol,
  description: tokenFields.description,
  image: tokenFields.image,
  imageUrl: tokenFields.imageUrl,
  telegram: tokenFields.telegram,
  social: tokenFields.social,
  website: tokenFields.website,
  shares: ArrayBetween(Share, limits.minShares, limits.maxShares).pipe(
    Schema.filter((shares) => {
      const issue = sharesIssue(shares)
      // the field is `shares` or `shares[i]`: the path below `shares`
      const index = issue === undefined ? undefined : /^shares\[(\d+)\]$/.exec(issue.field)?.[1]
      return issue === undefined || { path: index === undefined ? [] : [Number(index)], message: issue.rule }
    })
  ),
  initialBuyLamports: LamportsNumber,
  tipWallet: optional(PublicKey),
  tipLamports: optional(LamportsNumber),
  partner: optional(PublicKey),
  partnerConfig: optional(PublicKey),
  configType: optional(FeeShare.ConfigType)
}).pipe(
  Schema.filter((request) => {
    const image = TokenInfo.combinationError({
      image: request.image !== undefined,
      imageUrl: request.imageUrl !== undefined,
      metadataUrl: false
    })
    if (image !== undefined) return { path: [image.field], message: image.rule }
    if ((request.tipWallet === undefined) !== (request.tipLamports === undefined)) {
      return {
        path: [request.tipWallet === undefined ? "tipWallet" : "tipLamports"],
        message: FeeShare.createConfigRules.tip
      }
    }
    if ((request.partner === undefined) !== (request.partnerConfig === undefined)) {
      return {
        path: [request.partner === undefined ? "partner" : "partnerConfig"],
        message: FeeShare.createConfigRules.partner
      }
    }
    return true
  }),
  Schema.annotations({ identifier: "LaunchTokenRequest", parseOptions: { onExcessProperty: "error" } })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type LaunchTokenRequest = typeof LaunchTokenRequest.Type

const validate = Schema.validateEither(LaunchTokenRequest, { errors: "first", onExcessProperty: "error" })

/**
 * Checks the inputs: every rule above, as `InvalidRequest` naming the field (`shares`,
 * `shares[3]`, `symbol`, `image.bytes`, ...). Nothing is sent before this passes.
 *
 * @since 0.1.0
 * @category rules
 */
export const check = (request: LaunchTokenRequest): Either.Either<LaunchTokenRequest, InvalidRequest> =>
  Either.mapLeft(validate(request), (error) => toInvalidRequest(operation, error))

/**
 * A share once its handle is resolved: who it names, the wallet that is paid, its bps.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedShare {
  /** The wallet, or `provider:username`. */
  readonly label: string
  readonly wallet: string
  readonly bps: number
  readonly handle: boolean
}

/**
 * The split as config creation takes it, from the shares and, for each share in order, the
 * wallet its handle resolved to (`null`: none; ignored for wallet shares). A handle without
 * a wallet and two shares paying one wallet are refused, naming the share.
 *
 * @since 0.1.0
 * @category rules
 */
export const resolve = (
  shares: ReadonlyArray<Share>,
  wallets: ReadonlyArray<string | null>
): Either.Either<ReadonlyArray<ResolvedShare>, InvalidRequest> => {
  const fail = (field: string, rule: string) =>
    Either.left(new InvalidRequest({ operation, field, rule, message: `${operation}: ${field} ${rule}` }))
  const out: Array<ResolvedShare> = []
  const seen = new Map<string, number>()
  for (const [i, share] of shares.entries()) {
    const wallet = isHandle(share) ? wallets[i] ?? null : share.wallet
    if (wallet === null || !isPublicKey(wallet)) {
      const handle = share as typeof HandleShare.Type
      return fail(
        `shares[${i}]`,
        rules.unknownHandle(handle.provider, LaunchWallet.normalizeUsername(handle.provider, handle.username))
      )
    }
    const first = seen.get(wallet)
    if (first !== undefined) return fail(`shares[${i}]`, rules.duplicateWallet(first, wallet))
    seen.set(wallet, i)
    out.push({ label: label(share), wallet, bps: share.bps, handle: isHandle(share) })
  }
  return Either.right(out)
}

/**
 * One share written as text: `WALLET:BPS`, or `PROVIDER:USERNAME:BPS` (the provider first, so
 * a handle always names where it is looked up; a username may itself hold `:`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseShare = (text: string): Either.Either<Share, string> => {
  const last = text.lastIndexOf(":")
  if (last <= 0) return Either.left(rules.shareText)
  const head = text.slice(0, last)
  const bpsText = text.slice(last + 1)
  if (!/^\d{1,5}$/.test(bpsText) || !BasisPoints.isBasisPoints(Number(bpsText))) {
    return Either.left(`${rules.shareText}; BPS ${BasisPoints.rule}`)
  }
  const bps = Number(bpsText)
  const colon = head.indexOf(":")
  if (colon < 0) return isPublicKey(head) ? Either.right({ wallet: head, bps }) : Either.left(rules.shareText)
  const provider = head.slice(0, colon)
  const username = head.slice(colon + 1)
  if (!Schema.is(LaunchWallet.Provider)(provider) || username.length === 0) return Either.left(rules.shareText)
  return Either.right({ provider, username, bps })
}

const lamportsPerSol = 1_000_000_000n

/**
 * An amount written as text: lamports (`250000000`), or SOL with its unit (`0.25SOL`,
 * `0.25 sol`), at most 9 decimals; the lamports as a safe integer.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseLamports = (text: string): Either.Either<number, string> => {
  const trimmed = text.trim()
  const lamports = /^\d{1,16}$/.exec(trimmed)
  const sol = /^(\d{1,9})(?:\.(\d{1,9}))?\s*sol$/i.exec(trimmed)
  const value = lamports !== null
    ? BigInt(trimmed)
    : sol !== null
    ? BigInt(sol[1]!) * lamportsPerSol + BigInt((sol[2] ?? "").padEnd(9, "0"))
    : undefined
  return value === undefined || value > BigInt(Number.MAX_SAFE_INTEGER)
    ? Either.left(rules.amount)
    : Either.right(Number(value))
}

/**
 * What a launch has made so far, kept between runs so that a rerun after a crash reuses the
 * token info, the lookup table and the config instead of making new ones. Keyed by `key`, a
 * digest of the launch's inputs and wallet; it holds public values only (no key, no image).
 *
 * @since 0.1.0
 * @category records
 */
export const LaunchRecord = Schema.Struct({
  version: Schema.Literal(1),
  key: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  wallet: PublicKey,
  tokenMint: optional(PublicKey),
  tokenMetadata: optional(Schema.String.pipe(Schema.maxLength(2048))),
  lookupTable: optional(PublicKey),
  configKey: optional(PublicKey),
  /**
   * The launch transaction as signed, kept before it is sent: a rerun confirms these bytes (or
   * finds them landed) and asks for a new launch only once they expired unlanded or failed.
   */
  launchSent: optional(Schema.Struct({
    signature: Schema.String.pipe(Schema.maxLength(128)),
    /** The signed wire bytes, base64 (a transaction is at most 1232 bytes). */
    transaction: Schema.String.pipe(Schema.maxLength(1644)),
    /** No block after this height can include it (`Chain.lastValidBlockHeight` when it was signed). */
    lastValidBlockHeight: Schema.BigInt
  })),
  launchSignature: optional(Schema.String.pipe(Schema.maxLength(128)))
}).annotations({ identifier: "LaunchRecord", parseOptions: { onExcessProperty: "error" } })

/**
 * @since 0.1.0
 * @category records
 */
export type LaunchRecord = typeof LaunchRecord.Type

/**
 * The steps of a launch, in order.
 *
 * @since 0.1.0
 * @category constants
 */
export const steps = ["handles", "token-info", "lookup-table", "config", "launch"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Step = typeof steps[number]

/**
 * The deployer's share, as shown with the split: the config's payer earns
 * `FeeShare.deployerBps` of the gross claimers pool before the claimers' split.
 *
 * @since 0.1.0
 * @category constants
 */
export const deployerBps = FeeShare.deployerBps
