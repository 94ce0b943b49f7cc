/**
 * `feeshare launch token` (a token from nothing: token info, handles, lookup table, config,
 * launch) and `feeshare launch transaction` (the launch transaction of a token whose token
 * info and config exist; `feeshare launch --ipfs …` is its old spelling).
 */
import { FeeShare, LaunchToken, TokenInfo } from "@feeshare/domain"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { readFile, stat } from "node:fs/promises"
import * as Credentials from "../../Credentials.js"
import * as Output from "../../Output.js"
import { client, invalid, loadSigning, runOf, sentLines, signer } from "../context.js"
import { rootUrlOf } from "../defaults.js"
import { Environment } from "../environment.js"
import * as LaunchProgress from "../launchProgress.js"

export const launch = (
  args: {
    readonly ipfs: string
    readonly mint: string
    readonly configKey: string
    readonly initialBuy: number
    readonly tipWallet: Option.Option<string>
    readonly tipLamports: Option.Option<number>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const wallet = yield* signer("launch")
    const api = yield* client("launch")
    const transaction = yield* api.launch.createTransaction({
      ipfs: args.ipfs,
      tokenMint: args.mint,
      wallet: wallet.publicKey,
      configKey: args.configKey,
      initialBuyLamports: args.initialBuy,
      ...(Option.isSome(args.tipWallet) ? { tipWallet: args.tipWallet.value } : {}),
      ...(Option.isSome(args.tipLamports) ? { tipLamports: args.tipLamports.value } : {})
    })
    const signing = yield* loadSigning
    const sent = yield* signing.launch(transaction, args.mint, wallet, yield* runOf(), !args.dryRun)
    return args.dryRun
      ? Output.result({ dryRun: true, mint: args.mint }, [
        `Dry run: the launch transaction is signed by the mint ${args.mint} and verified; nothing was signed or sent.`
      ])
      : Output.result({ mint: args.mint, landed: sent }, [`Launched ${args.mint}:`, ...sentLines(sent)])
  })

const operation = "launch token"

/** `--image`: an http(s) URL, or a file read only when its size is within the limit. */
const imageOf = (image: string) =>
  Effect.gen(function*() {
    if (/^https?:\/\//i.test(image)) {
      return TokenInfo.isHttpUrl(image)
        ? { imageUrl: image }
        : yield* invalid(operation, "--image", TokenInfo.rules.url)
    }
    const size = yield* Effect.tryPromise(() => stat(image)).pipe(
      Effect.mapError(() => invalid(operation, "--image", `must be a readable file or an http(s) URL: ${image}`))
    )
    if (!size.isFile()) return yield* invalid(operation, "--image", `must be a file: ${image}`)
    if (size.size > TokenInfo.limits.maxImageBytes) {
      return yield* invalid(operation, "--image", `${TokenInfo.rules.imageSize} (${image} has ${size.size})`)
    }
    const bytes = yield* Effect.tryPromise(() => readFile(image)).pipe(
      Effect.mapError(() => invalid(operation, "--image", `must be a readable file: ${image}`))
    )
    const name = image.split(/[\\/]/).at(-1) ?? "token-image"
    return { image: { bytes: new Uint8Array(bytes), filename: name.slice(0, 255) } }
  })

const parsed = <A>(field: string, result: Either.Either<A, string>) =>
  Either.match(result, {
    onLeft: (rule) => Effect.fail(invalid(operation, field, rule)),
    onRight: Effect.succeed
  })

