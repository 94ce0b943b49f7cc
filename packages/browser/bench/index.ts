/**
 * `npm run bench -w @feeshare/browser-tests`: the explorer's load time in chromium, from
 * navigation to the transactions page rendered with every row, with 1,000 transactions in the
 * history, against the same page over a blank sandbox (the baseline: only the market's start-up
 * transactions) in the same run.
 * Fresh page per load; loads alternate between the two sandboxes; medians of `runs`.
 */
import * as History from "@feeshare/sandbox/History"
import { Ledger } from "@feeshare/sandbox/Ledger"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { generateKeyPairSigner } from "@solana/kit"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { BrowserContext } from "playwright-core"
import { Browser } from "../support/explorer.js"

const transactions = History.limits.transactions
const runs = 7

/**
 * One load of `/#transactions` until the page rendered the state (it marks `body` with the
 * history's version after the rows are in), at the next animation frame; milliseconds. Checks
 * that at least `rows` rows are shown.
 */
const load = async (context: BrowserContext, rootUrl: string, rows: number): Promise<number> => {
  const page = await context.newPage()
  try {
    const start = performance.now()
    await page.goto(`${rootUrl}/#transactions`)
    await page.waitForFunction(() => document.body.dataset["version"] !== undefined, undefined, { polling: "raf" })
    const elapsed = performance.now() - start
    const shown = await page.locator("tr.tx").count()
    if (shown < rows) throw new Error(`the page shows ${shown} transactions, expected at least ${rows}`)
    return elapsed
  } finally {
    await page.close()
  }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const sandbox = (filled: boolean) =>
  ManagedRuntime.make(
    Layer.effectDiscard(Effect.gen(function*() {
      if (!filled) return
      const ledger = yield* Ledger
      const wallet = yield* Effect.promise(() => generateKeyPairSigner())
      for (let i = 0; i < transactions; i++) yield* Effect.orDie(ledger.airdrop(wallet.address, 1_000_000n))
    })).pipe(Layer.provideMerge(Sandbox.layer({ slotMillis: 400 })))
  )

const main = async () => {
  const empty = sandbox(false)
  const full = sandbox(true)
  const browser = ManagedRuntime.make(Browser.layer)
  try {
    const [emptyUrl, fullUrl, context] = await Promise.all([
      empty.runPromise(Effect.map(SandboxInfo, (info) => info.rootUrl)),
      full.runPromise(Effect.map(SandboxInfo, (info) => info.rootUrl)),
      browser.runPromise(Browser)
    ])
    const stateBytes = (await (await fetch(`${fullUrl}/explorer/state`)).text()).length
    // one warm-up load each (the bundle is built on first use when run from the sources)
    await load(context, emptyUrl, 0)
    await load(context, fullUrl, transactions)
    const baseline: Array<number> = []
    const measured: Array<number> = []
    for (let i = 0; i < runs; i++) {
      baseline.push(await load(context, emptyUrl, 0))
      measured.push(await load(context, fullUrl, transactions))
    }
    const base = median(baseline)
    const value = median(measured)
    console.log(
      `explorer load, /#transactions rendered (chromium, medians of ${runs}; state ${
        (stateBytes / 1024).toFixed(0)
      } KiB):`
    )
    console.log(`  blank sandbox (baseline)  ${base.toFixed(0)} ms   [${baseline.map((v) => v.toFixed(0)).join(", ")}]`)
    console.log(
      `  ${transactions} transactions        ${value.toFixed(0)} ms   [${measured.map((v) => v.toFixed(0)).join(", ")}]`
    )
    console.log(`  ratio ${(value / base).toFixed(2)}x; target under 1000 ms: ${value < 1000 ? "met" : "NOT met"}`)
  } finally {
    await browser.dispose()
    await Promise.all([empty.dispose(), full.dispose()])
  }
}

await main()
