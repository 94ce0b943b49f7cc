/**
 * The spans reach a collector: `@effect/opentelemetry`'s OTLP/HTTP exporter (JSON) sends them
 * to a small receiver on localhost while a claim plan of the seeded sandbox's demo wallet is
 * built by the client and executed by the plan executor. The receiver's spans form the tree
 * docs/observability.md documents, and no attribute carries the API key or the secret key.
 */
import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { FeeShareClient } from "../src/index.js"

interface ReceivedSpan {
  readonly name: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly attributes: Record<string, string>
}

interface OtlpAttribute {
  readonly key: string
  readonly value: Record<string, unknown>
}

interface OtlpBody {
  readonly resourceSpans: ReadonlyArray<{
    readonly scopeSpans: ReadonlyArray<{
      readonly spans: ReadonlyArray<{
        readonly name: string
        readonly spanId: string
        readonly parentSpanId?: string
        readonly attributes?: ReadonlyArray<OtlpAttribute>
      }>
    }>
  }>
}

/** An OTLP/HTTP (JSON) trace receiver on localhost: every span it was sent, and every raw body. */
const receiver = Effect.acquireRelease(
  Effect.async<
    {
      readonly url: string
      readonly spans: Array<ReceivedSpan>
      readonly bodies: Array<string>
      readonly close: () => void
    }
  >(
    (resume) => {
      const spans: Array<ReceivedSpan> = []
      const bodies: Array<string> = []
      const server = createServer((request, response) => {
        let body = ""
        request.on("data", (chunk: Buffer) => (body += chunk.toString()))
        request.on("end", () => {
          bodies.push(body)
          if (request.url === "/v1/traces") {
            const parsed = JSON.parse(body) as OtlpBody
            for (const resource of parsed.resourceSpans) {
              for (const scope of resource.scopeSpans) {
                for (const span of scope.spans) {
                  spans.push({
                    name: span.name,
                    spanId: span.spanId,
                    parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
                    attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, JSON.stringify(a.value)]))
                  })
                }
              }
            }
          }
          response.writeHead(200, { "content-type": "application/json" })
          response.end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          spans,
          bodies,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })))
    }
  ),
  (server) => Effect.sync(server.close)
)

describe("tracing over OTLP/HTTP", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 0, seed: "client-tracing" }), {
    excludeTestServices: true,
    timeout: "60 seconds"
  })((it) => {
    it.scoped("a claim plan's spans reach the collector as the documented tree, with no key in any attribute", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const seeded = yield* Seed.make("client-tracing")
        const secret = Uint8Array.from(JSON.parse(Redacted.value(seeded.demoKeygen)) as Array<number>)
        const wallet = yield* LocalSigner.fromSecretKey(Redacted.make(secret), "demo wallet")
        const token = seeded.tokens.find((t) => t.launched)!
        const collector = yield* receiver

        // the exporter's layer in a scope of its own: closing it flushes what is left
        const tracing = yield* Scope.make()
        const tracer = yield* Layer.buildWithScope(
          OtlpTracer.layer({
            url: `${collector.url}/v1/traces`,
            resource: { serviceName: "feeshare-test" },
            exportInterval: "100 millis"
          })
            .pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(NodeHttpClient.layerUndici)),
          tracing
        )
        yield* Effect.gen(function*() {
          const client = yield* FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
          const request = { feeClaimer: wallet.publicKey, tokenMint: token.mint, transactionFormat: "v1" as const }
          const plan = yield* client.claims.createPlan(request)
          yield* PlanExecutor.execute(plan, {
            rebuild: () => client.claims.createPlan(request),
            format: "v1",
            commitment: "processed"
          })
        }).pipe(
          Effect.withSpan("claim-demo-fees"),
          Effect.provide(
            Layer.mergeAll(
              Signers.layer(wallet),
              ChainRpc.layer(info.rpcUrl, { pollInterval: "5 millis" }),
              NodeHttpClient.layerUndici
            )
          ),
          Effect.provide(tracer)
        )
        yield* Scope.close(tracing, Exit.void)

        const spans = collector.spans
        const named = (name: string) => spans.filter((s) => s.name === name)
        const [root] = named("claim-demo-fees")
        assert.isDefined(root)
        const childrenOf = (parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId)
        const rootChildren = childrenOf(root!).map((s) => s.name)
        assert.includeMembers(rootChildren, ["claims.createPlan", "PlanExecutor.execute"])
        const [createPlan] = named("claims.createPlan")
        assert.strictEqual(
          createPlan?.attributes["feeshare.operation"],
          JSON.stringify({ stringValue: "claims.createPlan" })
        )
        assert.strictEqual(createPlan?.attributes["http.response.status_code"], JSON.stringify({ intValue: 200 }))
        const executor = named("PlanExecutor.execute")[0]!
        const underExecutor = (span: ReceivedSpan): boolean => {
          let current: ReceivedSpan | undefined = span
          while (current !== undefined) {
            if (current.parentSpanId === executor.spanId) return true
            current = spans.find((s) => s.spanId === current!.parentSpanId)
          }
          return false
        }
        for (const name of ["WireTransaction.verifyStage", "WireTransaction.sign", "Chain.submit", "Chain.confirm"]) {
          assert.isAbove(named(name).length, 0, `${name} exported`)
          assert.isTrue(named(name).every(underExecutor), `every ${name} span is under PlanExecutor.execute`)
        }
        assert.sameMembers(
          named("WireTransaction.verifyStage").map((s) => s.attributes["stage"]),
          plan(spans).map((stage) => JSON.stringify({ stringValue: stage }))
        )

        // no key anywhere in what the collector received
        const everything = collector.bodies.join("\n")
        assert.notInclude(everything, Redacted.value(info.demoApiKey))
        assert.notInclude(everything, Buffer.from(secret.slice(0, 32)).toString("hex"))
        assert.notInclude(everything, Buffer.from(secret.slice(0, 32)).toString("base64"))
        assert.notInclude(everything, JSON.stringify([...secret.slice(0, 8)]).slice(1, -1))
      }))
  })
})

/** The stage ids the executor signed (from the sign spans' `stage` attribute). */
const plan = (spans: ReadonlyArray<ReceivedSpan>): ReadonlyArray<string> =>
  spans.filter((s) => s.name === "WireTransaction.sign").map((s) =>
    JSON.parse(s.attributes["stage"] ?? "{}").stringValue as string
  )
