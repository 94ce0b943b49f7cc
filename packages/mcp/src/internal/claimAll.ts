/**
 * `prepare_claim_all` and its `execute`: everything a wallet is owed (claimable positions,
 * aggregate vaults, the deployer's positions) through `ClaimAll`, which verifies every
 * transaction before the wallet signs it. The service's answers pass through a meter first:
 * the preview shows each transaction and its network fee, and the execution counts an
 * answer's fees against the daily cap before any of it is signed (a cap reached fails that
 * item, nothing of it signed, and the run goes on).
 *
 * @since 0.1.0
 */
import type { Signer } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as ClaimAll from "@feeshare/solana/ClaimAll"
import * as Signers from "@feeshare/solana/Signers"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Effect, Layer, Option } from "effect"
import * as WritePolicy from "../WritePolicy.js"
import type { HandlerContext, Pending } from "./context.js"
import { type StagePreview, stagePreview, totalFees } from "./stagePreview.js"

/**
 * The stage previews of wire transactions the service sent, decoded for their fees (`ClaimAll`
 * verifies them before anything is signed).
 */
const decodedStages = (
  entries: ReadonlyArray<{ readonly id: string; readonly kind: string; readonly text: string }>,
  encoding: "base58" | "base64" = "base58"
) =>
  Effect.forEach(
    entries,
    ({ id, kind, text }) =>
      Effect.map(WireTransaction.decode(text, encoding, id), (decoded) => stagePreview(id, kind, { decoded }))
  )

/**
 * The claims calls with `onStages` run on every answer that carries transactions, before
 * `ClaimAll` verifies and signs them.
 */
const metered = <E, R, E2>(
  calls: ClaimAll.Calls<E, R>,
  onStages: (stages: ReadonlyArray<StagePreview>) => Effect.Effect<void, E2>
): ClaimAll.Calls<
  | E
  | E2
  | WireTransaction.MalformedTransaction
  | WireTransaction.NonCanonicalTransaction,
  R
> => ({
  ...calls,
  claimV3: (input) =>
    Effect.tap(calls.claimV3(input), (answer) =>
      Effect.flatMap(
        decodedStages(
          answer.map((entry, i) => ({ id: `v3 ${input.tokenMint} ${i}`, kind: "claim_v3", text: entry.tx }))
        ),
        onStages
      )),
  claimVault: (input) =>
    Effect.tap(calls.claimVault(input), (answer) =>
      Effect.flatMap(
        decodedStages([{
          id: `vault ${input.kind} ${input.quoteMint}`,
          kind: "claim_vault",
          text: answer.transaction
        }]),
        onStages
      )),
  deployerClaim: (input) =>
    Effect.tap(calls.deployerClaim(input), (batch) =>
      Effect.flatMap(
        decodedStages(
          batch.transactions.map((entry, i) => ({
            id: `deployer ${i}`,
            kind: "deployer_claim",
            text: entry.transaction
          }))
        ),
        onStages
      )),
  createPlan: (request) =>
    Effect.tap(calls.createPlan(request), (plan) =>
      Effect.flatMap(
        decodedStages(
          plan.transactions.map((stage) => ({ id: stage.id, kind: stage.kind, text: stage.transaction })),
          "base64"
        ),
        onStages
      ))
})

/** The rows of a run, as the tools answer them. */
const rowsOf = (result: ClaimAll.Result) => ({
  items: result.items.map((item) => ({
    kind: item.kind,
    route: item.route,
    subject: item.subject,
    asset: item.asset,
    amount: String(item.amount),
    state: item.state,
    stages: item.stages,
    signatures: item.signatures,
    error: item.error
  })),
  totals: result.totals.map((total) => ({
    asset: total.asset,
    owed: String(total.owed),
    claimed: String(total.claimed)
  }))
})

const environment = (context: HandlerContext, wallet: Signer.Signer.Service) =>
  Layer.merge(Signers.layer(wallet), context.chainLayer)

/**
 * The dry run: every item found and each transaction verified (nothing signed), the fees
 * checked against today's cap, kept under a preview id.
 *
 * @since 0.1.0
 * @category previews
 */
export const prepare = (context: HandlerContext, wallet: Signer.Signer.Service) =>
  Effect.gen(function*() {
    if (context.policy.allowedMints !== undefined) {
      return yield* new WritePolicy.PolicyViolation({
        rule: "allowedMints",
        message: "claiming everything touches every mint the wallet is owed in, which allowedMints restricts: " +
          "use prepare_claim for each allowed mint"
      })
    }
    const client = yield* context.api
    const stages: Array<StagePreview> = []
    const calls = metered(client.claims, (found) => Effect.sync(() => stages.push(...found)))
    const result = yield* ClaimAll.run(calls, { dryRun: true }).pipe(Effect.provide(environment(context, wallet)))
    const fees = totalFees(stages)
    yield* context.checkDailyFees(fees)
    const deployer = result.items.some((item) => item.kind === "deployer")
    return yield* context.save({ action: "claim_all", wallet, fees }, {
      action: "claim_all",
      wallet: wallet.publicKey,
      mints: [...new Set(result.items.flatMap((item) => item.kind === "position" ? [item.subject] : [item.asset]))],
      lamportsSpent: "0",
      networkFeesLamports: String(fees),
      stages,
      verification: {
        verified: result.complete,
        checks: [
          "positions: each v3 transaction or plan stage against its metadata",
          "vaults: the sweep's accounts, signers and sponsor",
          "deployer: each claim transaction's accounts, signers and sponsor"
        ]
      },
      claimAll: rowsOf(result),
      note: result.nothingToClaim
        ? "Nothing to claim."
        : `${result.items.length} item(s) verified as rows show; execute claims them in order, each verified again ` +
          "before it is signed" +
          (deployer ? "; the deployer's later batches (asked once the first lands) are verified then." : ".")
    })
  })

/**
 * Claims every item, each answer's fees counted against the daily cap before it is signed.
 *
 * @since 0.1.0
 * @category execution
 */
export const execute = (
  context: HandlerContext,
  previewId: string,
  pending: Extract<Pending, { action: "claim_all" }>
) =>
  Effect.gen(function*() {
    const client = yield* context.api
    const calls = metered(
      client.claims,
      (stages) => context.spending.spend("fees", totalFees(stages))
    )
    const result = yield* ClaimAll.run(calls, { rebroadcastInterval: "1 second" }).pipe(
      Effect.provide(environment(context, pending.wallet))
    )
    const chain = yield* Effect.provide(Chain.Chain, context.chainLayer)
    const landed = yield* Effect.forEach(
      result.items.flatMap((item) => item.signatures.map((signature) => ({ item, signature }))),
      ({ item, signature }) =>
        Effect.map(chain.signatureStatus(signature, { searchHistory: true }), (status) => ({
          id: `${item.kind} ${item.subject}`,
          kind: item.route,
          signature,
          slot: Option.match(status, { onNone: () => "", onSome: ({ slot }) => String(slot) })
        }))
    )
    return { previewId, action: "claim_all" as const, landed, rebuilds: 0, claimAll: rowsOf(result) }
  })
