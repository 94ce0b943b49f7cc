/**
 * Every interval the chain code waits, named for what it is (each is the default of an option
 * that a caller may override).
 */
import { Duration } from "effect"

/** Between two status polls of a submitted transaction (a `ChainRpc` node's `pollInterval`). */
export const statusPoll = Duration.millis(400)

/** The longest wait for one JSON-RPC answer. */
export const rpcTimeout = Duration.seconds(10)

/** Between two sends of the same transaction while it is unconfirmed. */
export const rebroadcast = Duration.seconds(2)

/** Between two rebuilds of a plan while its lookup table warms up. */
export const warmupPoll = Duration.seconds(2)

/** The longest warm-up of a lookup table before the plan gives up (`SetupTimedOut`). */
export const warmupDeadline = Duration.minutes(2)

/** The first pause after an unavailable node (doubling after each further try). */
export const unavailableBackoff = Duration.millis(200)

/** Tries again after an unavailable node, at most. */
export const unavailableRetries = 3

/** A node that asks for a longer pause than this (`Retry-After`) is not waited for. */
export const longestRetryAfter = Duration.seconds(30)
