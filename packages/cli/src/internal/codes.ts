/**
 * The exit codes the bin needs before (or without) loading `ExitCode`'s classification.
 */

/** The command succeeded. */
export const ok = 0

/** An unexpected defect (a bug). */
export const internal = 1

/** A usage error: nothing was sent. */
export const usage = 2

/** Interrupted (Ctrl-C). */
export const interrupted = 130
