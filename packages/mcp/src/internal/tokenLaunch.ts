/**
 * `prepare_token_launch` and its execution: a token launched from nothing through the launch
 * flow (`@feeshare/solana/LaunchToken`). The preview is the flow's dry run: the inputs
 * checked, the handles resolved (the split shown), the token info uploaded (it costs no SOL;
 * the session's records keep its mint, so `execute`, or preparing the same launch again,
 * makes no second one), the config's transactions verified and costed (rent and funding,
 * network fees). `execute` runs the flow for real with the same record: the config, then the
 * launch, verified before each signature.
 *
 * The server has no ledger reads for lookup tables, so a split of more than 7 claimers is
 * refused here (the CLI and the facade launch those).
 *
 * @since 0.1.0
 */
import { FeeShare, FeeShareError, type LaunchToken as Inputs } from "@feeshare/domain"
import * as LaunchToken from "@feeshare/solana/LaunchToken"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Layer } from "effect"
import type { HandlerContext, Pending } from "./context.js"
import { stagePreview } from "./stagePreview.js"

/** What the launch's transaction costs in network fees: the wallet's and the mint's signatures. */
const launchFeeLamports = 10_000n

const servicesOf = (context: HandlerContext): LaunchToken.Services<FeeShareError.FeeShareError, never> => ({
  wallets: (request) => Effect.flatMap(context.api, (client) => client.launch.wallets(request)),
  createTokenInfo: (request) => Effect.flatMap(context.api, (client) => client.launch.createTokenInfo(request)),
  createConfig: (request) => Effect.flatMap(context.api, (client) => client.feeShare.createConfig(request)),
  createTransaction: (request) => Effect.flatMap(context.api, (client) => client.launch.createTransaction(request))
})

const percent = (bps: number) => `${bps / 100}%`

/** The dry run, the caps, and the preview. */
export const prepare = (
  context: HandlerContext,
  signer: Parameters<typeof Signers.layer>[0],
  request: Inputs.LaunchTokenRequest
) =>
  Effect.gen(function*() {
    if (request.shares.length > FeeShare.limits.claimersWithoutLookupTables) {
      return yield* new FeeShareError.InvalidRequest({
        operation: "prepare_token_launch",
        field: "shares",
        rule: "must have at most 7 entries here (more need a lookup table: launch them with the CLI or the facade)",
        message: "prepare_token_launch: shares must have at most 7 entries here"
      })
    }
    const lamports = BigInt(request.initialBuyLamports) + BigInt(request.tipLamports ?? 0)
    yield* context.checkSwapCaps(lamports)
    const store = context.launchRecords
    const dry = yield* LaunchToken.run(request, servicesOf(context), { store, dryRun: true }).pipe(
      Effect.provide(Layer.merge(Signers.layer(signer), context.chainLayer))
    )
    const rent = dry.configTransactions.reduce((sum, cost) => sum + cost.transferLamports, 0n)
    const fees = dry.configTransactions.reduce((sum, cost) => sum + cost.networkFeeLamports, 0n) + launchFeeLamports
    yield* context.checkDailyFees(fees)
    const pending: Pending = { action: "token_launch", wallet: signer, request, store, lamports, fees }
    const split = dry.shares.map((share) =>
      `${share.handle ? `${share.label} (${share.wallet})` : share.wallet} ${share.bps} bps (${percent(share.bps)})`
    )
    return yield* context.save(pending, {
      action: "token_launch",
      wallet: signer.publicKey,
      mints: [dry.mint],
      lamportsSpent: String(lamports + rent),
      networkFeesLamports: String(fees),
      // the config's transactions, verified and unsigned; the launch transaction is asked for at
      // execute (it needs the config on chain) and verified then, before the wallet signs
      stages: dry.configTransactions.map((cost) => stagePreview(cost.label, "config", cost.verified)),
      verification: {
        verified: true,
        checks: [
          "every input checked (split sums to 10000, symbol, image)",
          "every handle resolved to a SOL wallet, no wallet twice",
          "each config transaction: the wallet is the fee payer and its only empty slot, present signatures verify, " +
          "the blockhash as stated",
          "the launch transaction is verified (signed by the mint) at execute, before the wallet signs"
        ]
      },
      launch: {
        metadataUrl: dry.metadataUrl,
        shares: dry.shares.map((share) => ({ ...share })),
        deployer: dry.deployer,
        deployerBps: dry.deployerBps,
        configType: dry.configType,
        rentLamports: String(rent),
        initialBuyLamports: String(request.initialBuyLamports)
      },
      note:
        `Launches ${request.name} (${request.symbol}) as ${dry.mint}: split ${
          split.join(", ")
        }; the deployer ${dry.deployer} earns ${dry.deployerBps} bps (${
          percent(dry.deployerBps)
        }) of the claimers' pool before the split; config type ${dry.configType}; rent and funding ${rent} lamports, ` +
        `network fees ${fees} lamports, initial buy ${request.initialBuyLamports} lamports${
          request.tipLamports === undefined ? "" : `, tip ${request.tipLamports} lamports to ${request.tipWallet}`
        }. The token info is already uploaded (free); execute creates the config and launches.`
    })
  })

/** Runs the flow for real with the preview's record: the config, then the launch. */
export const execute = (context: HandlerContext, pending: Extract<Pending, { action: "token_launch" }>) =>
  Effect.gen(function*() {
    yield* context.spending.spend("swap", pending.lamports)
    yield* context.spending.spend("fees", pending.fees)
    const landed: Array<{ id: string; kind: string; signature: string; slot: string }> = []
    const result = yield* LaunchToken.run(pending.request, servicesOf(context), {
      store: pending.store,
      rebroadcastInterval: "1 second",
      onEvent: (event) =>
        Effect.sync(() => {
          if (event._tag === "Landed") {
            landed.push({ id: `${event.step} ${event.label}`, kind: event.step, signature: event.signature, slot: "" })
          }
        })
    }).pipe(Effect.provide(Layer.merge(Signers.layer(pending.wallet), context.chainLayer)))
    return { result, landed }
  })
