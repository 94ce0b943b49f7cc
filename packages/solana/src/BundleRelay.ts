/**
 * The bundle relay port: a group of signed transactions that land together or not at all.
 * The service's own relay is not documented (its body and its tip recipient), so feeshare
 * sends no tip and speaks the protocol of `@feeshare/domain/BundleRelay`, which the sandbox
 * serves at `{root_url}/sandbox/bundles`; `layerHttp(url)` is that protocol over HTTP.
 *
 * @since 0.1.0
 */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { BundleRelay as Protocol, Envelope, Redaction } from "@feeshare/domain"
import { Context, Duration, Effect, Layer, Schema } from "effect"

/**
 * A bundle the relay did not land: which transaction of it failed and why; none of its
 * transactions landed.
 *
 * @since 0.1.0
 * @category errors
 */
export class BundleRejected extends Schema.TaggedError<BundleRejected>()("BundleRejected", {
  /** The bundle's index in the answer's `bundles`. */
  bundle: Schema.Number,
  /** The failed transaction's index in the bundle. */
  index: Schema.Number,
  signature: Schema.String,
  error: Schema.String,
  message: Schema.String
}) {}

/**
 * The relay could not be reached, or answered something that is not the protocol's answer.
 *
 * @since 0.1.0
 * @category errors
 */
export class RelayUnavailable extends Schema.TaggedError<RelayUnavailable>()("RelayUnavailable", {
  message: Schema.String
}) {}

/**
 * An answer holds bundles and no `BundleRelay` is provided: nothing was signed.
 *
 * @since 0.1.0
 * @category errors
 */
export class NoBundleRelay extends Schema.TaggedError<NoBundleRelay>()("NoBundleRelay", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category tags
 */
export class BundleRelay extends Context.Tag("@feeshare/solana/BundleRelay")<BundleRelay, BundleRelay.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace BundleRelay {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Lands the signed transactions (base58, in order) together, or none of them. */
    readonly send: (transactions: ReadonlyArray<string>) => Effect.Effect<Protocol.RelayAnswer, RelayUnavailable>
  }
}

/**
 * The limits of `layerHttp`.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = { timeout: Duration.seconds(30), maxAnswerBytes: 64 * 1024 } as const

const decodeAnswer = Schema.decodeUnknown(Schema.parseJson(Envelope.Success(Protocol.RelayAnswer)))

/**
 * The relay protocol over HTTP: `POST url` with `{ transactions }`, the answer in a success
 * envelope. Each call is bounded in time (30 s) and in the answer's size (64 KiB).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttp = (url: string): Layer.Layer<BundleRelay, never, HttpClient.HttpClient> =>
  Layer.effect(
    BundleRelay,
    Effect.map(HttpClient.HttpClient, (client) =>
      BundleRelay.of({
        send: (transactions) =>
          Effect.gen(function*() {
            const request = HttpClientRequest.post(url).pipe(
              HttpClientRequest.bodyUnsafeJson({ transactions }),
              HttpClientRequest.acceptJson
            )
            const response = yield* Effect.mapError(client.execute(request), unreachable)
            const text = yield* boundedAnswer(response)
            return yield* Effect.mapError(decodeAnswer(text), () =>
              new RelayUnavailable({
                message: `the relay answered ${response.status} with something that is not a bundle answer: ${
                  Redaction.line(text.slice(0, 200))
                }`
              }))
          }).pipe(
            Effect.scoped,
            Effect.timeoutFail({
              duration: defaults.timeout,
              onTimeout: () =>
                new RelayUnavailable({
                  message: `no answer from the relay within ${Duration.format(defaults.timeout)}`
                })
            }),
            Effect.withSpan("BundleRelay.send", { attributes: { transactions: transactions.length } })
          )
      }))
  )

const unreachable = (error: { readonly message: string }) =>
  new RelayUnavailable({ message: `the relay could not be reached: ${Redaction.line(error.message)}` })

/**
 * The relay's answer as text, at most `defaults.maxAnswerBytes`. The relay protocol asks for a
 * declared `Content-Length` and no content encoding: the transport then delivers exactly that
 * many bytes, so the limit holds without a streaming read (which would add Effect's stream
 * runtime to the facade's browser bundle). An answer without them is refused unread.
 */
const boundedAnswer = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<string, RelayUnavailable> => {
  const length = Number(response.headers["content-length"] ?? Number.NaN)
  const encoding = response.headers["content-encoding"]
  if (!Number.isSafeInteger(length) || (encoding !== undefined && encoding !== "identity")) {
    return Effect.fail(
      new RelayUnavailable({
        message: `the relay answered ${response.status} without a Content-Length or with a content encoding; not read`
      })
    )
  }
  if (length > defaults.maxAnswerBytes) {
    return Effect.fail(new RelayUnavailable({ message: `the relay's answer is over ${defaults.maxAnswerBytes} bytes` }))
  }
  return Effect.mapError(response.text, unreachable)
}
