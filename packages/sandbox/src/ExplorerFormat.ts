/**
 * The explorer's one way of writing numbers, amounts, prices, durations and times: every
 * number the page shows goes through here, so that they read alike (thousands separators,
 * fixed decimals per unit, a price in a unit where it has digits, a time with its date and
 * zone). Pure functions of their arguments: the page (`web/main.ts`) and the state's fault
 * knobs (`Explorer`) use them, and the tests run them in Node.
 *
 * @since 0.1.0
 */

/** Digits grouped by three with `,` (`447553122` → `447,553,122`); a sign is kept. */
const grouped = (digits: string): string => {
  const negative = digits.startsWith("-")
  const body = negative ? digits.slice(1) : digits
  return `${negative ? "-" : ""}${body.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`
}

/**
 * A whole number (a slot, a count, a decimal string of one) with thousands separators.
 *
 * @since 0.1.0
 * @category formatting
 */
export const count = (value: number | bigint | string): string =>
  grouped(typeof value === "number" ? Math.trunc(value).toString() : BigInt(value).toString())

/**
 * A raw integer amount of a unit with `decimals` decimals, written with `shown` decimals
 * (rounded half away from zero) and thousands separators: `amount("791139240506331", 6, 2)`
 * is `791,139,240.51`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const amount = (raw: string | bigint, decimals: number, shown: number): string => {
  const value = BigInt(raw)
  const negative = value < 0n
  const magnitude = negative ? -value : value
  const scale = 10n ** BigInt(decimals)
  const target = 10n ** BigInt(shown)
  // the amount in units of 10^-shown, rounded half away from zero
  const scaled = (magnitude * target * 2n + scale) / (scale * 2n)
  const whole = scaled / target
  const fraction = (scaled % target).toString().padStart(shown, "0")
  const sign = negative && scaled !== 0n ? "-" : ""
  return `${sign}${grouped(whole.toString())}${shown > 0 ? `.${fraction}` : ""}`
}

/**
 * Decimals SOL is shown with (a lamport is 10^-9 SOL; four decimals read as money).
 *
 * @since 0.1.0
 * @category formatting
 */
export const solDecimals = 4

/**
 * Lamports as SOL with `solDecimals` decimals: `5000000` → `0.0050 SOL`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const sol = (lamports: string | bigint): string => `${amount(lamports, 9, solDecimals)} SOL`

/**
 * Decimals a token amount is shown with.
 *
 * @since 0.1.0
 * @category formatting
 */
export const tokenDecimals = 2

/**
 * A raw token amount with its symbol: `791,139,240.51 DEMO`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const token = (raw: string | bigint, decimals: number, symbol: string): string =>
  `${amount(raw, decimals, tokenDecimals)} ${symbol}`

/** `value` with `digits` significant digits, without an exponent, with separators. */
const significant = (value: number, digits: number): string => {
  if (value === 0) return "0"
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(value))))
  const [whole = "0", fraction] = value.toFixed(decimals).split(".")
  return fraction === undefined ? grouped(whole) : `${grouped(whole)}.${fraction}`
}

/**
 * A price in SOL per token, in the unit where it has digits before many zeros: SOL from
 * 0.001 SOL up, else lamports (`4.7931e-8 SOL` is `47.93 lamports`), with four significant
 * digits; `-` when there is none (NaN, infinite or negative).
 *
 * @since 0.1.0
 * @category formatting
 */
export const price = (solPerToken: number, symbol: string): string => {
  if (!Number.isFinite(solPerToken) || solPerToken < 0) return "-"
  return solPerToken >= 0.001 || solPerToken === 0
    ? `${significant(solPerToken, 4)} SOL per ${symbol}`
    : `${significant(solPerToken * 1e9, 4)} lamports per ${symbol}`
}

const units: ReadonlyArray<readonly [string, number]> = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["min", 60_000],
  ["s", 1_000],
  ["ms", 1]
]

/**
 * A duration in its two largest units: `3600000` → `1 h`, `5400000` → `1 h 30 min`, `250` →
 * `250 ms`, `0` → `0 ms`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const duration = (millis: number): string => {
  let rest = Math.max(0, Math.round(millis))
  const parts: Array<string> = []
  for (const [unit, size] of units) {
    if (parts.length === 2) break
    const n = Math.floor(rest / size)
    if (n > 0 || (parts.length > 0 && rest > 0)) {
      if (n > 0) parts.push(`${n} ${unit}`)
      rest -= n * size
    }
  }
  return parts.length === 0 ? "0 ms" : parts.join(" ")
}

/**
 * A rate: `5000 per 1 h`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const rate = (limit: number, windowMillis: number): string => `${count(limit)} per ${duration(windowMillis)}`

/**
 * A moment with its date and zone (UTC, to the millisecond): `2026-11-27 09:21:56.123 UTC`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const dateTime = (millis: number): string =>
  `${new Date(millis).toISOString().replace("T", " ").slice(0, 23)} UTC`

/**
 * A moment of today's log: the time of day with the zone, `09:21:56.123 UTC`, and the date in its title.
 *
 * @since 0.1.0
 * @category formatting
 */
export const timeOfDay = (millis: number): string => dateTime(millis).slice(11)

/**
 * A percentage with two decimals: `37.50 %`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const percent = (value: number): string => `${value.toFixed(2)} %`

/**
 * A probability as a percentage of requests or transactions: `0.1` → `10.00 %`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const probability = (p: number): string => percent(p * 100)

/**
 * Injected error rates per status: `500: 10.00 %, 503: 5.00 %`; `none` when there is none.
 *
 * @since 0.1.0
 * @category formatting
 */
export const errorRates = (rates: Readonly<Record<number, number>>): string => {
  const entries = Object.entries(rates)
  return entries.length === 0 ? "none" : entries.map(([status, p]) => `${status}: ${probability(p)}`).join(", ")
}
