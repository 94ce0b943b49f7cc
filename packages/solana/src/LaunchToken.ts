/**
 * Launching a token from nothing, as one flow over the service's operations (passed in as
 * functions: this package does not import the client):
 *
 * 1. the inputs are checked (`LaunchToken.check` of `@feeshare/domain`): nothing is sent
 *    before they pass;
 * 2. handles: the split's social handles are resolved to their SOL launch wallets (one bulk
 *    lookup, a read); a handle without a wallet, or two shares paying one wallet, fail naming
 *    the share. This comes before token info, so that a bad handle makes nothing;
 * 3. token info: the image and the fields are uploaded, the service makes the mint;
 * 4. lookup table, when the split has more than 7 claimers: one the wallet owns holding them
 *    (`services.lookupTable`, i.e. `LookupTableSetup.prepare`; a surface without it refuses
 *    such a split before anything is made);
 * 5. config: created with the wallet as payer (the deployer), its bundles first, then its
 *    transactions (`Flows.createConfig`);
 * 6. launch: the launch transaction is asked for, verified (signed by the mint, the wallet the
 *    fee payer), co-signed, sent and confirmed (`Flows.launch`).
 *
 * Resumable: after each step that makes something, a `LaunchRecord` (keyed by a digest of the
 * inputs and the wallet) is saved. A rerun with the same inputs reuses the record's mint,
 * lookup table and config instead of making new ones; and a config the record does not know
 * of but the service has (it landed, then the process died before the record was saved) is
 * reused from the service's answer (`needsCreation: false`).
 *
 * A dry run checks the inputs, resolves the handles, uploads the token info (it costs no
 * SOL, and the record keeps its mint for the real run), asks for the config and verifies its
 * transactions without signing them (skipped when a lookup table would first have to be
 * made, which costs SOL), and stops before the launch (whose transaction needs the config on
 * chain). Nothing is signed or sent to the chain.
 *
 * @since 0.1.0
 */
import type { Launch, LaunchWallet, TokenInfo } from "@feeshare/domain"
import { FeeShare, FeeShareError, LaunchToken, PublicKey } from "@feeshare/domain"
import { sha256 } from "@noble/hashes/sha2"
import { bytesToHex } from "@noble/hashes/utils"
import { Data, Effect, Either, Encoding, Option } from "effect"
import * as Chain from "./Chain.js"
import * as Flows from "./Flows.js"
import * as LaunchRecord from "./LaunchRecord.js"
import type * as LookupTableSetup from "./LookupTableSetup.js"
import * as Signers from "./Signers.js"
import * as WireTransaction from "./WireTransaction.js"

/**
 * The service's operations the flow calls.
 *
 * @since 0.1.0
 * @category models
 */
export interface Services<E, R> {
  /** The bulk lookup of launch wallets by handle. */
  readonly wallets: (request: LaunchWallet.BulkLookupRequest) => Effect.Effect<LaunchWallet.BulkLaunchWallets, E, R>
  /** Token info creation (the service makes the mint). */
  readonly createTokenInfo: (request: TokenInfo.TokenInfoRequest) => Effect.Effect<TokenInfo.TokenInfo, E, R>
  /** Config creation. */
  readonly createConfig: (request: FeeShare.CreateConfigRequest) => Effect.Effect<FeeShare.CreateConfigAnswer, E, R>
  /** The launch transaction, signed by the mint. */
  readonly createTransaction: (request: Launch.LaunchRequest) => Effect.Effect<string, E, R>
  /**
   * A lookup table of the wallet holding `claimers` (a table of `reuse` that holds them, or a
   * new one), for splits above 7 claimers: `LookupTableSetup.prepare` (it needs `LedgerReads`).
   * Without it, such a split is refused before anything is made.
   */
  readonly lookupTable?: (
    claimers: ReadonlyArray<string>,
    reuse: ReadonlyArray<string>
  ) => Effect.Effect<LookupTableSetup.Prepared, E, R>
}

/**
 * Progress of a launch.
 *
 * @since 0.1.0
 * @category events
 */
export type Event = Data.TaggedEnum<{
  /** A step begins. */
  Started: { readonly step: LaunchToken.Step }
  /** The handles are resolved: who gets what, and the deployer's share on top. */
  Split: {
    readonly shares: ReadonlyArray<LaunchToken.ResolvedShare>
    readonly deployer: string
    readonly deployerBps: number
  }
  /** A transaction of a step landed. */
  Landed: { readonly step: LaunchToken.Step; readonly label: string; readonly signature: string }
  /** A step is done; `reused` when it made nothing new (from the record or the service). */
  Done: { readonly step: LaunchToken.Step; readonly detail: string; readonly reused: boolean }
  /** A step was not run, and why. */
  Skipped: { readonly step: LaunchToken.Step; readonly reason: string }
}>

