/**
 * The `prepare_*` tools' handlers: each builds its write through the client, verifies it for
 * the wallet (nothing signed), checks the policy's caps and keeps it under a single-use
 * preview id for `execute`.
 *
 * @since 0.1.0
 */
import { type Claims, type FeeShare, FeeShareError, type Signer } from "@feeshare/domain"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Effect, Schema } from "effect"
import * as WritePolicy from "../WritePolicy.js"
import * as ClaimAll from "./claimAll.js"
import { previewClaim } from "./claimPreview.js"
import type { HandlerContext, ToolHandlers } from "./context.js"
import { failing } from "./failures.js"
import { stagePreview, totalFees } from "./stagePreview.js"
import * as TokenLaunch from "./tokenLaunch.js"

/** Verifies fee-share update or partner-claim entries and keeps them under a preview id. */
const previewEntries = (
  context: HandlerContext,
  action: "fee_share_update" | "partner_claim",
  signer: Signer.Signer.Service,
  entries: FeeShare.TransactionEntries,
  mints: ReadonlyArray<string>,
  note: string
) =>
  Effect.gen(function*() {
    const stages = yield* Effect.forEach(entries.transactions, (entry, i) =>
      Effect.map(WireTransaction.verifyEntry(entry, [signer], `entry ${i}`), (verified) =>
        stagePreview(`entry ${i}`, action, verified)))
    const fees = totalFees(stages)
    yield* context.checkDailyFees(fees)
    return yield* context.save({ action, wallet: signer, entries, fees }, {
      action,
      wallet: signer.publicKey,
      mints,
      lamportsSpent: "0",
      networkFeesLamports: String(fees),
      stages,
      verification: {
        verified: true,
        checks: ["each entry's blockhash as stated", "the wallet is a signer", "present signatures verify"]
      },
      note
    })
  })

/**
 * The handlers of the tools that prepare a write.
 *
 * @since 0.1.0
 * @category handlers
 */
export const make = (context: HandlerContext): Pick<
  ToolHandlers,
  | "prepare_claim"
  | "prepare_swap"
  | "prepare_launch"
  | "prepare_token_launch"
  | "prepare_fee_share_update"
  | "prepare_partner_claim"
  | "prepare_claim_all"
