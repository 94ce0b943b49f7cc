/**
 * @feeshare/mcp: the feeshare toolkit as an MCP server for AI agents: every read as a tool,
 * writes prepared, verified and executed once under a policy the human sets.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Docs from "./Docs.js"
/** @since 0.1.0 */
export * as Handlers from "./Handlers.js"
/** @since 0.1.0 */
export * as WritePolicy from "./WritePolicy.js"
/** @since 0.1.0 */
export * as Previews from "./Previews.js"
/** @since 0.1.0 */
export * as Resources from "./Resources.js"
/** @since 0.1.0 */
export * as Server from "./Server.js"
/** @since 0.1.0 */
export * as Tools from "./Tools.js"
