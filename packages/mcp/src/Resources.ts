/**
 * The resources an agent can read to learn the rules it runs under: the current policy (the
 * caps, the allowed mints, read-only mode, the public keys of the wallets that may sign; never
 * a key file's path or contents), and the docs pages on signing safety and rate limits.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import { Effect, Layer, Schema } from "effect"
import * as Handlers from "./Handlers.js"
import { pages } from "./internal/pages.js"
import * as WritePolicy from "./WritePolicy.js"

/**
 * The URI of the policy resource.
 *
 * @since 0.1.0
 * @category constants
 */
export const policyUri = "feeshare://policy"

const encodePolicy = Schema.encodeSync(WritePolicy.Policy)

/**
 * The policy as JSON: its fields, with `wallets` replaced by the signing wallets' public keys.
 *
 * @since 0.1.0
 * @category resources
 */
export const policyDocument = Effect.map(
  Handlers.Environment,
  ({ policy, signers }) =>
    JSON.stringify({ ...encodePolicy(policy), wallets: signers.map((signer) => signer.publicKey) }, null, 2)
)

/**
 * The URI of a docs page resource.
 *
 * @since 0.1.0
 * @category constants
 */
export const pageUri = (name: string): string => `feeshare://docs/${name}`

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Object.entries(pages).reduce(
  (layers, [name, text]) =>
    Layer.merge(
      layers,
      McpServer.resource({
        uri: pageUri(name),
        name,
        description: `docs/${name}.md: the rules the server applies (${name.replace("-", " ")})`,
        mimeType: "text/markdown",
        content: Effect.succeed(text)
      })
    ),
  McpServer.resource({
    uri: policyUri,
    name: "policy",
    description:
      "The policy this server enforces (set by the human with flags and the policy file; no tool can change it)",
    mimeType: "application/json",
    content: policyDocument
  })
)
