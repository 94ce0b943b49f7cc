/**
 * The explorer's routes, shared by the server (`Explorer`) and the page (`web/main.ts`).
 */
export const paths = {
  page: "/",
  script: "/explorer/app.js",
  state: "/explorer/state",
  events: "/explorer/events"
} as const

/** The pages of the explorer, in menu order (`#tokens`, ...). */
export const pages = ["overview", "tokens", "wallets", "transactions", "plans", "requests"] as const

/** A page of the explorer. */
export type Page = typeof pages[number]
