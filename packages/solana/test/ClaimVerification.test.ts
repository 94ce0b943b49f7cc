/**
 * Verification of claims without plan metadata: gas-sponsored vault and deployer claims
 * (the sponsor pays and has signed, the wallet only authorizes, the proceeds go to the
 * wallet's token account) and v3 claims (the wallet pays, the stated blockhash), on
 * transactions compiled with Kit; the pure rules as properties.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  AccountRole,
  type Address,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type KeyPairSigner
} from "@solana/kit"
import { Effect, FastCheck } from "effect"
import * as ClaimVerification from "../src/ClaimVerification.js"
import * as LocalSigner from "../src/LocalSigner.js"
import { build, type Format } from "../src/StageBuilder.js"
import { randomBlockhash, transfer } from "./helpers/StageBuilder.js"

const { programs } = ClaimVerification
const NATIVE_MINT = "So11111111111111111111111111111111111111112" as Address

const keys = Effect.promise(async () => {
  const [wallet, sponsor, vault, other] = await Promise.all(
    [0, 1, 2, 3].map(() => generateKeyPairSigner())
  ) as [KeyPairSigner, KeyPairSigner, KeyPairSigner, KeyPairSigner]
  const encoder = getAddressEncoder()
  const [ata] = await getProgramDerivedAddress({
    programAddress: programs.associatedToken as Address,
    seeds: [encoder.encode(wallet.address), encoder.encode(programs.token as Address), encoder.encode(NATIVE_MINT)]
  })
  return { wallet, sponsor, vault, other, ata }
})

type Keys = Effect.Effect.Success<typeof keys>

const memo = (signer: Address): Instruction => ({
  programAddress: programs.memo as Address,
  accounts: [{ address: signer, role: AccountRole.READONLY_SIGNER }],
  data: new TextEncoder().encode("authorize")
})

const createAta = (payer: Address, ata: Address, owner: Address): Instruction => ({
  programAddress: programs.associatedToken as Address,
  accounts: [
    { address: payer, role: AccountRole.WRITABLE_SIGNER },
    { address: ata, role: AccountRole.WRITABLE },
    { address: owner, role: AccountRole.READONLY },
    { address: NATIVE_MINT, role: AccountRole.READONLY },
    { address: programs.system as Address, role: AccountRole.READONLY },
    { address: programs.token as Address, role: AccountRole.READONLY }
  ],
  data: new Uint8Array([1])
})

interface Variant {
  readonly feePayer?: "wallet" | "sponsor"
  readonly sponsorSigns?: boolean
  readonly destination?: "ata" | "other"
  readonly extra?: ReadonlyArray<Instruction>
  readonly format?: Format
}

const blockhash = randomBlockhash()

/** A sponsored sweep as the service builds one, changed by `variant`. */
const sponsored = (k: Keys, variant: Variant = {}) =>
  Effect.promise(async () => {
    const feePayer = variant.feePayer === "wallet" ? k.wallet.address : k.sponsor.address
    const built = await build({
      format: variant.format ?? "v0",
      feePayer,
      instructions: [
        createAta(k.sponsor.address, k.ata, k.wallet.address),
        transfer(k.vault.address, variant.destination === "other" ? k.other.address : k.ata, 1_000_000n),
        ...(variant.extra ?? []),
        memo(k.wallet.address)
      ],
      lifetime: { blockhash, lastValidBlockHeight: 1_000n },
      signers: variant.sponsorSigns === false ? [k.vault] : [k.sponsor, k.vault]
    })
    return built.base58
  })

const verify = (k: Keys, text: string, options: { readonly sponsor?: string; readonly blockhash?: string } = {}) =>
  ClaimVerification.verifySponsored(text, {
    label: "vault partner",
    signers: [LocalSigner.fromKeyPairSigner(k.wallet)],
    quoteMint: NATIVE_MINT,
    source: k.vault.address,
    sponsor: options.sponsor,
    blockhash: options.blockhash
  })

