/**
 * What a preview shows of one verified transaction, and its network fee.
 *
 * @since 0.1.0
 */
import * as WireTransaction from "@feeshare/solana/WireTransaction"

/**
 * What the preview shows of one verified transaction: its signers (and which came signed),
 * its accounts, its network fee and its message hash.
 *
 * @since 0.1.0
 * @category constructors
 */
export const stagePreview = (id: string, kind: string, verified: Pick<WireTransaction.Verified, "decoded">) => ({
  id,
  kind,
  requiredSigners: verified.decoded.signers,
  presigned: verified.decoded.signers.filter((key) =>
    Reflect.get(verified.decoded.transaction.signatures, key) !== null
  ),
  accounts: verified.decoded.message.staticAccounts.map(String),
  networkFeeLamports: String(WireTransaction.networkFee(verified.decoded)),
  messageSha256: verified.decoded.messageSha256
})

/**
 * What the preview shows of one verified transaction.
 *
 * @since 0.1.0
 * @category models
 */
export type StagePreview = ReturnType<typeof stagePreview>

/**
 * The network fees of the stages, in lamports.
 *
 * @since 0.1.0
 * @category fees
 */
export const totalFees = (stages: ReadonlyArray<StagePreview>): bigint =>
  stages.reduce((total, stage) => total + BigInt(stage.networkFeeLamports), 0n)