export const token = (
  args: {
    readonly image: string
    readonly name: string
    readonly symbol: string
    readonly description: Option.Option<string>
    readonly shares: ReadonlyArray<string>
    readonly initialBuy: string
    readonly tipWallet: Option.Option<string>
    readonly tip: Option.Option<string>
    readonly partner: Option.Option<string>
    readonly partnerConfig: Option.Option<string>
    readonly configType: Option.Option<keyof typeof FeeShare.configTypes>
    readonly website: Option.Option<string>
    readonly telegram: Option.Option<string>
    readonly social: Option.Option<string>
    readonly recordDir: Option.Option<string>
    readonly bundleRelay: Option.Option<string>
    readonly dryRun: boolean
  }
) =>
  Effect.gen(function*() {
    const g = yield* Environment
    const shares = yield* Effect.forEach(
      args.shares,
      (text, i) => parsed(`--share[${i}]`, LaunchToken.parseShare(text))
    )
    const initialBuyLamports = yield* parsed("--initial-buy", LaunchToken.parseLamports(args.initialBuy))
    const tipLamports = Option.isSome(args.tip)
      ? Option.some(yield* parsed("--tip", LaunchToken.parseLamports(args.tip.value)))
      : Option.none()
    const request: LaunchToken.LaunchTokenRequest = {
      name: args.name,
      symbol: args.symbol,
      description: Option.getOrElse(args.description, () => args.name),
      ...(yield* imageOf(args.image)),
      shares,
      initialBuyLamports,
      ...(Option.isSome(args.tipWallet) ? { tipWallet: args.tipWallet.value } : {}),
      ...(Option.isSome(tipLamports) ? { tipLamports: tipLamports.value } : {}),
      ...(Option.isSome(args.partner) ? { partner: args.partner.value } : {}),
      ...(Option.isSome(args.partnerConfig) ? { partnerConfig: args.partnerConfig.value } : {}),
      ...(Option.isSome(args.configType) ? { configType: FeeShare.configTypes[args.configType.value] } : {}),
      ...(Option.isSome(args.website) ? { website: args.website.value } : {}),
      ...(Option.isSome(args.telegram) ? { telegram: args.telegram.value } : {}),
      ...(Option.isSome(args.social) ? { social: args.social.value } : {})
    }
    // every rule before the wallet, the key or the network
    yield* Either.match(LaunchToken.check(request), { onLeft: Effect.fail, onRight: Effect.succeed })
    const wallet = yield* signer(operation)
    const api = yield* client(operation)
    const signing = yield* loadSigning
    const run = yield* runOf()
    const store = yield* signing.launchRecords(
      Option.getOrElse(args.recordDir, () => `${Credentials.directory()}/launches`)
    )
    const live = !g.json && process.stdout.isTTY === true ? LaunchProgress.live(process.stdout) : undefined
    const onEvent = (event: Parameters<typeof LaunchProgress.line>[0]) =>
      live !== undefined
        ? Effect.sync(() => {
          live.table.event(event)
          live.render()
        })
        : g.json
        ? Effect.void
        : Console.log(LaunchProgress.line(event).join("\n"))
    const launched = signing.launchToken(
      request,
      {
        wallets: api.launch.wallets,
        createTokenInfo: api.launch.createTokenInfo,
        createConfig: api.feeShare.createConfig,
        createTransaction: api.launch.createTransaction
      },
      wallet,
      run,
      {
        relayUrl: Option.getOrElse(args.bundleRelay, () => `${rootUrlOf(g.baseUrl)}/sandbox/bundles`),
        store,
        dryRun: args.dryRun,
        onEvent
      }
    )
    const result = live === undefined ? yield* launched : yield* Effect.scoped(
      Effect.zipRight(
        Effect.forkScoped(Effect.repeat(Effect.sync(live.render), Schedule.spaced("250 millis"))),
        launched
      )
    ).pipe(Effect.ensuring(Effect.sync(live.render)))
    const costs = result.configTransactions
    const json = {
      ...result,
      configTransactions: costs.map((c) => ({
        label: c.label,
        networkFeeLamports: c.networkFeeLamports,
        transferLamports: c.transferLamports
      }))
    }
    const total = costs.reduce((sum, c) => sum + c.networkFeeLamports + c.transferLamports, 0n)
    const summary = Output.fields([
      ["mint", result.mint],
      ["metadata", result.metadataUrl],
      ["config type", result.configType],
      ["config key", result.configKey ?? "-"],
      ["lookup table", result.lookupTable ?? "-"],
      ["initial buy", Output.lamports(result.initialBuyLamports)],
      ["reused", result.reused.length === 0 ? "nothing" : result.reused.join(", ")],
      ["record", result.record]
    ]).map((l) => `  ${l}`)
    return result.dryRun
      ? Output.result(json, [
        `Dry run: nothing was signed or sent to the chain. The token info was uploaded (no SOL; the record keeps its mint for the real run)${
          costs.length > 0
            ? `, and the config's ${costs.length} transaction(s) were verified: they would cost ${
              Output.lamports(total)
            } (network fees, rent and the deployer's funding).`
            : "."
        }`,
        ...summary
      ])
      : Output.result(json, [`Launched ${result.mint}: ${result.signature}`, ...summary])
  })
