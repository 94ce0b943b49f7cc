/**
 * The sandbox-only setup API (`/sandbox/...`) as an `HttpApi`; `SandboxApi.ts` re-exports
 * every name.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { BundleRelay, Envelope, EvmAddress, FeeShareError, PublicKey, RawAmount, TokenInfo } from "@feeshare/domain"
import { Schema } from "effect"
import * as Market from "../model/market/service.js"

/**
 * The path prefix of the sandbox-only operations.
 *
 * @since 0.1.0
 * @category constants
 */
export const prefix = "/sandbox"

/**
 * @since 0.1.0
 * @category schemas
 */
export const EnableMfaInput = Schema.Struct({ wallet: PublicKey.PublicKey })

/**
 * The TOTP secret of a wallet (RFC 6238: HMAC-SHA1, 30 s, 6 digits), base32.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MfaSecret = Schema.Struct({
  wallet: Schema.String,
  secret: Schema.String,
  otpauthUrl: Schema.String,
  digits: Schema.Number,
  periodSeconds: Schema.Number
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const RevokeKeyInput = Schema.Struct({ keyId: Schema.String })

/**
 * @since 0.1.0
 * @category schemas
 */
export const RevokedKey = Schema.Struct({ keyId: Schema.String, revoked: Schema.Boolean })

/**
 * What the EVM fixtures hold, for tests and demos.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EvmFixtures = Schema.Struct({
  indexTokens: Schema.Array(Schema.Struct({ address: EvmAddress.EvmAddress, basket: Schema.Array(Schema.String) })),
  plainTokens: Schema.Array(EvmAddress.EvmAddress),
  /** Owns one v1, one v2 and one v3 position. */
  holder: EvmAddress.EvmAddress,
  /** Owns more positions than `discoveryBound`: its answer is truncated. */
  whale: EvmAddress.EvmAddress,
  discoveryBound: Schema.Number,
  creationFeeWei: RawAmount.BigUint
})

/**
 * @since 0.1.0
 * @category groups
 */
