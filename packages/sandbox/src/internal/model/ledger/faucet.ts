/**
 * Airdrops: real transfers from a faucet key (derived from the seed) that land at once and are
 * in the history like any transaction. The faucet is refilled whenever it cannot cover a
 * request, so it never runs dry; each airdrop carries a numbered memo, so identical requests
 * in one slot are distinct transactions.
 */
import { build } from "@feeshare/solana/StageBuilder"
import { isAddress, lamports } from "@solana/kit"
import { Effect } from "effect"
import type { LiteSVM } from "litesvm"
import { deriveSigner } from "../keys.js"
import { memo, memoText, SYSTEM_PROGRAM, transferSol } from "../programs.js"
import type { BlockClock } from "./clock.js"
import type { Landing } from "./landing.js"
import { invalidParams, type RpcTransactionError } from "./models.js"
import { decode } from "./wire.js"

/**
 * The most lamports one airdrop credits: 1,000,000 SOL. A larger request is refused.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxAirdropLamports = 1_000_000_000_000_000n

/**
 * The largest balance an account can hold (u64).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLamports = 18_446_744_073_709_551_615n

/** The fee of an airdrop (one signature), paid by the faucet. */
const faucetFee = 5_000n

/** What the faucet holds after a refill: ten requests at the limit. */
const faucetRefill = 10n * maxAirdropLamports

/** What the faucet needs of the ledger. */
export interface Parts {
  readonly svm: LiteSVM
  readonly clock: BlockClock
  readonly landing: Landing
  readonly seed: string
}

/** The airdrop of one ledger: credits `amount` lamports to `recipient`, or refuses −32602 with the rule broken. */
export const make = (parts: Parts) =>
  Effect.gen(function*() {
    const { clock, landing, svm } = parts
    const faucet = yield* Effect.promise(() => deriveSigner(parts.seed, "ledger/faucet"))
    const airdropLock = yield* Effect.makeSemaphore(1)
    let airdrops = 0

    /** Mints lamports into the faucet when it cannot cover `amount` and the fee. */
    const refill = (amount: bigint) => {
      if ((svm.getBalance(faucet.address) ?? 0n) >= amount + faucetFee) return
      svm.setAccount({
        address: faucet.address,
        lamports: lamports(faucetRefill),
        data: new Uint8Array(),
        programAddress: SYSTEM_PROGRAM,
        executable: false,
        space: 0n
      })
    }

    const refusal = (recipient: string, amount: bigint, err: RpcTransactionError): string => {
      if (typeof err === "object" && "InsufficientFundsForRent" in err) {
        return `lamports: ${amount} would leave ${recipient} below the rent-exempt minimum of ${
          svm.minimumBalanceForRentExemption(0n)
        } lamports`
      }
      if (JSON.stringify(err) === JSON.stringify({ InstructionError: [0, "ReadonlyLamportChange"] })) {
        return `address: ${recipient} is a reserved account (a sysvar or a builtin program) whose lamports cannot change`
      }
      return `address: ${recipient} cannot receive lamports (the transfer fails with ${JSON.stringify(err)})`
    }

    const airdrop = Effect.fn("Ledger.airdrop")(function*(recipient: string, amount: bigint) {
      if (!isAddress(recipient)) return yield* invalidParams(`address: ${recipient} is not a base58 public key`)
      if (amount <= 0n || amount > maxAirdropLamports) {
        return yield* invalidParams(
          `lamports must be between 1 and ${maxAirdropLamports} (1,000,000 SOL) per airdrop; got ${amount}`
        )
      }
      if (recipient === faucet.address) return yield* invalidParams(`address: ${recipient} is the faucet itself`)
      const life = clock.state()
      const built = yield* Effect.tryPromise({
        try: () =>
          build({
            format: "legacy",
            feePayer: faucet.address,
            instructions: [transferSol(faucet.address, recipient, amount), memo(memoText.airdrop(++airdrops))],
            lifetime: { blockhash: life.blockhash, lastValidBlockHeight: life.lastValidBlockHeight },
            signers: [faucet]
          }),
        catch: (error) =>
          invalidParams(
            `address: ${recipient} cannot receive lamports (${error instanceof Error ? error.message : String(error)})`
          )
      })
      const decoded = yield* decode(built.wire)
      const signature = decoded.signature ?? ""
      return yield* airdropLock.withPermits(1)(Effect.gen(function*() {
        const balance = svm.getBalance(recipient) ?? 0n
        if (balance + amount > maxLamports) {
          return yield* invalidParams(
            `lamports: ${amount} would take the balance of ${recipient} (${balance}) past the u64 maximum ${maxLamports}`
          )
        }
        refill(amount)
        const simulation = landing.simulate(decoded, { sigVerify: false, replaceRecentBlockhash: true })
        if (simulation.err !== null) return yield* invalidParams(refusal(recipient, amount, simulation.err))
        return yield* landing.land(decoded, signature, built.wire, false)
      }))
    })

    return airdrop
  })
