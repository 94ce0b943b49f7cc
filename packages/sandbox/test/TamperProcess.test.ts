/**
 * `--tamper` from a separate process: the sandbox executable, started with the flag, serves
 * claim plans that the client's verifier (in this process) refuses before any signature.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Api } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { generateKeyPairSigner } from "@solana/kit"
import { Effect } from "effect"
import { type ChildProcessByStdio, spawn } from "node:child_process"
import type { Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import { executables } from "../../../scripts/test-executables.mjs"
import * as Server from "../src/Server.js"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

interface Started {
  readonly rootUrl: string
  readonly demoKey: string
  readonly banner: string
}

/**
 * The sandbox executable (`feeshare-sandbox`, built from its sources by the global set-up) with `flags`, until
 * the scope closes; ready once it printed its URLs (it prints them after it listens).
 */
const sandboxProcess = (flags: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(
        process.execPath,
        [executables.sandbox, "--port", "0", ...flags],
        { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] }
      )
    ),
    (child) =>
      Effect.async<void>((resume) => {
        if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
        child.once("close", () => resume(Effect.void))
        child.kill("SIGTERM")
      })
  ).pipe(Effect.flatMap(started))

const started = (child: ChildProcessByStdio<null, Readable, Readable>) =>
  Effect.async<Started, Error>((resume) => {
    let stdout = ""
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString()
      const rootUrl = /root_url\s+(\S+)/.exec(stdout)?.[1]
      const demoKey = /demo key\s+(\S+)/.exec(stdout)?.[1]
      if (rootUrl !== undefined && demoKey !== undefined && stdout.includes("Ctrl-C to stop.")) {
        child.stdout.off("data", onData)
        resume(Effect.succeed({ rootUrl, demoKey, banner: stdout }))
      }
    }
    child.stdout.on("data", onData)
    child.once("close", (code) =>
      resume(Effect.fail(new Error(`the sandbox exited (${code}) before it was ready: ${stderr}`))))
  })

describe("--tamper (separate process)", () => {
  it.scoped(
    "a sandbox started with --tamper flip-byte serves claim plans that PlanExecutor.verify refuses",
    () =>
      Effect.gen(function*() {
        const sandbox = yield* sandboxProcess([
          "--seed",
          "tamper-process",
          "--slot-millis",
          "50",
          "--tamper",
          "flip-byte"
        ])
        assert.include(sandbox.banner, "tamper    flip-byte")
        const api = yield* HttpApiClient.make(Server.FullApi, {
          baseUrl: sandbox.rootUrl,
          transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader(Api.apiKeyHeader, sandbox.demoKey))
        })
        const claimer = yield* Effect.promise(() => generateKeyPairSigner())
        yield* api.sandbox.airdrop({ payload: { address: claimer.address, lamports: 1_000_000_000n } })
        const created = yield* api.sandbox.createToken({ payload: { creator: claimer.address } })
        const holding = yield* api.sandbox.createHolding({
          payload: { mint: created.mint, claimer: claimer.address, lamports: 100_000_000n }
        })
        const signers = Signers.layer(LocalSigner.fromKeyPairSigner(claimer))
        for (const transactionFormat of ["v1", "v0"] as const) {
          const plan = yield* api.claims.createPlan({
            payload: {
              feeClaimer: claimer.address,
              tokenMint: created.mint,
              transactionFormat,
              source: { kind: "holding", authority: holding.authority }
            }
          })
          assert.isAbove(plan.transactions.length, 0)
          const error = yield* PlanExecutor.verify(plan).pipe(Effect.flip, Effect.provide(signers))
          assert.strictEqual(error._tag, "MessageHashMismatch", `${transactionFormat}: ${error.message}`)
          if (error._tag === "MessageHashMismatch") {
            assert.include(plan.transactions.map((stage) => stage.id), error.stage)
          }
        }
      }).pipe(Effect.provide(FetchHttpClient.layer)),
    { timeout: 60_000 }
  )
})