export const SandboxGroup = HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.post("createToken", "/tokens")
      .setPayload(Market.CreateTokenInput)
      .addSuccess(Envelope.Success(Market.CreatedToken))
      .annotate(OpenApi.Summary, "Sandbox-only: create a token whose mint keypair the sandbox holds")
  )
  .add(
    HttpApiEndpoint.post("createFeeShareConfig", "/fee-share-configs")
      .setPayload(Market.CreateFeeShareConfigInput)
      .addSuccess(Envelope.Success(Market.FeeShareConfigView))
      .annotate(OpenApi.Summary, "Sandbox-only: create a fee-share config (claimers, bps, admin, partner)")
  )
  .add(
    HttpApiEndpoint.post("relayBundle", "/bundles")
      .setPayload(BundleRelay.RelayRequest)
      .addSuccess(Envelope.Success(BundleRelay.RelayAnswer))
      .annotate(
        OpenApi.Summary,
        "Sandbox-only: the bundle relay: 1 to 5 signed base58 transactions land together, in order, or none do; no tip"
      )
  )
  .add(
    HttpApiEndpoint.post("airdrop", "/airdrop")
      .setPayload(Market.AirdropInput)
      .addSuccess(Envelope.Success(Market.AirdropResult))
      .annotate(OpenApi.Summary, "Sandbox-only: lamports for an address")
  )
  .add(
    HttpApiEndpoint.post("createHolding", "/holdings")
      .setPayload(Market.CreateHoldingInput)
      .addSuccess(Envelope.Success(Market.HoldingView))
      .annotate(
        OpenApi.Summary,
        "Sandbox-only: hold a balance (wrapped SOL or the Token-2022 quote mint) for a claimer in the token's holding vault"
      )
  )
  .add(
    HttpApiEndpoint.get("quoteMints", "/quote-mints")
      .addSuccess(Envelope.Success(Schema.Array(Market.QuoteMintView)))
      .annotate(
        OpenApi.Summary,
        "Sandbox-only: the quote mints (wrapped SOL, the Token-2022 mint) and their transfer fees"
      )
  )
  .add(
    HttpApiEndpoint.post("setTransferFee", "/quote-mints/transfer-fee")
      .setPayload(Market.SetTransferFeeInput)
      .addSuccess(Envelope.Success(Market.QuoteMintView))
      .annotate(
        OpenApi.Summary,
        "Sandbox-only: a new transfer-fee schedule for the Token-2022 quote mint (SetTransferFee, then two epochs pass)"
      )
  )
  .add(
    HttpApiEndpoint.post("advanceSlots", "/slots/advance")
      .setPayload(Market.AdvanceSlotsInput)
      .addSuccess(Envelope.Success(Market.ClockView))
      .annotate(OpenApi.Summary, "Sandbox-only: move the block clock forward")
  )
  .add(
    HttpApiEndpoint.get("state", "/state")
      .addSuccess(Envelope.Success(Market.LedgerState))
      .annotate(OpenApi.Summary, "Sandbox-only: a snapshot of the ledger and the market")
  )
  .add(
    HttpApiEndpoint.post("enableMfa", "/mfa/enable")
      .setPayload(EnableMfaInput)
      .addSuccess(Envelope.Success(MfaSecret))
      .annotate(OpenApi.Summary, "Sandbox-only: turn TOTP MFA on for a wallet and return its secret")
  )
  .add(
    HttpApiEndpoint.post("revokeKey", "/keys/revoke")
      .setPayload(RevokeKeyInput)
      .addSuccess(Envelope.Success(RevokedKey))
      .annotate(OpenApi.Summary, "Sandbox-only: revoke an API key by id")
  )
  .add(
    HttpApiEndpoint.post("registerHandle", "/handles")
      .setPayload(Market.RegisterHandleInput)
      .addSuccess(Envelope.Success(Market.HandleView))
      .annotate(OpenApi.Summary, "Sandbox-only: register a social handle's launch wallet in the handle directory")
  )
  .add(
    HttpApiEndpoint.get("evmFixtures", "/evm/fixtures")
      .addSuccess(Envelope.Success(EvmFixtures))
      .annotate(OpenApi.Summary, "Sandbox-only: the deterministic EVM fixtures")
  )
  .prefix(prefix)

/**
 * The path prefix of the token media the sandbox serves (what the service keeps on IPFS).
 *
 * @since 0.1.0
 * @category constants
 */
export const mediaPrefix = "/media"

/**
 * @since 0.1.0
 * @category schemas
 */
export const MintQuery = Schema.Struct({ mint: PublicKey.PublicKey })

/**
 * The media of tokens made by token info: their metadata JSON (no envelope, as an IPFS
 * document) and their uploaded image (its bytes, with the type they show). Public, like the
 * IPFS gateways they stand for: no API key, rate-limited per address.
 *
 * @since 0.1.0
 * @category groups
 */
export const MediaGroup = HttpApiGroup.make("media")
  .add(
    HttpApiEndpoint.get("tokenMetadata", "/token-metadata")
      .setUrlParams(MintQuery)
      .addSuccess(TokenInfo.TokenMetadata)
      .annotate(OpenApi.Summary, "Sandbox media: the metadata JSON of a token made by token info")
  )
  .add(
    HttpApiEndpoint.get("tokenImage", "/token-image")
      .setUrlParams(MintQuery)
      .addSuccess(
        Schema.Uint8ArrayFromSelf.pipe(HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: "image/*" }))
      )
      .annotate(OpenApi.Summary, "Sandbox media: the uploaded image of a token made by token info")
  )
  .prefix(mediaPrefix)

/**
 * The sandbox-only API (a separate `HttpApi`, so that clients can call it typed).
 *
 * @since 0.1.0
 * @category api
 */
export class SandboxApi extends HttpApi.make("feeshare-sandbox")
  .add(SandboxGroup)
  .add(MediaGroup)
  .addError(FeeShareError.BadRequestWire)
  .addError(FeeShareError.ForbiddenWire)
  .addError(FeeShareError.NotFoundWire)
  .addError(FeeShareError.ServerErrorWire)
{}
