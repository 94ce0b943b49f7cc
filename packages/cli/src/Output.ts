/**
 * What the CLI prints: aligned tables, amounts raw and in display units, and JSON documents
 * (bigints as decimal strings, secrets redacted).
 *
 * @since 0.1.0
 */
import { format } from "@feeshare/domain/RawAmount"
import * as Redacted from "effect/Redacted"

/**
 * Decimals of SOL (lamports), and of the EVM chain's native unit (wei).
 *
 * @since 0.1.0
 * @category constants
 */
export const decimals = { lamports: 9, wei: 18 } as const

/**
 * `1500000000 (1.5 SOL)`: the raw amount, then the display amount when decimals are known.
 *
 * @since 0.1.0
 * @category formatting
 */
export const amount = (raw: bigint | number, places: number | null | undefined, unit?: string): string => {
  const value = typeof raw === "bigint" ? raw : BigInt(Math.trunc(raw))
  if (places === null || places === undefined) return value.toString()
  return `${value} (${format(value, places)}${unit === undefined ? "" : ` ${unit}`})`
}

/**
 * Lamports with their SOL value.
 *
 * @since 0.1.0
 * @category formatting
 */
export const lamports = (raw: bigint | number): string => amount(raw, decimals.lamports, "SOL")

/**
 * Wei with their value in the EVM chain's native unit.
 *
 * @since 0.1.0
 * @category formatting
 */
export const wei = (raw: bigint | number): string => amount(raw, decimals.wei, "ETH")

/**
 * A decimal fraction as a percentage, exactly (`"0.085"` → `"8.5%"`): the service sends
 * `priceImpactPct` as a fraction. Anything that is not a decimal number is shown as it came.
 *
 * @since 0.1.0
 * @category formatting
 */
export const percent = (fraction: string): string => {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(fraction.trim())
  if (match === null) return `${fraction} (as a fraction)`
  const [, sign = "", whole = "0", decimals = ""] = match
  const padded = decimals.padEnd(2, "0")
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=[0-9])/, "")
  const rest = padded.slice(2).replace(/0+$/, "")
  const magnitude = `${integer}${rest === "" ? "" : `.${rest}`}`
  return `${magnitude === "0" ? "" : sign}${magnitude}%`
}

/**
 * `abcd…wxyz` for long identifiers in narrow columns (JSON output keeps them whole).
 *
 * @since 0.1.0
 * @category formatting
 */
export const short = (text: string, keep = 6): string =>
  text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`

/**
 * An aligned table: a header row, a rule, then the rows. Cells that look numeric are
 * right-aligned.
 *
 * @since 0.1.0
 * @category formatting
 */
export const table = (
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>
): ReadonlyArray<string> => {
  if (rows.length === 0) return ["(none)"]
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)))
  const numeric = headers.map((_, i) => rows.every((row) => /^-?[0-9][0-9.,]*( \(.*\))?$/.test(row[i] ?? "")))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ").trimEnd()
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)]
}

/**
 * `key  value` lines with the keys aligned.
 *
 * @since 0.1.0
 * @category formatting
 */
export const fields = (entries: ReadonlyArray<readonly [string, string]>): ReadonlyArray<string> => {
  const width = Math.max(0, ...entries.map(([key]) => key.length))
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${value}`)
}

const replacer = (_key: string, value: unknown): unknown => {
  if (typeof value === "bigint") return value.toString()
  if (Redacted.isRedacted(value)) return "<redacted>"
  if (value instanceof Uint8Array) return undefined
  return value
}

/**
 * One JSON document on one line: bigints as decimal strings, `Redacted` values as
 * `"<redacted>"`.
 *
 * @since 0.1.0
 * @category formatting
 */
export const json = (value: unknown): string => JSON.stringify(value, replacer) ?? "null"

/**
 * What a command produced: the JSON document (`--json`) and the human lines.
 *
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly json: unknown
  readonly human: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const result = (json: unknown, human: ReadonlyArray<string>): Result => ({ json, human })