/**
 * @since 0.1.0
 * @category events
 */
export const Event = Data.taggedEnum<Event>()

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Where the resume record is kept (default: in memory, for this run only). */
  readonly store?: LaunchRecord.Store | undefined
  /** Called with each progress event, in order. */
  readonly onEvent?: ((event: Event) => Effect.Effect<void>) | undefined
  /** Check, resolve, upload the token info, verify the config; sign and send nothing. */
  readonly dryRun?: boolean | undefined
  /** Default `confirmed`. */
  readonly commitment?: Chain.Commitment | undefined
  /** See `Chain.sendAndConfirm`. */
  readonly rebroadcastInterval?: Flows.Options["rebroadcastInterval"]
}

/**
 * What a launch did (or, in a dry run, would do).
 *
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly dryRun: boolean
  readonly mint: string
  readonly metadataUrl: string
  readonly shares: ReadonlyArray<LaunchToken.ResolvedShare>
  readonly deployer: string
  readonly deployerBps: number
  readonly configType: FeeShare.ConfigType
  readonly lookupTable: string | undefined
  /** `undefined` in a dry run whose config was not asked for. */
  readonly configKey: string | undefined
  readonly initialBuyLamports: number
  /** The launch transaction's signature (`undefined` in a dry run). */
  readonly signature: string | undefined
  /** Steps that made nothing new (from the record or the service). */
  readonly reused: ReadonlyArray<LaunchToken.Step>
  /** In a dry run: the config's transactions, verified and not signed. */
  readonly configTransactions: ReadonlyArray<TransactionCost>
  /** Where the resume record is. */
  readonly record: string
}

/**
 * What one verified transaction costs the wallet: its network fee, and the lamports it moves
 * out of the wallet through the System program (rent of new accounts, funding).
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionCost {
  readonly label: string
  readonly networkFeeLamports: bigint
  readonly transferLamports: bigint
  /** The transaction as it was verified (not signed). */
  readonly verified: WireTransaction.Verified
}

const systemProgram = "11111111111111111111111111111111"

const u64At = (data: Uint8Array, offset: number): bigint =>
  data.length < offset + 8 ? 0n : new DataView(data.buffer, data.byteOffset + offset, 8).getBigUint64(0, true)

/**
 * The network fee of a verified transaction and the lamports its System-program
 * `CreateAccount` and `Transfer` instructions move out of `wallet`.
 *
 * @since 0.1.0
 * @category costs
 */
export const costOf = (label: string, verified: WireTransaction.Verified, wallet: string): TransactionCost => {
  const message = verified.decoded.message
  const accounts = message.staticAccounts.map(String)
  let transferLamports = 0n
  // legacy and v0 messages (a v1 message lays its instructions out otherwise: counted as none)
  const instructions = "instructions" in message ? message.instructions : []
  for (const instruction of instructions) {
    if (accounts[instruction.programAddressIndex] !== systemProgram) continue
    const data = instruction.data === undefined ? new Uint8Array() : new Uint8Array(instruction.data)
    const source = instruction.accountIndices?.[0]
    if (data.length < 12 || source === undefined || accounts[source] !== wallet) continue
    const kind = new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true)
    // 0: CreateAccount (lamports, space, owner), 2: Transfer (lamports)
    if (kind === 0 || kind === 2) transferLamports += u64At(data, 4)
  }
  return { label, networkFeeLamports: WireTransaction.networkFee(verified.decoded), transferLamports, verified }
}

/**
 * The launch an earlier run signed and kept before sending it: `Some` once it landed (found on
 * the ledger and confirmed, or sent again while its blockhash lives, without a simulation);
 * `None` when it can no longer launch (expired unlanded, failed on chain, or its kept bytes
 * unreadable and the ledger without it), so that a new launch transaction is asked for.
 */
