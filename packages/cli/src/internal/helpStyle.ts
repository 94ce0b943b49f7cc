/**
 * How help headings are written: plain, or bold on a terminal. Light on purpose: the quick
 * help path (`quickHelp.ts`) loads it without the commands.
 */

/** How headings are written. */
export interface Style {
  /** A section heading as written. */
  readonly heading: (text: string) => string
}

/** Plain text: no escape codes. */
export const plain: Style = { heading: (text) => text }

/** Bold headings (ANSI). */
export const ansi: Style = { heading: (text) => `\u001b[1m${text}\u001b[22m` }

/**
 * The style for a stream: bold headings only on a terminal, and never with `NO_COLOR` set
 * (to anything but the empty string, as no-color.org says).
 */
export const styleFor = (
  stream: { readonly isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>
): Style => stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "") ? ansi : plain

/** Headings marked, for screens rendered once and styled when printed (`restyle`). */
export const marked: Style = { heading: (text) => `\u0000${text}\u0001` }

/** A screen rendered in `marked`, in `style`. */
export const restyle = (screen: string, style: Style): string =>
  screen.replace(/\u0000([^\u0001]*)\u0001/g, (_, text: string) => style.heading(text))