> => {
  const { api, checkDailyFees, checkSwapCaps, policy, save, signerFor } = context
  return {
    prepare_claim_all: ({ wallet }) =>
      failing(Effect.flatMap(signerFor(wallet), (signer) => ClaimAll.prepare(context, signer))),
    prepare_claim: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* WritePolicy.checkMint(policy, rest.tokenMint)
        const request: Claims.ClaimPlanRequest = {
          ...rest,
          feeClaimer: signer.publicKey,
          transactionFormat: rest.transactionFormat ?? policy.transactionFormat
        }
        const plan = yield* Effect.flatMap(api, (client) => client.claims.createPlan(request))
        return yield* previewClaim(context, signer, request, plan)
      })),
    prepare_swap: ({ wallet, ...query }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* WritePolicy.checkMint(policy, query.inputMint)
        yield* WritePolicy.checkMint(policy, query.outputMint)
        const quote = yield* Effect.flatMap(api, (client) => client.trade.quote(query))
        const lamports = quote.inputMint === WritePolicy.nativeMint ? quote.inAmount : 0n
        yield* checkSwapCaps(lamports)
        const result = yield* Effect.flatMap(api, (client) =>
          client.trade.swap({ quoteResponse: quote, userPublicKey: signer.publicKey }))
        const verified = yield* WireTransaction.verifySwap(result, [signer])
        const stage = stagePreview("swap", "swap", verified)
        const stated = 5000n * BigInt(verified.decoded.size.signatures) + BigInt(result.prioritizationFeeLamports)
        const fees = stated > BigInt(stage.networkFeeLamports) ? stated : BigInt(stage.networkFeeLamports)
        yield* checkDailyFees(fees)
        return yield* save({ action: "swap", wallet: signer, result, lamports, fees }, {
          action: "swap",
          wallet: signer.publicKey,
          mints: [quote.inputMint, quote.outputMint],
          lamportsSpent: String(lamports),
          networkFeesLamports: String(fees),
          stages: [{ ...stage, networkFeeLamports: String(fees) }],
          verification: {
            verified: true,
            checks: ["the wallet is a signer", "present signatures verify", "compute-unit limit as stated"]
          },
          note:
            `In ${quote.inAmount} of ${quote.inputMint}, out at least ${quote.minOutAmount} of ${quote.outputMint} ` +
            `(slippage ${quote.slippageBps} bps). Execute before the blockhash expires; otherwise prepare again.`
        })
      })),
    prepare_launch: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* WritePolicy.checkMint(policy, rest.tokenMint)
        const lamports = BigInt(rest.initialBuyLamports) + BigInt(rest.tipLamports ?? 0)
        yield* checkSwapCaps(lamports)
        const transaction = yield* Effect.flatMap(api, (client) =>
          client.launch.createTransaction({ ...rest, wallet: signer.publicKey }))
        const verified = yield* WireTransaction.verifyLaunch(transaction, { mint: rest.tokenMint, signers: [signer] })
        const stage = stagePreview("launch", "launch", verified)
        yield* checkDailyFees(BigInt(stage.networkFeeLamports))
        return yield* save(
          {
            action: "launch",
            wallet: signer,
            transaction,
            mint: rest.tokenMint,
            lamports,
            fees: BigInt(stage.networkFeeLamports)
          },
          {
            action: "launch",
            wallet: signer.publicKey,
            mints: [rest.tokenMint],
            lamportsSpent: String(lamports),
            networkFeesLamports: stage.networkFeeLamports,
            stages: [stage],
            verification: {
              verified: true,
              checks: [
                "the mint is a signer and its signature verifies",
                "the wallet is a signer",
                "present signatures verify"
              ]
            },
            note: `Launches ${rest.tokenMint} with an initial buy of ${rest.initialBuyLamports} lamports` +
              (rest.tipLamports === undefined
                ? "."
                : ` and a tip of ${rest.tipLamports} lamports to ${rest.tipWallet}.`)
          }
        )
      })),
    prepare_token_launch: ({ imageBase64, wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        const image = imageBase64 === undefined ? undefined : yield* Effect.mapError(
          Schema.decode(Schema.Uint8ArrayFromBase64)(imageBase64),
          () =>
            new FeeShareError.InvalidRequest({
              operation: "prepare_token_launch",
              field: "imageBase64",
              rule: "must be base64",
              message: "prepare_token_launch: imageBase64 must be base64"
            })
        )
        return yield* TokenLaunch.prepare(context, signer, {
          ...rest,
          ...(image === undefined ? {} : { image: { bytes: image } })
        })
      })),
    prepare_fee_share_update: ({ wallet, ...rest }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        yield* WritePolicy.checkMint(policy, rest.baseMint)
        const entries = yield* Effect.flatMap(api, (client) =>
          client.feeShare.updateConfig({ ...rest, payer: signer.publicKey }))
        return yield* previewEntries(
          context,
          "fee_share_update",
          signer,
          entries,
          [rest.baseMint],
          `Replaces the fee claimers of ${rest.baseMint}: ${
            rest.claimersArray.map((claimer, i) => `${claimer} ${rest.basisPointsArray[i]} bps`).join(", ")
          }.`
        )
      })),
    prepare_partner_claim: ({ wallet }) =>
      failing(Effect.gen(function*() {
        const signer = yield* signerFor(wallet)
        const entries = yield* Effect.flatMap(api, (client) =>
          client.feeShare.partnerClaim({ partnerWallet: signer.publicKey }))
        return yield* previewEntries(
          context,
          "partner_claim",
          signer,
          entries,
          [],
          "Claims the wallet's partner fees; the vault withdrawal lands last."
        )
      }))
  }
}
