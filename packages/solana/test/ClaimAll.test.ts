/**
 * The pure rules of `ClaimAll`: which items a wallet's listings make, and the totals per
 * asset; the domain's routing and nothing-to-claim rules they rest on.
 */
import { assert, describe, it } from "@effect/vitest"
import { type Claims, ClaimTransactions } from "@feeshare/domain"
import { FastCheck } from "effect"
import * as ClaimAll from "../src/ClaimAll.js"

const wsol = ClaimTransactions.wrappedSolMint
const mint = FastCheck.constantFrom("MintA", "MintB", "MintC", "MintD")
const quote = FastCheck.constantFrom<string | null | undefined>(wsol, null, undefined, "CustomQuote")

const position = FastCheck.record({
  baseMint: mint,
  quoteMint: quote,
  totalClaimableLamportsUserShare: FastCheck.integer({ min: 0, max: 1_000_000_000 })
}).map(({ quoteMint, ...p }): Claims.ClaimablePosition => ({
  ...p,
  ...(quoteMint === undefined ? {} : { quoteMint }),
  isCustomFeeVault: false,
  isMigrated: true
}))

const vault = FastCheck.record({
  kind: FastCheck.constantFrom("partner" as const, "deployer" as const),
  quoteMint: FastCheck.constantFrom(wsol, "CustomQuote"),
  claimableAmount: FastCheck.bigInt({ min: 0n, max: 10n ** 12n })
}).map((v): Claims.AggregateVault => ({
  ...v,
  wallet: "W",
  quoteDecimals: 9,
  vaultAta: `vault-${v.kind}`,
  claimableDisplayAmount: 0
}))

const deployer = FastCheck.option(
  FastCheck.record({
    vaultBalance: FastCheck.bigInt({ min: 0n, max: 10n ** 12n }),
    tokens: FastCheck.array(
      FastCheck.record({
        tokenMint: mint,
        dbcPending: FastCheck.bigInt({ min: 0n, max: 10n ** 12n }),
        dammPending: FastCheck.bigInt({ min: 0n, max: 10n ** 12n })
      }),
      { maxLength: 4 }
    )
  }).map((d): ClaimTransactions.DeployerPositions => ({
    ...d,
    wallet: "W",
    quoteMint: wsol,
    vault: "deployer-vault",
    residual: 0n
  })),
  { nil: undefined }
)

describe("ClaimAll rules", () => {
  it.prop(
    "one item per position owed, per vault with a balance (the deployer's once), routed by quote",
    [FastCheck.array(position, { maxLength: 6 }), FastCheck.array(vault, { maxLength: 4 }), deployer],
    ([positions, vaults, owedToDeployer]) => {
      const items = ClaimAll.itemsOf(positions, vaults, owedToDeployer)
      const owed = owedToDeployer === undefined ? 0n : ClaimTransactions.deployerOwed(owedToDeployer)
      const expectedPositions = positions.filter((p) => p.totalClaimableLamportsUserShare > 0)
      const expectedVaults = vaults.filter((v) =>
        v.claimableAmount > 0n && !(v.kind === "deployer" && owed > 0n && v.quoteMint === wsol)
      )
      const byKind = (kind: ClaimAll.ItemKind) => items.filter((item) => item.kind === kind)
      assert.strictEqual(byKind("position").length, expectedPositions.length)
      assert.strictEqual(byKind("vault").length, expectedVaults.length)
      assert.strictEqual(byKind("deployer").length, owed > 0n ? 1 : 0)
      for (const [i, item] of byKind("position").entries()) {
        const source = expectedPositions[i]!
        assert.strictEqual(item.route, ClaimTransactions.route(source))
        assert.strictEqual(item.route === "v3", item.asset === wsol)
        assert.strictEqual(item.amount, BigInt(source.totalClaimableLamportsUserShare))
      }
      assert.isTrue(items.every((item) => item.state === "pending" && item.amount > 0n))
    }
  )

  it.prop(
    "totals: per asset, owed sums every item not below min, claimed sums the claimed ones",
    [
      FastCheck.array(
        FastCheck.record({
          asset: FastCheck.constantFrom("A", "B", "C"),
          amount: FastCheck.bigInt({ min: 1n, max: 10n ** 15n }),
          state: FastCheck.constantFrom<ClaimAll.ItemState>(
            "pending",
            "verified",
            "claimed",
            "nothing",
            "below-min",
            "refused",
            "failed"
          )
        }),
        { maxLength: 12 }
      )
    ],
    ([rows]) => {
      const items: ReadonlyArray<ClaimAll.Item> = rows.map((row) => ({
        ...row,
        kind: "vault",
        route: "claim-vault",
        subject: "partner vault",
        decimals: 9,
        stages: 0,
        signatures: [],
        error: null
      }))
      const totals = ClaimAll.totalsOf(items)
      for (const asset of ["A", "B", "C"]) {
        const counted = items.filter((item) => item.asset === asset && item.state !== "below-min")
        const total = totals.find((t) => t.asset === asset)
        if (counted.length === 0) {
          assert.isUndefined(total)
          continue
        }
        assert.strictEqual(total?.owed, counted.reduce((n, item) => n + item.amount, 0n))
        assert.strictEqual(
          total?.claimed,
          counted.filter((item) => item.state === "claimed").reduce((n, item) => n + item.amount, 0n)
        )
      }
    }
  )

  it.prop(
    "nothing to claim: a 400 whose message starts with the service's words, in any casing, and nothing else",
    [FastCheck.string({ maxLength: 20 }), FastCheck.boolean()],
    ([detail, upper]) => {
      const message = `${upper ? "NOTHING TO CLAIM" : "Nothing to claim"}${detail}`
      return ClaimAll.isNothingToClaim({ _tag: "BadRequest", message }) &&
        !ClaimAll.isNothingToClaim({ _tag: "ServerError", message }) &&
        !ClaimAll.isNothingToClaim({ _tag: "BadRequest", message: `x${message}` })
    }
  )
})
