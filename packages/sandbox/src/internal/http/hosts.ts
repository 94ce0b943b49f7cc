/**
 * DNS rebinding: the names the sandbox answers to. A page of `attacker.example` whose name
 * is re-pointed at 127.0.0.1 reaches the sandbox with `Host: attacker.example` (and a
 * foreign `Origin` on its posts): both are refused, before any route runs (the middleware,
 * HTTP) or any connection is taken over (WebSocket upgrades, `Server.ts`).
 */
import { networkInterfaces } from "node:os"

/** The names every sandbox answers to, whatever it is bound to. */
const loopbackNames = ["localhost", "127.0.0.1", "::1"] as const

/** A host name without brackets, port or letter case (`[::1]:8899` → `::1`). */
export const bareName = (host: string): string => {
  const trimmed = host.trim().toLowerCase()
  if (trimmed.startsWith("[")) {
    const end = trimmed.indexOf("]")
    return end < 0 ? trimmed : trimmed.slice(1, end)
  }
  // one colon: `name:port`; more: a bare IPv6 address
  const colon = trimmed.indexOf(":")
  return colon >= 0 && colon === trimmed.lastIndexOf(":") ? trimmed.slice(0, colon) : trimmed
}

const isWildcard = (name: string): boolean => name === "0.0.0.0" || name === "::" || name === ""

/**
 * The host names a sandbox bound to `host` accepts: `localhost`, 127.0.0.1 and ::1, the bound
 * address itself (the name `--host` gave), and, bound to a wildcard (`0.0.0.0`, `::`), the
 * addresses of this machine's interfaces.
 */
export const allowedNames = (host: string): ReadonlySet<string> => {
  const names = new Set<string>(loopbackNames)
  const bound = bareName(host)
  if (isWildcard(bound)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.toLowerCase().replace(/%.*$/, ""))
    }
  } else {
    names.add(bound)
  }
  return names
}

/** Why a request is refused for its `Host` or `Origin`, or `undefined` when it is not. */
export const refusal = (
  allowed: ReadonlySet<string>,
  host: string | undefined,
  origin: string | undefined
): string | undefined => {
  if (host === undefined || !allowed.has(bareName(host))) {
    return `Forbidden host: the sandbox answers only to its own names (${[...allowed].slice(0, 8).join(", ")})`
  }
  if (origin === undefined) return undefined
  const parsed = URL.canParse(origin) ? new URL(origin) : undefined
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    return "Forbidden origin: a request from a page must come from the sandbox's own origin"
  }
  return allowed.has(bareName(parsed.host))
    ? undefined
    : "Forbidden origin: a request from a page must come from the sandbox's own origin"
}