const settleSentLaunch = (
  sent: NonNullable<LaunchToken.LaunchRecord["launchSent"]>,
  flow: Flows.Options
): Effect.Effect<Option.Option<Chain.Landed>, Chain.ChainUnavailable, Chain.Chain> =>
  Effect.gen(function*() {
    const chain = yield* Chain.Chain
    const commitment = flow.commitment ?? "confirmed"
    const known = yield* chain.signatureStatus(sent.signature, { searchHistory: true })
    // the kept bytes are sent again only when they are what was signed: a canonical transaction
    // whose every signature is present and valid, the fee payer's being the kept signature
    const bytes = yield* WireTransaction.decode(sent.transaction, "base64", "kept launch").pipe(
      Effect.map((decoded) => {
        const payer = Object.entries(decoded.transaction.signatures).find(([key]) => key === decoded.signers[0])?.[1]
        const intact = payer !== null && payer !== undefined && PublicKey.base58.encode(payer) === sent.signature &&
          Object.values(decoded.transaction.signatures).every((signature) => signature !== null) &&
          decoded.signatureChecks.every(Boolean)
        return intact ? Either.right(decoded.bytes) : Either.left("not the signed launch")
      }),
      Effect.orElseSucceed(() => Either.left("unreadable"))
    )
    if (Option.isNone(known) && Either.isLeft(bytes)) return Option.none()
    // no transaction can land after the newest blockhash's bound: a kept bound beyond it (a
    // record edited or damaged) would make the wait unbounded
    const newest = yield* chain.lastValidBlockHeight(commitment)
    const lastValidBlockHeight = sent.lastValidBlockHeight < newest ? sent.lastValidBlockHeight : newest
    const transaction: Chain.Sendable = {
      bytes: Either.getOrElse(bytes, () => new Uint8Array()),
      signature: sent.signature,
      lastValidBlockHeight: Option.some(lastValidBlockHeight)
    }
    const options = { commitment, rebroadcastInterval: flow.rebroadcastInterval }
    const landed = Option.isSome(known)
      ? Chain.confirm({ transaction, lastValidBlockHeight, alreadyKnown: true }, options)
      : Chain.sendAndConfirm(transaction, { ...options, skipPreflight: true })
    return yield* landed.pipe(
      Effect.map(Option.some),
      Effect.catchTags({
        BlockhashExpired: () => Effect.succeed(Option.none<Chain.Landed>()),
        TransactionFailed: () => Effect.succeed(Option.none<Chain.Landed>()),
        PreflightFailed: () => Effect.succeed(Option.none<Chain.Landed>())
      })
    )
  })

/**
 * The record key of a launch: SHA-256 (hex) of its inputs (the image by its SHA-256) and the
 * wallet. The same inputs from the same wallet resume the same launch.
 *
 * @since 0.1.0
 * @category records
 */
export const recordKey = (request: LaunchToken.LaunchTokenRequest, wallet: string): string => {
  const canonical = JSON.stringify([
    1,
    wallet,
    request.name,
    request.symbol,
    request.description,
    request.image === undefined ? null : bytesToHex(sha256(request.image.bytes)),
    request.imageUrl ?? null,
    request.telegram ?? null,
    request.social ?? null,
    request.website ?? null,
    request.shares.map((share) => [LaunchToken.label(share), share.bps]),
    request.initialBuyLamports,
    request.tipWallet ?? null,
    request.tipLamports ?? null,
    request.partner ?? null,
    request.partnerConfig ?? null,
    request.configType ?? null
  ])
  return bytesToHex(sha256(new TextEncoder().encode(canonical)))
}

/**
 * Everything the flow can fail with, besides the errors of the services.
 *
 * @since 0.1.0
 * @category errors
 */
export type LaunchError =
  | FeeShareError.InvalidRequest
  | LaunchRecord.RecordUnavailable
  | Flows.FlowError

/**
 * Runs the launch (see the module description).
 *
 * @since 0.1.0
 * @category flows
 */
