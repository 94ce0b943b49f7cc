/**
 * Output hygiene, in one place for every package that prints (the CLI, the facade, the keeper,
 * the MCP server): URLs without their userinfo (`http://user:KEY@host` → `http://host`) or the
 * values of secret-bearing query parameters (`?token=…`), known secrets replaced wherever
 * they appear, and text from a server stripped of control characters (ESC, BEL, CR, …)
 * before it reaches a terminal or a log line, so that a hostile server cannot clear the
 * screen, colour or spoof output. Pure: no I/O.
 *
 * @since 0.1.0
 */

/**
 * What replaces a secret.
 *
 * @since 0.1.0
 * @category constants
 */
export const placeholder = "[redacted]"

/**
 * Query parameters whose values are secrets (compared in any letter case).
 *
 * @since 0.1.0
 * @category constants
 */
export const secretParameters: ReadonlyArray<string> = [
  "token",
  "access_token",
  "api_key",
  "api-key",
  "apikey",
  "key",
  "password",
  "secret",
  "auth"
]

// `scheme://userinfo@`: the userinfo ends at the last `@` before the host (no `/ ? #` or space in it)
const userinfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi

const secretQuery = new RegExp(
  `([?&](?:${secretParameters.map((name) => name.replace(/[-]/g, "\\-")).join("|")})=)[^&#\\s]*`,
  "gi"
)

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * `text` with every URL in it redacted (no userinfo; secret query parameters' values
 * replaced) and every one of `secrets` (of 4 characters or more, any letter case) replaced by
 * `placeholder`. A whole URL or a sentence naming several works alike.
 *
 * @since 0.1.0
 * @category redaction
 */
export const text = (input: string, secrets: ReadonlyArray<string> = []): string => {
  let out = input.replace(userinfo, "$1").replace(secretQuery, `$1${placeholder}`)
  for (const secret of secrets) {
    if (secret.length < 4) continue
    out = out.replace(new RegExp(escapeRegExp(secret), "gi"), placeholder)
  }
  return out
}

/**
 * A URL as it may be printed: `text` of it (an alias, for call sites that print one URL).
 *
 * @since 0.1.0
 * @category redaction
 */
export const url: (input: string, secrets?: ReadonlyArray<string>) => string = text

// C0 controls but tab and line feed, DEL, and C1 controls (U+0080–U+009F, CSI among them)

const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * `input` without control characters: ESC (so no escape sequence), BEL, CR, backspace, DEL
 * and the C1 controls are removed; tab and line feed stay.
 *
 * @since 0.1.0
 * @category sanitizing
 */
export const stripControl = (input: string): string => input.replace(controls, "")

/**
 * Text from elsewhere made safe to print on one terminal line or log line: control
 * characters removed (line feeds too, as spaces), URLs and `secrets` redacted.
 *
 * @since 0.1.0
 * @category sanitizing
 */
export const line = (input: string, secrets: ReadonlyArray<string> = []): string =>
  text(stripControl(input).replace(/\n/g, " "), secrets)
