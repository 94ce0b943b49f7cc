/**
 * The explorer's routes, shared by the server (`Explorer`) and the page (`web/main.ts`).
 */
export const paths = {
  page: "/",
  script: "/explorer/app.js",
  state: "/explorer/state",
  events: "/explorer/events"
} as const

/**
 * The id of the `<script type="application/json">` element in which the page arrives with the
 * state it shows first (so that the data is on the page at load, without a second request).
 */
export const initialStateId = "explorer-state"

/** The pages of the explorer, in menu order (`#tokens`, ...). */
export const pages = ["overview", "tokens", "wallets", "transactions", "plans", "requests"] as const

/** A page of the explorer. */
export type Page = typeof pages[number]