export const run = <E, R>(
  request: LaunchToken.LaunchTokenRequest,
  services: Services<E, R>,
  options: Options = {}
): Effect.Effect<Result, LaunchError | E, R | Signers.Signers | Chain.Chain> =>
  Effect.gen(function*() {
    const emit = options.onEvent ?? (() => Effect.void)
    const dryRun = options.dryRun === true
    const flow: Flows.Options = { commitment: options.commitment, rebroadcastInterval: options.rebroadcastInterval }
    const input = yield* Either.match(LaunchToken.check(request), { onLeft: Effect.fail, onRight: Effect.succeed })
    const signers = yield* Signers.Signers
    const wallet = signers.primary.publicKey
    const store = options.store ?? LaunchRecord.memory()
    const key = recordKey(input, wallet)
    let record: LaunchToken.LaunchRecord = Option.getOrElse(
      yield* store.load(key),
      (): LaunchToken.LaunchRecord => ({ version: 1, key, wallet })
    )
    const save = (patch: Partial<LaunchToken.LaunchRecord>) => {
      record = { ...record, ...patch }
      return store.save(record)
    }
    const reused: Array<LaunchToken.Step> = []
    const done = (step: LaunchToken.Step, detail: string, wasReused: boolean) => {
      if (wasReused) reused.push(step)
      return emit(Event.Done({ step, detail, reused: wasReused }))
    }

    // 1. handles (a read): before anything is made
    yield* emit(Event.Started({ step: "handles" }))
    const handles = input.shares.flatMap((share, i) => LaunchToken.isHandle(share) ? [{ share, i }] : [])
    const wallets: Array<string | null> = input.shares.map(() => null)
    if (handles.length > 0) {
      const found = yield* services.wallets({
        items: handles.map(({ share }) => ({ provider: share.provider, username: share.username, chain: "SOL" }))
      })
      handles.forEach(({ i }, j) => {
        wallets[i] = found[j]?.chain === "SOL" ? found[j]?.wallet ?? null : null
      })
    }
    const shares = yield* Either.match(LaunchToken.resolve(input.shares, wallets), {
      onLeft: Effect.fail,
      onRight: Effect.succeed
    })
    const needsTable = shares.length > FeeShare.limits.claimersWithoutLookupTables
    const prepareTable = services.lookupTable
    if (needsTable && prepareTable === undefined) {
      return yield* new FeeShareError.InvalidRequest({
        operation: LaunchToken.operation,
        field: "shares",
        rule: "must have at most 7 entries here: more need a lookup table, which this surface does not make " +
          "(the CLI and the Effect API with LookupTableSetup do)",
        message: `${LaunchToken.operation}: shares must have at most 7 entries here`
      })
    }
    yield* emit(Event.Split({ shares, deployer: wallet, deployerBps: LaunchToken.deployerBps }))
    yield* done("handles", `${handles.length} handle(s) resolved, ${shares.length} claimer(s)`, false)

    // 2. token info
    yield* emit(Event.Started({ step: "token-info" }))
    if (record.tokenMint === undefined || record.tokenMetadata === undefined) {
      const info = yield* services.createTokenInfo({
        name: input.name,
        symbol: input.symbol,
        description: input.description,
        ...(input.image === undefined ? {} : { image: input.image }),
        ...(input.imageUrl === undefined ? {} : { imageUrl: input.imageUrl }),
        ...(input.telegram === undefined ? {} : { telegram: input.telegram }),
        ...(input.social === undefined ? {} : { social: input.social }),
        ...(input.website === undefined ? {} : { website: input.website })
      })
      yield* save({ tokenMint: info.tokenMint, tokenMetadata: info.tokenMetadata })
      yield* done("token-info", `mint ${info.tokenMint}`, false)
    } else {
      yield* done("token-info", `mint ${record.tokenMint} (from the record)`, true)
    }
    const mint = record.tokenMint!
    const metadataUrl = record.tokenMetadata!
    const claimers = shares.map((share) => share.wallet)
    const configType = input.configType ?? FeeShare.defaultConfigType

    // 3. lookup table, above 7 claimers
    let lookupTable = record.lookupTable
    if (!needsTable || prepareTable === undefined) {
      yield* emit(Event.Skipped({ step: "lookup-table", reason: "7 claimers or fewer need none" }))
    } else if (dryRun && lookupTable === undefined) {
      yield* emit(Event.Skipped({ step: "lookup-table", reason: "dry run: making a table costs SOL" }))
    } else {
      yield* emit(Event.Started({ step: "lookup-table" }))
      const prepared = yield* prepareTable(claimers, lookupTable === undefined ? [] : [lookupTable])
      for (const [i, signature] of prepared.signatures.entries()) {
        yield* emit(Event.Landed({ step: "lookup-table", label: i === 0 ? "create" : `extend ${i - 1}`, signature }))
      }
      lookupTable = prepared.table
      if (!prepared.reused) yield* save({ lookupTable })
      yield* done("lookup-table", `table ${prepared.table}`, prepared.reused)
    }

    // 4. config
    const configRequest: FeeShare.CreateConfigRequest = {
      payer: wallet,
      baseMint: mint,
      claimersArray: claimers,
      basisPointsArray: shares.map((share) => share.bps),
      platformConfigType: configType,
      ...(lookupTable === undefined ? {} : { additionalLookupTables: [lookupTable] }),
      ...(input.partner === undefined ? {} : { partner: input.partner, partnerConfig: input.partnerConfig ?? null }),
      ...(input.tipWallet === undefined ? {} : { tipWallet: input.tipWallet, tipLamports: input.tipLamports ?? null })
    }
    const configTransactions: Array<TransactionCost> = []
    let configKey = record.configKey
    if (configKey !== undefined) {
      yield* done("config", `config key ${configKey} (from the record)`, true)
    } else if (dryRun && needsTable && lookupTable === undefined) {
      yield* emit(Event.Skipped({ step: "config", reason: "dry run: the config needs the lookup table first" }))
    } else {
      yield* emit(Event.Started({ step: "config" }))
      const answer = yield* services.createConfig(configRequest)
      if (dryRun) {
        const entries = [
          ...(answer.bundles ?? []).flatMap((bundle, i) =>
            bundle.map((entry, j) => ({ entry, label: `bundle ${i} transaction ${j}` }))
          ),
          ...(answer.transactions ?? []).map((entry, i) => ({ entry, label: `transaction ${i}` }))
        ]
        for (const { entry, label } of entries) {
          const verified = yield* WireTransaction.verifyWalletTransaction(entry, [signers.primary], label)
          configTransactions.push(costOf(label, verified, wallet))
        }
        configKey = answer.meteoraConfigKey
        yield* done(
          "config",
          answer.needsCreation
            ? `${entries.length} transaction(s) verified, not signed`
            : `config key ${configKey} exists already`,
          !answer.needsCreation
        )
      } else {
        const created = yield* Flows.createConfig(answer, flow)
        for (const [i, bundle] of created.bundles.entries()) {
          for (const [j, signature] of bundle.entries()) {
            yield* emit(Event.Landed({ step: "config", label: `bundle ${i} transaction ${j}`, signature }))
          }
        }
        for (const [i, landed] of created.transactions.entries()) {
          yield* emit(Event.Landed({ step: "config", label: `transaction ${i}`, signature: landed.signature }))
        }
        configKey = created.configKey
        yield* save({ configKey })
        yield* done(
          "config",
          created.created ? `config key ${configKey}` : `config key ${configKey} (the service has it)`,
          !created.created
        )
      }
    }

    // 5. launch
    let signature = record.launchSignature
    if (dryRun) {
      yield* emit(
        Event.Skipped({ step: "launch", reason: "dry run: the launch transaction needs the config on chain" })
      )
    } else if (signature !== undefined) {
      yield* done("launch", `launched earlier: ${signature} (from the record)`, true)
    } else {
      yield* emit(Event.Started({ step: "launch" }))
      const earlier = record.launchSent === undefined
        ? Option.none<Chain.Landed>()
        : yield* settleSentLaunch(record.launchSent, flow)
      if (Option.isSome(earlier)) {
        signature = earlier.value.signature
        yield* save({ launchSignature: signature })
        yield* emit(Event.Landed({ step: "launch", label: "launch", signature }))
        yield* done("launch", `launched ${mint} at slot ${earlier.value.slot} (sent by the earlier run)`, true)
      } else {
        const transaction = yield* services.createTransaction({
          ipfs: metadataUrl,
          tokenMint: mint,
          wallet,
          initialBuyLamports: input.initialBuyLamports,
          configKey: configKey!,
          ...(input.tipWallet === undefined ? {} : { tipWallet: input.tipWallet }),
          ...(input.tipLamports === undefined ? {} : { tipLamports: input.tipLamports })
        })
        const signed = yield* Flows.signLaunch(transaction, mint)
        // the signed bytes are kept before they are sent: a run stopped before the launch is
        // confirmed leaves what the next run needs to find it landed instead of asking again
        const chain = yield* Chain.Chain
        const lastValidBlockHeight = yield* chain.lastValidBlockHeight(flow.commitment ?? "confirmed")
        yield* save({
          launchSent: {
            signature: signed.signature,
            transaction: Encoding.encodeBase64(signed.bytes),
            lastValidBlockHeight
          }
        })
        const landed = yield* Chain.sendAndConfirm(
          { ...signed, lastValidBlockHeight: Option.some(lastValidBlockHeight) },
          { commitment: flow.commitment, rebroadcastInterval: flow.rebroadcastInterval }
        )
        signature = landed.signature
        yield* save({ launchSignature: signature })
        yield* emit(Event.Landed({ step: "launch", label: "launch", signature }))
        yield* done("launch", `launched ${mint} at slot ${landed.slot}`, false)
      }
    }

    const result: Result = {
      dryRun,
      mint,
      metadataUrl,
      shares,
      deployer: wallet,
      deployerBps: LaunchToken.deployerBps,
      configType,
      lookupTable,
      configKey,
      initialBuyLamports: input.initialBuyLamports,
      signature,
      reused,
      configTransactions,
      record: store.location
    }
    return result
  }).pipe(Effect.withSpan("LaunchToken.run"))