const refusal = (k: Keys, text: string, options: { readonly sponsor?: string; readonly blockhash?: string } = {}) =>
  Effect.map(Effect.flip(verify(k, text, options)), (error) => error._tag)

describe("ClaimVerification: gas-sponsored claims", () => {
  it.effect("a sweep the sponsor pays and signed, the wallet only authorizing, into its token account, verifies", () =>
    Effect.gen(function*() {
      const k = yield* keys
      const verified = yield* verify(k, yield* sponsored(k), { sponsor: k.sponsor.address, blockhash })
      assert.deepStrictEqual(verified.signers.map((s) => s.publicKey), [k.wallet.address])
      assert.strictEqual(verified.decoded.signers[0], k.sponsor.address)
    }))

  it.effect("the wallet as the fee payer is FeePayerMismatch; another named sponsor too", () =>
    Effect.gen(function*() {
      const k = yield* keys
      assert.strictEqual(yield* refusal(k, yield* sponsored(k, { feePayer: "wallet" })), "FeePayerMismatch")
      assert.strictEqual(
        yield* refusal(k, yield* sponsored(k), { sponsor: k.other.address }),
        "FeePayerMismatch"
      )
    }))

  it.effect("the sponsor's slot empty is SignatureUnavailable", () =>
    Effect.gen(function*() {
      const k = yield* keys
      assert.strictEqual(yield* refusal(k, yield* sponsored(k, { sponsorSigns: false })), "SignatureUnavailable")
    }))

  it.effect("the vault paying another account is DestinationMismatch", () =>
    Effect.gen(function*() {
      const k = yield* keys
      const error = yield* Effect.flip(verify(k, yield* sponsored(k, { destination: "other" })))
      assert.strictEqual(error._tag, "DestinationMismatch")
      assert.include(error.message, k.other.address)
    }))

  it.effect("a transfer out of the wallet, or an account the wallet funds, is WalletOutflow", () =>
    Effect.gen(function*() {
      const k = yield* keys
      assert.strictEqual(
        yield* refusal(k, yield* sponsored(k, { extra: [transfer(k.wallet.address, k.other.address, 1n)] })),
        "WalletOutflow"
      )
      assert.strictEqual(
        yield* refusal(
          k,
          yield* sponsored(k, { extra: [createAta(k.wallet.address, k.other.address, k.other.address)] })
        ),
        "WalletOutflow"
      )
    }))

  it.effect("another stated blockhash is LifetimeMismatch (deployer entries state one)", () =>
    Effect.gen(function*() {
      const k = yield* keys
      assert.strictEqual(
        yield* refusal(k, yield* sponsored(k), { blockhash: randomBlockhash() }),
        "LifetimeMismatch"
      )
      const entry = {
        blockhash: { blockhash: randomBlockhash(), lastValidBlockHeight: 1_000 },
        transaction: yield* sponsored(k)
      }
      const error = yield* Effect.flip(
        ClaimVerification.verifyDeployerClaim(entry, [LocalSigner.fromKeyPairSigner(k.wallet)], {
          label: "deployer round 1 transaction 0",
          quoteMint: NATIVE_MINT,
          vault: k.vault.address
        })
      )
      assert.strictEqual(error._tag, "LifetimeMismatch")
      assert.include(error.message, "deployer round 1 transaction 0")
    }))
})

