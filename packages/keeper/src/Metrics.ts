/**
 * What an operator scrapes: claims landed, lamports claimed, network fees spent, rate-limit
 * waits, plan rebuilds, stages rebroadcast after a restart, refusals and failures. Effect
 * metrics, rendered in the Prometheus text format.
 *
 * @since 0.1.0
 */
import { Effect, Metric } from "effect"

const rendered: Array<Effect.Effect<string>> = []

const counter = (name: string, help: string) => {
  const metric = Metric.counter(name, { description: help, incremental: true })
  rendered.push(
    Effect.map(
      Metric.value(metric),
      (state) => `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name} ${state.count}\n`
    )
  )
  return metric
}

const bigCounter = (name: string, help: string) => {
  const metric = Metric.counter(name, { description: help, incremental: true, bigint: true })
  rendered.push(
    Effect.map(
      Metric.value(metric),
      (state) => `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name} ${state.count}\n`
    )
  )
  return metric
}

/**
 * @since 0.1.0
 * @category metrics
 */
export const claimsLanded = counter("feeshare_keeper_claims_landed_total", "Claim plans that landed")

/**
 * @since 0.1.0
 * @category metrics
 */
export const lamportsClaimed = bigCounter(
  "feeshare_keeper_lamports_claimed_total",
  "Lamports claimed (the claimable amount of the positions whose claim landed)"
)

/**
 * @since 0.1.0
 * @category metrics
 */
export const feesSpent = bigCounter(
  "feeshare_keeper_fees_lamports_total",
  "Network fees of the keeper's transactions that landed"
)

/**
 * @since 0.1.0
 * @category metrics
 */
export const rateLimitWaits = counter(
  "feeshare_keeper_rate_limit_waits_total",
  "Waits for the API rate limit or the shared budget"
)

/**
 * @since 0.1.0
 * @category metrics
 */
export const rebuilds = counter("feeshare_keeper_rebuilds_total", "Plans rebuilt (expired blockhash, setup, warm-up)")

/**
 * @since 0.1.0
 * @category metrics
 */
export const rebroadcasts = counter(
  "feeshare_keeper_rebroadcasts_total",
  "Journaled transactions sent again after a restart"
)

/**
 * @since 0.1.0
 * @category metrics
 */
export const refusals = counter("feeshare_keeper_refusals_total", "Plans refused before any signature")

/**
 * @since 0.1.0
 * @category metrics
 */
export const failures = counter("feeshare_keeper_failures_total", "Runs that failed (chain, service, fee cap)")

/**
 * The counters' current values, in the Prometheus text exposition format.
 *
 * @since 0.1.0
 * @category rendering
 */
export const prometheus: Effect.Effect<string> = Effect.map(Effect.all(rendered), (parts) => parts.join(""))
