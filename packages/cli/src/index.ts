/**
 * @feeshare/cli: the `feeshare` command.
 *
 * @since 0.1.0
 * @module @feeshare/cli
 */

/** @since 0.1.0 */
export * as Argv from "./Argv.js"
/** @since 0.1.0 */
export * as Cli from "./Cli.js"
/** @since 0.1.0 */
export * as CliError from "./CliError.js"
/** @since 0.1.0 */
export * as Credentials from "./Credentials.js"
/** @since 0.1.0 */
export * as Demo from "./Demo.js"
/** @since 0.1.0 */
export * as Docs from "./Docs.js"
/** @since 0.1.0 */
export * as ExitCode from "./ExitCode.js"
/** @since 0.1.0 */
export * as Help from "./Help.js"
/** @since 0.1.0 */
export * as Output from "./Output.js"
/** @since 0.1.0 */
export * as Progress from "./Progress.js"