describe("ClaimVerification: v3 claims", () => {
  const v3 = (k: Keys, format: Format, feePayer: KeyPairSigner, pool: KeyPairSigner) =>
    Effect.promise(async () => {
      const built = await build({
        format,
        feePayer: feePayer.address,
        instructions: [transfer(pool.address, k.ata, 5_000n), memo(k.wallet.address)],
        lifetime: { blockhash, lastValidBlockHeight: 1_000n },
        signers: [pool]
      })
      return { tx: built.base58, blockhash: { blockhash, lastValidBlockHeight: 1_000 } }
    })

  it.effect("legacy and v0 transactions the wallet pays, with the stated blockhash, verify", () =>
    Effect.gen(function*() {
      const k = yield* keys
      for (const format of ["legacy", "v0"] as const) {
        const verified = yield* ClaimVerification.verifyV3(
          yield* v3(k, format, k.wallet, k.vault),
          [LocalSigner.fromKeyPairSigner(k.wallet)],
          "v3 0"
        )
        assert.strictEqual(verified.decoded.version, format === "legacy" ? "legacy" : 0)
      }
    }))

  it.effect("another fee payer is FeePayerMismatch; another stated blockhash LifetimeMismatch", () =>
    Effect.gen(function*() {
      const k = yield* keys
      const wallet = [LocalSigner.fromKeyPairSigner(k.wallet)]
      const paidByOther = yield* v3(k, "v0", k.sponsor, k.vault)
      // the sponsor has not signed either: the fee payer is checked first
      assert.strictEqual(
        (yield* Effect.flip(ClaimVerification.verifyV3(paidByOther, wallet, "v3 0")))._tag,
        "FeePayerMismatch"
      )
      const entry = yield* v3(k, "v0", k.wallet, k.vault)
      const stale = { ...entry, blockhash: { ...entry.blockhash, blockhash: randomBlockhash() } }
      assert.strictEqual(
        (yield* Effect.flip(ClaimVerification.verifyV3(stale, wallet, "v3 0")))._tag,
        "LifetimeMismatch"
      )
    }))
})

describe("ClaimVerification: the rules", () => {
  const key = FastCheck.uint8Array({ minLength: 4, maxLength: 4 }).map((bytes) => `key-${bytes.join(".")}`)
  const wallet = "the-wallet"
  const ata = "the-wallet-ata"
  const base = (extra: ReadonlyArray<ClaimVerification.ReadInstruction>): ClaimVerification.ReadMessage => ({
    label: "t",
    signers: ["sponsor", wallet],
    instructions: [
      {
        program: programs.system,
        accounts: ["vault", ata],
        signs: [false, false],
        writes: [true, true],
        data: transferData
      },
      ...extra,
      { program: programs.memo, accounts: [wallet], signs: [true], writes: [false], data: new Uint8Array() }
    ]
  })
  const transferData = new Uint8Array([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])

  it.prop(
    "any instruction but a memo that takes the wallet's signature is WalletOutflow, naming it",
    [key, FastCheck.integer({ min: 0, max: 3 }), FastCheck.uint8Array({ maxLength: 16 })],
    ([program, position, data]) => {
      const accounts = ["a", "b", "c", "d"].map((name, i) => i === position ? wallet : name)
      const refusal = ClaimVerification.sponsoredRefusal(
        base([{ program, accounts, signs: accounts.map((a) => a === wallet), writes: accounts.map(() => true), data }]),
        { wallet, destinations: [ata], source: "vault" }
      )
      return refusal?._tag === "WalletOutflow" && refusal.instruction === 1 && refusal.program === program
    }
  )

  it.prop(
    "a transfer out of the vault to anything but the wallet's token account is DestinationMismatch",
    [key],
    ([destination]) => {
      const refusal = ClaimVerification.sponsoredRefusal(
        base([{
          program: programs.system,
          accounts: ["vault", destination],
          signs: [false, false],
          writes: [true, true],
          data: transferData
        }]),
        { wallet, destinations: [ata], source: "vault" }
      )
      return refusal?._tag === "DestinationMismatch" && refusal.destination === destination
    }
  )

  it("the well-formed message passes; without the wallet's account written it is DestinationMismatch", () => {
    assert.isUndefined(ClaimVerification.sponsoredRefusal(base([]), { wallet, destinations: [ata], source: "vault" }))
    const refusal = ClaimVerification.sponsoredRefusal(base([]), { wallet, destinations: ["elsewhere"] })
    assert.strictEqual(refusal?._tag, "DestinationMismatch")
  })
})
