/**
 * Every option of a claim plan from the command line: a holding balance in the Token-2022
 * quote mint claimed with `--source`, `--quote-mint` and `--fee-limit`, paid and reported; and
 * options that contradict each other refused before anything is sent, naming the flag.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { assert, describe, layer } from "@effect/vitest"
import { Claims, PublicKey } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { join } from "node:path"
import { document, feeshare, keygenFile, temporaryDirectory } from "./support/spawn.js"

const SOL = 1_000_000_000n
const dir = temporaryDirectory("feeshare-cli-claim-options-")

/** Runs `feeshare` against the sandbox with the test's config directory. */
const cli = (...args: ReadonlyArray<string>) =>
  Effect.flatMap(
    SandboxInfo,
    (info) =>
      feeshare(args, {
        FEESHARE_BASE_URL: info.baseUrl,
        FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
        FEESHARE_CONFIG_DIR: join(dir, "config")
      })
  )

interface ErrorDocument {
  readonly error: { readonly tag: string; readonly code: number; readonly message: string }
}

describe("claims claim: every plan option", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 20, seed: "cli-claim-options" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect(
      "a holding in the Token-2022 quote mint: --source holding, --quote-mint, --fee-limit; paid the holding less its transfer fee",
      () =>
        Effect.gen(function*() {
          const info = yield* SandboxInfo
          const sandbox = yield* HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl })
          const creator = keygenFile(dir, "holding-creator")
          const claimer = keygenFile(dir, "holding-claimer")
          const [creatorKey, claimerKey] = [creator, claimer].map((k) => PublicKey.fromBytes(k.publicKey))
          yield* sandbox.sandbox.airdrop({ payload: { address: claimerKey!, lamports: 2n * SOL } })
          const created = yield* sandbox.sandbox.createToken({ payload: { creator: creatorKey! } })
          const quote = (yield* sandbox.sandbox.quoteMints()).find((q) =>
            q.tokenProgram === Claims.tokenPrograms["token-2022"]
          )
          assert.isDefined(quote?.transferFee, "the sandbox lists a Token-2022 quote mint with a transfer fee")
          const fee = quote!.transferFee!
          const held = 40_000_000n
          const holding = yield* sandbox.sandbox.createHolding({
            payload: { mint: created.mint, claimer: claimerKey!, lamports: held, quoteMint: quote!.mint }
          })

          const claim = yield* cli(
            "--json",
            "claims",
            "claim",
            "--mint",
            created.mint,
            "--keypair",
            claimer.path,
            "--format",
            "v1",
            "--source",
            `holding:${holding.authority}`,
            "--quote-mint",
            quote!.mint,
            "--fee-limit",
            `${quote!.mint}:token-2022:${fee.basisPoints}:${fee.maximumFeeRaw}`
          )
          assert.strictEqual(claim.code, 0, claim.stderr)
          const result = document(claim) as {
            landed: ReadonlyArray<{ kind: string }>
            paid: { mint: string; tokenProgram: string; decimals: number | null; raw: string }
          }
          assert.isTrue(result.landed.some((stage) => stage.kind === "claim"), claim.stdout)
          // Token-2022 withholds ceil(amount × rate), at most the cap, from the transfer
          const withheld = (held * BigInt(fee.basisPoints) + 9_999n) / 10_000n
          const capped = withheld > fee.maximumFeeRaw ? fee.maximumFeeRaw : withheld
          assert.deepStrictEqual(result.paid, {
            mint: quote!.mint,
            tokenProgram: Claims.tokenPrograms["token-2022"],
            decimals: quote!.decimals,
            raw: String(held - capped)
          })

          // claims events: the claim, as the sandbox recorded it (the holding's amount, before the transfer fee)
          const events = yield* cli("--json", "claims", "events", "--mint", created.mint, "--since", "1h")
          assert.strictEqual(events.code, 0, events.stderr)
          const listed = document(events) as {
            events: ReadonlyArray<{ wallet: string; amount: string; signature: string; isCreator: boolean }>
            total: string
          }
          const claimStage = (result.landed as ReadonlyArray<{ kind: string; signature?: string }>).find((s) =>
            s.kind === "claim"
          )
          assert.deepStrictEqual(listed.events.map((e) => [e.wallet, e.amount, e.signature, e.isCreator]), [
            [claimerKey, String(held), claimStage?.signature, false]
          ])
          assert.strictEqual(listed.total, String(held))
          const future = yield* cli("claims", "events", "--mint", created.mint, "--since", "2099-01-01T00:00:00Z")
          assert.strictEqual(future.code, 2, future.stdout)
          assert.include(future.stderr, "--until must be at least from")
          const text = yield* cli("claims", "events", "--mint", created.mint, "--limit", "5")
          assert.match(text.stdout, /1 claim\(s\), 40000000 \(0\.04 SOL\) in all\./)

          // the holding is empty now: a limit below the active rate is refused by the service
          const tooLow = yield* cli(
            "--json",
            "claims",
            "plan",
            "--mint",
            created.mint,
            "--wallet",
            claimerKey!,
            "--format",
            "v1",
            "--source",
            `holding:${holding.authority}`,
            "--fee-limit",
            `${quote!.mint}:token-2022:${fee.basisPoints - 1}:${fee.maximumFeeRaw}`
          )
          assert.strictEqual(tooLow.code, 4, tooLow.stderr)
          assert.include((document(tooLow) as ErrorDocument).error.message, "feeLimits[0].basisPoints")
        }).pipe(Effect.provide(FetchHttpClient.layer))
    )

    it.effect("claims events: bad --limit, --offset, --since and --until are refused naming the flag", () =>
      Effect.gen(function*() {
        const mint = PublicKey.fromBytes(keygenFile(dir, "events-mint").publicKey)
        const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
          [["--limit", "0"], "--limit must be an integer from 1 to 100"],
          [["--limit", "101"], "--limit must be an integer from 1 to 100"],
          [["--offset", "-1"], "--offset must be an integer of at least 0"],
          [["--since", "yesterday"], "--since must be unix seconds"],
          [["--until", "1h"], "--until applies with --since only"],
          [["--since", "1h", "--limit", "5"], "--limit applies to offset mode only"]
        ]
        const outcomes = yield* Effect.forEach(
          cases,
          ([flags]) =>
            feeshare(["--json", "claims", "events", "--mint", mint, ...flags], {
              FEESHARE_BASE_URL: "http://127.0.0.1:9/api/v1",
              FEESHARE_API_KEY: "fs_unused"
            }),
          { concurrency: 3 }
        )
        for (const [i, [flags, expected]] of cases.entries()) {
          const outcome = outcomes[i]!
          const { error } = document(outcome) as ErrorDocument
          assert.deepStrictEqual(
            [outcome.code, error.tag],
            [2, "InvalidRequest"],
            `${flags.join(" ")}: ${outcome.stdout}`
          )
          assert.include(error.message, expected, flags.join(" "))
        }
      }))

    it.effect("options that contradict each other are refused before anything is sent, naming the flag", () =>
      Effect.gen(function*() {
        const wallet = PublicKey.fromBytes(keygenFile(dir, "options-wallet").publicKey)
        const [mint, quote, other, table] = ["mint", "quote", "other", "table"].map((name) =>
          PublicKey.fromBytes(keygenFile(dir, `options-${name}`).publicKey)
        )
        const plan = ["--json", "claims", "plan", "--mint", mint!, "--wallet", wallet]
        const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
          [["--quote-mint", mint!], `--quote-mint ${Claims.planRules.quoteMint}`],
          [
            ["--quote-mint", quote!, "--fee-limit", `${other}:token:100:1`],
            `--fee-limit[0].asset.mint ${Claims.planRules.feeLimitAsset}`
          ],
          [
            ["--fee-limit", `${quote}:token-2022:100:1`, "--fee-limit", `${quote}:token-2022:50:1`],
            `--fee-limit[1].asset ${Claims.planRules.duplicateFeeLimit}`
          ],
          [["--format", "v1", "--lookup-table", table!], `--lookup-table ${Claims.planRules.lookupTablesFormat}`],
          [
            ["--lookup-table", table!, "--lookup-table", table!],
            `--lookup-table[1] ${Claims.planRules.duplicateLookupTable}`
          ],
          [["--fee-limit", `${quote}:token:10001:1`], "--fee-limit[0].basisPoints"],
          [["--fee-limit", `${quote}:100:1`], "--fee-limit[0] must be MINT:PROGRAM:BPS:MAX_FEE_RAW"],
          [["--source", "holding"], "--source must be one of position | pair"],
          [["--source", "pool:dbc:nope"], "--source.pool"]
        ]
        // a base URL nothing listens on: a request that went out would fail as a transport error
        const outcomes = yield* Effect.forEach(
          cases,
          ([flags]) => feeshare([...plan, ...flags], { FEESHARE_BASE_URL: "http://127.0.0.1:9/api/v1" }),
          { concurrency: 3 }
        )
        for (const [i, [flags, expected]] of cases.entries()) {
          const outcome = outcomes[i]!
          const { error } = document(outcome) as ErrorDocument
          assert.deepStrictEqual(
            [outcome.code, error.tag],
            [2, "InvalidRequest"],
            `${flags.join(" ")}: ${outcome.stdout}`
          )
          assert.include(error.message, expected, flags.join(" "))
        }
      }))
  })
})
