/**
 * Failures of the CLI itself (besides the library's): a missing API key or keypair, bad
 * `feeshare sandbox` flags.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * No API key was given and none is stored for the base URL.
 *
 * @since 0.1.0
 * @category errors
 */
export class MissingApiKey extends Schema.TaggedError<MissingApiKey>()("MissingApiKey", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * The command signs, or needs the wallet's public key, and no `--keypair` was given.
 *
 * @since 0.1.0
 * @category errors
 */
export class MissingKeypair extends Schema.TaggedError<MissingKeypair>()("MissingKeypair", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * The flags of `feeshare sandbox` break a rule (the message names the flag and the rule).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidKnobs extends Schema.TaggedError<InvalidKnobs>()("InvalidKnobs", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * `FEESHARE_MCP_TOKEN` is too short to stand as the MCP server's bearer token (the message
 * says so and names the minimum).
 *
 * @since 0.1.0
 * @category errors
 */
export class WeakToken extends Schema.TaggedError<WeakToken>()("WeakToken", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * The keeper cluster's secret is missing where a runner needs it (a runner off loopback), too
 * short, or unreadable (the message says which).
 *
 * @since 0.1.0
 * @category errors
 */
export class ClusterSecret extends Schema.TaggedError<ClusterSecret>()("ClusterSecret", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * `claims all` ended with items refused before signing (nothing of those items was signed);
 * the others were claimed. The printed table names each refusal.
 *
 * @since 0.1.0
 * @category errors
 */
export class ClaimsRefused extends Schema.TaggedError<ClaimsRefused>()("ClaimsRefused", {
  operation: Schema.String,
  message: Schema.String
}) {}

/**
 * `claims all` ended with items that failed (the service or the chain); the others were
 * claimed. The printed table names each failure.
 *
 * @since 0.1.0
 * @category errors
 */
export class ClaimsFailed extends Schema.TaggedError<ClaimsFailed>()("ClaimsFailed", {
  operation: Schema.String,
  message: Schema.String
}) {}
