/**
 * What a claim costs the wallet that signs it, read from its decoded (verified) transactions,
 * never from figures the service states: the network fee of every transaction the wallet pays
 * for (it is the fee payer: its first signer), and the rent of the accounts a transaction
 * creates with the wallet's lamports (system `CreateAccount` and `CreateAccountWithSeed`: the
 * lamports the instruction moves; an associated token account: the rent-exempt minimum of a
 * token account). A gas-sponsored claim (the sponsor pays the fee and funds the accounts)
 * costs the wallet nothing. An idempotent associated-account creation counts as a creation:
 * the transaction alone cannot tell whether the account exists already, so the figure errs on
 * the side of leaving dust alone.
 *
 * @since 0.1.0
 */
import { programs, readMessage } from "./ClaimVerification.js"
import { type Decoded, networkFee } from "./TransactionDecoding.js"

/**
 * Lamports a claim costs its wallet: network fees and rent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cost {
  readonly fees: bigint
  readonly rent: bigint
}

/**
 * Nothing.
 *
 * @since 0.1.0
 * @category constants
 */
export const zero: Cost = { fees: 0n, rent: 0n }

/**
 * The rent-exempt minimum of an account of `space` bytes under Solana's default rent (3,480
 * lamports per byte-year, two years, 128 bytes of account overhead).
 *
 * @since 0.1.0
 * @category rent
 */
export const rentExemptMinimum = (space: number): bigint => BigInt(space + 128) * 3_480n * 2n

/**
 * Bytes of an associated token account: a plain token account, and a token-2022 account with
 * its immutable-owner extension.
 *
 * @since 0.1.0
 * @category rent
 */
export const tokenAccountSpace = { token: 165, token2022: 170 } as const

const u64 = (data: Uint8Array, offset: number): bigint | undefined =>
  data.length < offset + 8
    ? undefined
    : new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)

const u32 = (data: Uint8Array): number | undefined =>
  data.length < 4 ? undefined : new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true)

/** The lamports a system instruction funds a new account with, when it is a creation. */
const systemCreation = (data: Uint8Array): bigint | undefined => {
  switch (u32(data)) {
    // CreateAccount: u32, lamports u64, space u64, owner
    case 0:
      return u64(data, 4)
    // CreateAccountWithSeed: u32, base (32), seed (u64 length + bytes), lamports u64, ...
    case 3: {
      const length = u64(data, 36)
      return length === undefined || length > 64n ? undefined : u64(data, 44 + Number(length))
    }
    default:
      return undefined
  }
}

/**
 * What one decoded transaction costs `wallet` (pure): its network fee when the wallet pays it,
 * and the rent of the accounts it creates with the wallet's lamports.
 *
 * @since 0.1.0
 * @category cost
 */
export const ofTransaction = (decoded: Decoded, wallet: string): Cost => {
  const fees = decoded.signers[0] === wallet ? networkFee(decoded) : 0n
  let rent = 0n
  for (const instruction of readMessage(decoded).instructions) {
    const funder = instruction.accounts[0]
    if (funder !== wallet) continue
    if (instruction.program === programs.system) {
      rent += systemCreation(instruction.data) ?? 0n
    } else if (
      instruction.program === programs.associatedToken &&
      (instruction.data.length === 0 || instruction.data[0] === 0 || instruction.data[0] === 1)
    ) {
      rent += rentExemptMinimum(
        instruction.accounts[5] === programs.token2022 ? tokenAccountSpace.token2022 : tokenAccountSpace.token
      )
    }
  }
  return { fees, rent }
}

/**
 * What several transactions cost `wallet`, added up.
 *
 * @since 0.1.0
 * @category cost
 */
export const ofTransactions = (decoded: ReadonlyArray<Decoded>, wallet: string): Cost =>
  decoded.map((one) => ofTransaction(one, wallet)).reduce(
    (sum, one) => ({ fees: sum.fees + one.fees, rent: sum.rent + one.rent }),
    zero
  )

/**
 * Whether a claim is worth making: its cost (fees plus rent) is at most `maxCostFraction` of
 * what it would claim (pure). Nothing to claim is never worth a cost.
 *
 * @since 0.1.0
 * @category rules
 */
export const pays = (cost: Cost, claimable: bigint, maxCostFraction: number): boolean => {
  const total = cost.fees + cost.rent
  if (total === 0n) return true
  if (claimable <= 0n) return false
  // exact: the fraction as parts per million
  const ppm = BigInt(Math.round(maxCostFraction * 1_000_000))
  return total * 1_000_000n <= claimable * ppm
}
