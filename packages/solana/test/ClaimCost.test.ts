/**
 * What a claim costs its wallet, read from transactions compiled with Kit: the fee when the
 * wallet pays it, the rent of the accounts it funds (system creations, associated token
 * accounts), nothing of what a sponsor pays or funds; and the "pays" rule as properties.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountRole, type Address, generateKeyPairSigner, type Instruction, type KeyPairSigner } from "@solana/kit"
import { Effect, FastCheck } from "effect"
import * as ClaimCost from "../src/ClaimCost.js"
import { programs } from "../src/ClaimVerification.js"
import { concat } from "../src/internal/bytes.js"
import { build } from "../src/StageBuilder.js"
import { decode } from "../src/TransactionDecoding.js"
import { randomBlockhash } from "./helpers/StageBuilder.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112" as Address

const u64 = (value: bigint) => {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, value, true)
  return bytes
}

const u32 = (value: number) => {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setUint32(0, value, true)
  return bytes
}

/** System CreateAccountWithSeed, `payer` funding `lamports` (the base is the payer). */
const createWithSeed = (payer: KeyPairSigner, account: Address, seed: string, lamports: bigint): Instruction => {
  const seedBytes = new TextEncoder().encode(seed)
  return {
    programAddress: programs.system as Address,
    accounts: [
      { address: payer.address, role: AccountRole.WRITABLE_SIGNER },
      { address: account, role: AccountRole.WRITABLE }
    ],
    data: concat(
      u32(3),
      new Uint8Array(32),
      u64(BigInt(seedBytes.length)),
      seedBytes,
      u64(lamports),
      u64(0n),
      new Uint8Array(32)
    )
  }
}

/** System CreateAccount, `payer` funding `lamports`. */
const createAccount = (payer: KeyPairSigner, account: KeyPairSigner, lamports: bigint): Instruction => ({
  programAddress: programs.system as Address,
  accounts: [
    { address: payer.address, role: AccountRole.WRITABLE_SIGNER },
    { address: account.address, role: AccountRole.WRITABLE_SIGNER }
  ],
  data: concat(u32(0), u64(lamports), u64(0n), new Uint8Array(32))
})

const createAta = (payer: Address, ata: Address, owner: Address, tokenProgram: string): Instruction => ({
  programAddress: programs.associatedToken as Address,
  accounts: [
    { address: payer, role: AccountRole.WRITABLE_SIGNER },
    { address: ata, role: AccountRole.WRITABLE },
    { address: owner, role: AccountRole.READONLY },
    { address: NATIVE_MINT, role: AccountRole.READONLY },
    { address: programs.system as Address, role: AccountRole.READONLY },
    { address: tokenProgram as Address, role: AccountRole.READONLY }
  ],
  data: new Uint8Array([1])
})

const compiled = (feePayer: Address, instructions: ReadonlyArray<Instruction>, signers: ReadonlyArray<KeyPairSigner>) =>
  Effect.flatMap(
    Effect.promise(() =>
      build({
        format: "v0",
        feePayer,
        instructions: [...instructions],
        lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000n },
        signers: [...signers]
      })
    ),
    (built) => decode(built.base58, "base58", "cost")
  )

describe("ClaimCost", () => {
  it.effect("the wallet's own claim: its fee, the lamports its creations move, a token account's rent", () =>
    Effect.gen(function*() {
      const [wallet, receipt, ata, ata2022] = yield* Effect.promise(() =>
        Promise.all([0, 1, 2, 3].map(() => generateKeyPairSigner()))
      )
      const decoded = yield* compiled(wallet!.address, [
        createAta(wallet!.address, ata!.address, wallet!.address, programs.token),
        createAta(wallet!.address, ata2022!.address, wallet!.address, programs.token2022),
        createWithSeed(wallet!, receipt!.address, "feeshare-p-0-0", 890_880n)
      ], [])
      const cost = ClaimCost.ofTransaction(decoded, wallet!.address)
      assert.strictEqual(cost.fees, 5_000n)
      // 165 and 170 bytes under the default rent: what the ledger asks of a token account
      assert.strictEqual(ClaimCost.rentExemptMinimum(165), 2_039_280n)
      assert.strictEqual(cost.rent, 2_039_280n + ClaimCost.rentExemptMinimum(170) + 890_880n)
    }))

  it.effect("a gas-sponsored claim costs the wallet nothing: the sponsor pays the fee and funds the accounts", () =>
    Effect.gen(function*() {
      const [wallet, sponsor, ata, fresh] = yield* Effect.promise(() =>
        Promise.all([0, 1, 2, 3].map(() => generateKeyPairSigner()))
      )
      const decoded = yield* compiled(sponsor!.address, [
        createAta(sponsor!.address, ata!.address, wallet!.address, programs.token),
        createAccount(sponsor!, fresh!, 1_000_000n)
      ], [sponsor!, fresh!])
      assert.deepStrictEqual(ClaimCost.ofTransaction(decoded, wallet!.address), ClaimCost.zero)
      // the sponsor's own view: the fee of its two signatures, the rent it funds
      assert.deepStrictEqual(ClaimCost.ofTransaction(decoded, sponsor!.address), {
        fees: 10_000n,
        rent: 2_039_280n + 1_000_000n
      })
    }))

  const amount = FastCheck.bigInt({ min: 0n, max: 10n ** 12n })
  const fraction = FastCheck.integer({ min: 1, max: 1_000_000 }).map((ppm) => ppm / 1_000_000)

  it.prop(
    "pays: nothing to pay always pays; a cost over the claim never does; a larger fraction or claim pays whenever a smaller one did",
    [amount, amount, amount, fraction, fraction, amount],
    ([fees, rent, claimable, f, g, more]) => {
      const cost = { fees, rent }
      if (ClaimCost.pays(ClaimCost.zero, claimable, f) !== true) return false
      if (fees + rent > claimable && ClaimCost.pays(cost, claimable, f)) return false
      const [low, high] = f <= g ? [f, g] : [g, f]
      if (ClaimCost.pays(cost, claimable, low) && !ClaimCost.pays(cost, claimable, high)) return false
      return !ClaimCost.pays(cost, claimable, f) || ClaimCost.pays(cost, claimable + more, f)
    }
  )

  it.prop(
    "pays: exactly when fees plus rent are at most the fraction of the claim",
    [amount, amount, FastCheck.bigInt({ min: 1n, max: 10n ** 12n }), FastCheck.integer({ min: 1, max: 1_000_000 })],
    ([fees, rent, claimable, ppm]) =>
      ClaimCost.pays({ fees, rent }, claimable, ppm / 1_000_000) ===
        ((fees + rent) * 1_000_000n <= claimable * BigInt(ppm))
  )
})
