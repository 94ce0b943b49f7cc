/**
 * Token info: the token-info operation stores a token's name, symbol, description, image and
 * links, makes its mint (the keypair stays here; the launch transaction comes signed by it),
 * and serves the metadata JSON and the image at the sandbox's media URLs.
 */
import * as BasisPoints from "@feeshare/domain/BasisPoints"
import * as TokenInfo from "@feeshare/domain/TokenInfo"
import { Clock, Effect } from "effect"
import { economics } from "./constants.js"
import type { MediaUrls } from "./service.js"
import { reject, type StoredTokenInfo, type TokenState } from "./state.js"
import type { MarketState } from "./state.js"

/** The most image bytes the sandbox keeps in memory, all tokens together. */
export const maxStoredImageBytes = 256 * 1024 * 1024

/** The most tokens the token-info operation makes in one sandbox. */
export const maxTokenInfos = 10_000

/** A token launch's status from its state: not launched, on the curve, migrated. */
export const statusOf = (state: TokenState): typeof TokenInfo.LaunchStatus.Type =>
  !state.launched ? "PRE_LAUNCH" : state.migrated ? "MIGRATED" : "PRE_GRAD"

/** The stored launch, as the token-info answer shows it. */
export const launchView = (state: TokenState, info: StoredTokenInfo): TokenInfo.TokenLaunch => ({
  name: state.name,
  symbol: state.symbol,
  description: info.description,
  image: info.imageUrl,
  tokenMint: state.mint.address,
  status: statusOf(state),
  createdAt: info.createdAt,
  updatedAt: info.updatedAt,
  userId: null,
  telegram: info.telegram,
  social: info.social,
  website: info.website,
  launchWallet: info.launchWallet,
  launchSignature: info.launchSignature,
  uri: info.metadataUrl
})

/** The operations of this area over the market's state. */
export const make = (market: MarketState) => {
  const { tokens, tokenKeys, fundRent, token } = market
  let storedImageBytes = 0

  const infoOf = (mint: string) =>
    Effect.flatMap(token(mint), (state) =>
      state.info === null
        ? Effect.fail(reject(404, `token ${mint} was not made by the token-info operation`))
        : Effect.succeed({ state, info: state.info }))

  const createTokenInfo = Effect.fn("Market.createTokenInfo")(function*(
    request: TokenInfo.TokenInfoRequest,
    urls: MediaUrls
  ) {
    if (tokens.size >= maxTokenInfos) {
      return yield* reject(400, `the sandbox makes at most ${maxTokenInfos} tokens`)
    }
    const image = request.image
    const imageType = image === undefined ? undefined : TokenInfo.imageType(image.bytes)
    if (image !== undefined && storedImageBytes + image.bytes.length > maxStoredImageBytes) {
      return yield* reject(400, `the sandbox keeps at most ${maxStoredImageBytes} bytes of images; restart it`)
    }
    const index = tokens.size
    const keys = yield* tokenKeys(index)
    const mint = keys.mint.address
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const info: StoredTokenInfo = {
      description: request.description,
      image: image === undefined || imageType === undefined
        ? null
        : { bytes: image.bytes, contentType: TokenInfo.mediaTypes[imageType] },
      imageUrl: request.imageUrl ?? urls.image(mint),
      metadataUrl: request.metadataUrl ?? urls.metadata(mint),
      telegram: request.telegram ?? null,
      social: request.social ?? null,
      website: request.website ?? null,
      createdAt: now,
      updatedAt: now,
      launchWallet: null,
      launchSignature: null
    }
    const state: TokenState = {
      index,
      ...keys,
      creator: null,
      info,
      name: request.name,
      symbol: request.symbol,
      decimals: economics.decimals,
      flow: "dbc",
      supply: economics.supplyTokens * 10n ** BigInt(economics.decimals),
      launched: false,
      migrated: false,
      tokenReserve: 0n,
      solReserve: 0n,
      unpaidFees: 0n,
      lifetimeFees: 0n,
      partnerPending: 0n,
      deployerPending: 0n,
      // no admin and no claimers until the launch lands (or a fee-share config is made)
      config: { admin: "", partner: null, claimers: [], customFeeVault: null, deployer: null },
      createdConfig: null,
      shares: new Map(),
      claimEvents: []
    }
    yield* fundRent("pool authority", keys.pool.address)
    tokens.set(mint, state)
    if (info.image !== null) storedImageBytes += info.image.bytes.length
    const answer: TokenInfo.TokenInfo = {
      tokenMint: mint,
      tokenMetadata: info.metadataUrl,
      tokenLaunch: launchView(state, info)
    }
    return answer
  })

  /** The metadata JSON of a token made by token info (404 for any other mint). */
  const tokenMetadata = (mint: string) =>
    Effect.map(infoOf(mint), ({ info, state }): typeof TokenInfo.TokenMetadata.Type => ({
      name: state.name,
      symbol: state.symbol,
      description: info.description,
      image: info.imageUrl,
      ...(info.telegram === null ? {} : { telegram: info.telegram }),
      ...(info.social === null ? {} : { social: info.social }),
      ...(info.website === null ? {} : { website: info.website })
    }))

  /** The uploaded image of a token (404 when it has none: an image URL was given). */
  const tokenImage = (mint: string) =>
    Effect.flatMap(infoOf(mint), ({ info }) =>
      info.image === null
        ? Effect.fail(reject(404, `token ${mint} has no uploaded image (it names ${info.imageUrl})`))
        : Effect.succeed(info.image))

  /** The defaults a launch of a token-info mint records when it lands: the launcher is creator, admin and claimer. */
  const adoptLauncher = (state: TokenState, wallet: string, signature: string, at: string) => {
    state.creator = wallet
    if (state.config.claimers.length === 0) {
      state.config = {
        admin: wallet,
        partner: null,
        claimers: [{ wallet, bps: BasisPoints.total }],
        customFeeVault: null,
        deployer: null
      }
    }
    if (state.info !== null) {
      state.info.launchWallet = wallet
      state.info.launchSignature = signature
      state.info.updatedAt = at
    }
  }

  return { createTokenInfo, tokenMetadata, tokenImage, adoptLauncher }
}

/** The operations of this area. */
export type Service = ReturnType<typeof make>
