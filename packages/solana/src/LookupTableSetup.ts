/**
 * Lookup tables made for the wallet, when a fee share needs them (config creation or
 * update-config with more than 7 claimers): reuse a table the wallet already owns that holds
 * the addresses, or create one, extend it in chunks of 25 addresses, and wait for its warm-up
 * (a block after the last extension). Every transaction is built here, then verified like any
 * other (the wallet is the fee payer and the only signer, the blockhash is the one read)
 * before the wallet signs any of them.
 *
 * @since 0.1.0
 */
import { type FeeShare, FeeShareError, PublicKey, type Signer } from "@feeshare/domain"
import { type Address, address, isAddress } from "@solana/kit"
import { Duration, Effect, Option, Schedule } from "effect"
import * as Chain from "./Chain.js"
import { LedgerReads } from "./LedgerReads.js"
import * as LookupTable from "./LookupTable.js"
import { SetupTimedOut } from "./PlanExecutor.js"
import * as Signers from "./Signers.js"
import { build } from "./StageBuilder.js"
import * as WireTransaction from "./WireTransaction.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Tables the wallet owns that may already hold the addresses: the first that does is used. */
  readonly reuse?: ReadonlyArray<string> | undefined
  /** Default `confirmed`. */
  readonly commitment?: Chain.Commitment | undefined
  /** The longest wait for the warm-up (default 60 s), then `SetupTimedOut`. */
  readonly warmupTimeout?: Duration.DurationInput | undefined
}

/**
 * The table to pass as `additionalLookupTables`: reused, or made by the listed transactions.
 *
 * @since 0.1.0
 * @category models
 */
export interface Prepared {
  readonly table: string
  readonly reused: boolean
  /** Signatures of the create and extend transactions, in order (none when reused). */
  readonly signatures: ReadonlyArray<string>
}

/**
 * Whether `table` (its account) is a lookup table of `authority` holding every one of `addresses`.
 *
 * @since 0.1.0
 * @category guards
 */
export const holds = (
  account: Option.Option<{ readonly owner: string; readonly data: Uint8Array }>,
  authority: string,
  addresses: ReadonlyArray<string>
): boolean => {
  if (Option.isNone(account) || account.value.owner !== LookupTable.programAddress) return false
  const parsed = LookupTable.parse(account.value.data)
  if (parsed === undefined || parsed.authority !== authority) return false
  const held = new Set<string>(parsed.addresses)
  return addresses.every((address) => held.has(address))
}

const entryOf = async (
  wallet: Address,
  instructions: Parameters<typeof build>[0]["instructions"],
  recent: { readonly blockhash: string; readonly lastValidBlockHeight: bigint }
): Promise<FeeShare.TransactionEntry> => {
  const built = await build({
    format: "legacy",
    feePayer: wallet,
    instructions,
    lifetime: {
      blockhash: recent.blockhash as Parameters<typeof build>[0]["lifetime"]["blockhash"],
      lastValidBlockHeight: recent.lastValidBlockHeight
    },
    signers: []
  })
  return {
    transaction: built.base58,
    blockhash: { blockhash: recent.blockhash, lastValidBlockHeight: Number(recent.lastValidBlockHeight) }
  }
}

/**
 * Verifies (no metadata: the wallet is the fee payer and the only empty slot, the blockhash
 * is the stated one), signs with the wallet only, and sends in order, each after the
 * previous landed. Nothing is signed unless every entry passed.
 *
 * @since 0.1.0
 * @category flows
 */
export const sendInOrder = (
  entries: ReadonlyArray<{ readonly label: string; readonly entry: FeeShare.TransactionEntry }>,
  wallet: Signer.Signer.Service,
  options: { readonly commitment?: Chain.Commitment | undefined } = {}
) =>
  Effect.gen(function*() {
    const verified = yield* Effect.forEach(entries, ({ entry, label }) =>
      WireTransaction.verifyWalletTransaction(entry, [wallet], label))
    const signed = yield* Effect.forEach(verified, WireTransaction.sign)
    return yield* Effect.forEach(signed, (transaction) =>
      Chain.sendAndConfirm(transaction, { commitment: options.commitment ?? "confirmed" }))
  })

/**
 * A lookup table of the wallet holding `addresses`, usable now: a table of `options.reuse`
 * that holds them, or a new one (created, extended in chunks of 25, warmed up).
 *
 * @since 0.1.0
 * @category flows
 */
export const prepare = Effect.fn("LookupTableSetup.prepare")(function*(
  addresses: ReadonlyArray<string>,
  options: Options = {}
) {
  const signers = yield* Signers.Signers
  const reads = yield* LedgerReads
  const chain = yield* Chain.Chain
  const wallet = signers.primary
  const invalid = (field: string, rule: string) =>
    new FeeShareError.InvalidRequest({
      operation: "LookupTableSetup.prepare",
      field,
      rule,
      message: `LookupTableSetup.prepare: ${field} ${rule}`
    })
  const bad = addresses.findIndex((a) => !isAddress(a))
  if (bad >= 0) return yield* invalid(`addresses[${bad}]`, PublicKey.rule)
  const unique: ReadonlyArray<Address> = [...new Set(addresses)].map((a) => address(a))
  if (unique.length === 0 || unique.length > LookupTable.maxAddresses) {
    return yield* invalid("addresses", `must hold 1 to ${LookupTable.maxAddresses} distinct addresses`)
  }
  for (const candidate of options.reuse ?? []) {
    if (holds(yield* reads.account(candidate), wallet.publicKey, unique)) {
      const reused: Prepared = { table: candidate, reused: true, signatures: [] }
      return reused
    }
  }
  const owner = wallet.publicKey as Address
  const recent = yield* reads.recent
  const [table, bump] = yield* Effect.promise(() => LookupTable.tableAddress(owner, recent.slot))
  const entries = yield* Effect.promise(() =>
    Promise.all([
      entryOf(owner, [LookupTable.create(table, owner, owner, recent.slot, bump)], recent).then((entry) => ({
        label: "lookup-table-create",
        entry
      })),
      ...LookupTable.chunks(unique).map((chunk, i) =>
        entryOf(owner, [LookupTable.extend(table, owner, owner, chunk)], recent).then((entry) => ({
          label: `lookup-table-extend ${i}`,
          entry
        }))
      )
    ])
  )
  const commitment = options.commitment ?? "confirmed"
  const landed = yield* sendInOrder(entries, wallet, { commitment })
  // warm-up: usable from the block after the last extension
  const after = yield* chain.blockHeight(commitment)
  const timeout = Duration.decode(options.warmupTimeout ?? "60 seconds")
  yield* chain.blockHeight(commitment).pipe(
    Effect.filterOrFail((height) => height > after, () => "not yet" as const),
    Effect.retry({
      schedule: Schedule.spaced(chain.pollInterval),
      while: (error) => error === "not yet"
    }),
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () =>
        new SetupTimedOut({
          waitedMillis: Duration.toMillis(timeout),
          message: `the lookup table ${table} did not warm up within ${Duration.format(timeout)}`
        })
    }),
    Effect.catchIf((error): error is "not yet" => error === "not yet", () => Effect.dieMessage("unreachable"))
  )
  const prepared: Prepared = { table, reused: false, signatures: landed.map((l) => l.signature) }
  return prepared
})
