/**
 * The sandbox explorer in a real browser: a sandbox in this process runs a scripted flow (a
 * launch, swaps, a claim plan through its setup to landed, a tampered plan refused
 * client-side, one failed transaction), then chromium opens each page and the test reads what
 * it shows. Screenshots go to `packages/browser/artifacts/` (gitignored).
 */
import { assert, describe, layer } from "@effect/vitest"
import { type Page, pages } from "@feeshare/sandbox/Explorer"
import * as Format from "@feeshare/sandbox/ExplorerFormat"
import { Market } from "@feeshare/sandbox/Market"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Layer, Redacted } from "effect"
import { join } from "node:path"
import type { Page as Tab } from "playwright-core"
import { artifacts, Browser, ensureArtifacts, type Flow, sandboxLayer, scriptedFlow } from "../support/explorer.js"

let ran: Flow | undefined
/** The flow, run once for the whole file (whichever test comes first). */
const flow = Effect.suspend(() =>
  ran === undefined ? Effect.tap(scriptedFlow, (done) => Effect.sync(() => void (ran = done))) : Effect.succeed(ran)
)

/** A page of the explorer, open until the scope closes, once it rendered the state. */
const open = (name: string) =>
  Effect.gen(function*() {
    const context = yield* Browser
    const info = yield* SandboxInfo
    return yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const page = await context.newPage()
        await page.goto(`${info.rootUrl}/#${name}`)
        await page.waitForSelector(`body[data-page="${name}"]`)
        return page
      }),
      (page) => Effect.promise(() => page.close())
    )
  })

const text = (page: Tab, selector: string) =>
  Effect.promise(async () => (await page.locator(selector).first().textContent()) ?? "")
const count = (page: Tab, selector: string) => Effect.promise(() => page.locator(selector).count())

/** The page's HTML holds no API key, and a screenshot of it is saved. */
const finish = (page: Tab, name: string) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const html = yield* Effect.promise(() => page.content())
    assert.notInclude(html, Redacted.value(info.demoApiKey))
    yield* ensureArtifacts
    yield* Effect.promise(() => page.screenshot({ path: join(artifacts, `explorer-${name}.png`), scale: "device" }))
  })

/** Lamports as the page writes them (its one formatting helper). */
const sol = (lamports: bigint): string => Format.sol(lamports)

/** A number the page wrote with thousands separators. */
const numberOf = (written: string): number => Number(written.replaceAll(",", ""))

const explorerLayer = Layer.mergeAll(sandboxLayer, Browser.layer)

/** For each page, a selector of the data it shows, and what the flow made it show. */
const dataOf = (
  done: Flow,
  tokens: number
): Readonly<Record<Page, { readonly selector: string; readonly text: RegExp }>> => ({
  overview: { selector: "#count-tokens", text: new RegExp(`^${Format.count(tokens)}$`) },
  tokens: {
    selector: `[data-token="${done.mint}"] .lifetime-fees`,
    text: new RegExp(sol(done.lifetimeFees).replaceAll(".", "\\."))
  },
  wallets: { selector: `tr[data-wallet="${done.claimer.address}"] .balance`, text: /\d\.\d+ SOL/ },
  transactions: { selector: `tr[data-signature="${done.failedSignature}"] .error`, text: /InstructionError/ },
  plans: { selector: `[data-plan]:has(code[title="${done.claimSignature}"]) g.stage[data-stage=claim]`, text: /claim/ },
  requests: { selector: "#requests tbody tr[data-status]", text: /\S/ }
})

describe("Sandbox explorer", () => {
  // the live clock: the sandbox's slots must pass for the claim plan's lookup table to warm up
  layer(explorerLayer, { timeout: 180_000, excludeTestServices: true })("in chromium", (it) => {
    it.scoped("each page shows its data when it loads: the page's HTML at the load event holds it, and so does the first screenshot", () =>
      Effect.gen(function*() {
        const done = yield* flow
        const market = yield* Market
        const state = yield* market.state
        const context = yield* Browser
        const info = yield* SandboxInfo
        const expected = dataOf(done, state.tokens.length)
        for (const name of pages) {
          const page = yield* Effect.acquireRelease(
            Effect.promise(() => context.newPage()),
            (page) => Effect.promise(() => page.close())
          )
          // what #main holds when the load event fires, kept by the page itself
          yield* Effect.promise(() =>
            page.addInitScript(() =>
              addEventListener("load", () => {
                document.documentElement.dataset["atLoad"] = document.getElementById("main")?.innerHTML ?? ""
              })
            )
          )
          yield* Effect.promise(() => page.goto(`${info.rootUrl}/#${name}`, { waitUntil: "load" }))
          yield* ensureArtifacts
          yield* Effect.promise(() =>
            page.screenshot({ path: join(artifacts, `explorer-${name}-at-load.png`), scale: "device" })
          )
          const atLoad = yield* Effect.promise(() =>
            page.evaluate((selector) => {
              const main = document.createElement("main")
              main.innerHTML = document.documentElement.dataset["atLoad"] ?? ""
              return Array.from(main.querySelectorAll(selector), (found) => found.textContent ?? "")
            }, expected[name].selector)
          )
          assert.isAbove(atLoad.length, 0, `${name}: ${expected[name].selector} at load`)
          assert.match(atLoad[0] ?? "", expected[name].text, name)
          const millis = yield* Effect.promise(() =>
            page.evaluate(() => {
              const [navigation] = performance.getEntriesByType("navigation") as Array<PerformanceNavigationTiming>
              return Math.round(navigation?.loadEventStart ?? -1)
            })
          )
          yield* Effect.log(`explorer #${name}: loaded with its data in ${millis} ms`)
        }
      }))

    it.scoped("the overview: clock, counts, rate-limit buckets, key ids (never the key), the fault knobs; live", () =>
      Effect.gen(function*() {
        const done = yield* flow
        assert.notStrictEqual(done.tamperedRefusal, "executed")
        const market = yield* Market
        const state = yield* market.state
        const page = yield* open("overview")
        yield* Effect.promise(() => page.waitForSelector("#live.on"))
        assert.strictEqual(yield* text(page, "#count-tokens"), String(state.tokens.length))
        assert.strictEqual(numberOf(yield* text(page, "#slot")) > 0, true)
        assert.match(
          yield* text(page, "#blockhash-valid"),
          /valid to block [\d,]+ \([\d,]+ blocks; 150 per blockhash\)/
        )
        const keys = yield* text(page, "#keys tbody")
        assert.include(keys, "demo")
        assert.match(keys, /key_[0-9a-f]+/)
        const buckets = yield* text(page, "#buckets tbody")
        assert.match(buckets, /user:\S+\s*5,000\s*[\d,]+/)
        assert.match(buckets, /ip:\S+\s*5,000\s*[\d,]+/)
        assert.include(yield* text(page, "#knobs"), "flip-byte")
        // live: the slot moves without a reload
        const before = yield* text(page, "#slot")
        yield* Effect.promise(() =>
          page.waitForFunction((slot) => document.getElementById("slot")?.textContent !== slot, before)
        )
        yield* finish(page, "overview")
        // the set-up action: the clock moves by a blockhash's life
        const now = numberOf(yield* text(page, "#slot"))
        const [answer] = yield* Effect.promise(() =>
          Promise.all([
            page.waitForResponse((response) => response.request().method() === "POST"),
            page.click("#advance")
          ])
        )
        assert.strictEqual(answer.status(), 200)
        const moved = (yield* Effect.promise(() => answer.json())) as { response: { slot: string } }
        assert.isAtLeast(Number(moved.response.slot), now + 150)
        yield* Effect.promise(() =>
          page.waitForFunction(
            (from) => Number(document.getElementById("slot")?.textContent?.replaceAll(",", "")) >= from + 150,
            now
          )
        )
      }))

    it.scoped("tokens: status, reserves, lifetime fees, the fee share and claimed vs claimable as charts, claim events, vaults", () =>
      Effect.gen(function*() {
        const done = yield* flow
        const page = yield* open("tokens")
        const card = `[data-token="${done.mint}"]`
        assert.include(yield* text(page, `${card} .status`), "bonding curve")
        assert.include(yield* text(page, `${card} .lifetime-fees`), sol(done.lifetimeFees))
        assert.strictEqual(yield* count(page, `${card} .feeshare-chart rect`), 2)
        assert.include(yield* text(page, card), "6000 bps")
        assert.include(yield* text(page, card), "4000 bps")
        // the claimer claimed: a claimed bar; the creator did not: claimable only
        assert.strictEqual(yield* count(page, `${card} .claims-chart g[data-claimer="${done.claimer.address}"]`), 1)
        assert.match(
          yield* text(page, `${card} .claims-chart g[data-claimer="${done.claimer.address}"]`),
          /(?!0\.0000 )[\d,]+\.\d{4} SOL \/ 0\.0000 SOL/
        )
        // the claim, among the token's claim events: one row, the claimer's
        assert.strictEqual(yield* count(page, `#claim-events-${done.mint} tbody tr`), 1)
        assert.include(yield* text(page, `#claim-events-${done.mint}`), done.claimer.address.slice(0, 6))
        assert.isAbove(yield* count(page, "#deployer-vaults tbody tr"), 0)
        yield* finish(page, "tokens")
      }))

    it.scoped("wallets: balances and claimable positions", () =>
      Effect.gen(function*() {
        const done = yield* flow
        const market = yield* Market
        const state = yield* market.state
        const token = state.tokens.find((t) => t.mint === done.mint)
        const shares = (token?.["shares"] ?? []) as ReadonlyArray<{ wallet: string; unclaimed: string }>
        const creatorShare = BigInt(shares.find((s) => s.wallet === done.creator.address)?.unclaimed ?? "0")
        assert.isAbove(Number(creatorShare), 0)
        const page = yield* open("wallets")
        const row = `tr[data-wallet="${done.creator.address}"]`
        assert.include(yield* text(page, row), "claimer of XPLR")
        assert.include(yield* text(page, `${row} .claimable`), `${sol(creatorShare)} (XPLR)`)
        const info = yield* SandboxInfo
        const balance = yield* Effect.promise(async () => {
          const response = await fetch(info.rpcUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBalance", params: [done.claimer.address] })
          })
          return BigInt(((await response.json()) as { result: { value: number } }).result.value)
        })
        assert.strictEqual(yield* text(page, `tr[data-wallet="${done.claimer.address}"] .balance`), sol(balance))
        yield* finish(page, "wallets")
      }))

    it.scoped("transactions: kinds, the failed one's error, logs and instructions on a click; new ones arrive live", () =>
      Effect.gen(function*() {
        const done = yield* flow
        const info = yield* SandboxInfo
        const page = yield* open("transactions")
        const failed = `tr[data-signature="${done.failedSignature}"]`
        assert.strictEqual(yield* count(page, "tr.tx[data-status=failed]"), 1)
        assert.strictEqual(yield* Effect.promise(() => page.locator(failed).getAttribute("data-status")), "failed")
        assert.include(yield* text(page, `${failed} .error`), "InstructionError")
        assert.include(yield* text(page, `${failed} .error`), "\"Custom\":1")
        assert.strictEqual(
          yield* Effect.promise(() =>
            page.locator(`tr[data-signature="${done.claimSignature}"]`).getAttribute("data-kind")
          ),
          "claim stage"
        )
        assert.isAtLeast(yield* count(page, "tr.tx[data-kind=swap]"), done.swaps)
        assert.isAtLeast(yield* count(page, "tr.tx[data-kind=launch]"), 1)
        assert.isAtLeast(yield* count(page, "tr.tx[data-kind=airdrop]"), 3)
        // the overview counts what this page lists
        const listed = yield* count(page, "tr.tx")
        // a click shows the logs and the decoded instructions
        yield* Effect.promise(() => page.locator(failed).click())
        yield* Effect.promise(() => page.waitForSelector(`tr[data-details="${done.failedSignature}"]`))
        const details = yield* text(page, `tr[data-details="${done.failedSignature}"]`)
        assert.include(details, "System")
        assert.include(details, "transfer")
        assert.include(details, "insufficient lamports")
        // the status filter
        yield* Effect.promise(() => page.selectOption("#tx-status", "failed"))
        assert.strictEqual(yield* count(page, "tr.tx"), 1)
        yield* Effect.promise(() => page.selectOption("#tx-status", "all"))
        yield* finish(page, "transactions")
        // live: an airdrop appears without a reload
        const airdrop = yield* Effect.promise(async () => {
          const response = await fetch(`${info.rootUrl}/sandbox/airdrop`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ address: done.claimer.address, lamports: "1000" })
          })
          return ((await response.json()) as { response: { signature: string } }).response.signature
        })
        yield* Effect.promise(() => page.waitForSelector(`tr[data-signature="${airdrop}"][data-kind=airdrop]`))
        assert.strictEqual(yield* count(page, "tr.tx"), listed + 1)
        const overview = yield* open("overview")
        assert.strictEqual(yield* text(overview, "#count-transactions"), String(listed + 1))
      }))

    it.scoped("plans: the dependency graph with each stage's state, the tampered plan superseded, the claim landed", () =>
      Effect.gen(function*() {
        const done = yield* flow
        const page = yield* open("plans")
        // the tampered plan: refused by the client, so never landed; rebuilt, so superseded
        assert.strictEqual(yield* count(page, ".tampered"), 1)
        assert.include(yield* text(page, ".tampered"), "flip-byte")
        const tampered = "[data-plan]:has(.tampered)"
        const tamperedStages = yield* count(page, `${tampered} g.stage`)
        assert.isAbove(tamperedStages, 0)
        assert.strictEqual(yield* count(page, `${tampered} g.stage[data-state=superseded]`), tamperedStages)
        // the plan that claimed: its stages landed, drawn with an edge from payout-account to claim
        const claimed = `[data-plan]:has(code[title="${done.claimSignature}"])`
        assert.strictEqual(yield* count(page, claimed), 1)
        assert.strictEqual(yield* count(page, `${claimed} g.stage[data-stage=claim][data-state=landed]`), 1)
        assert.strictEqual(yield* count(page, `${claimed} g.stage[data-stage=payout-account][data-state=landed]`), 1)
        assert.strictEqual(yield* count(page, `${claimed} svg.plan-graph line`), 1)
        // the setup plan before it: its lookup-table stages landed
        assert.isAtLeast(yield* count(page, "g.stage[data-state=landed]"), 3)
        yield* finish(page, "plans")
      }))

    it.scoped("requests: operation, status, latency and rate-limit headers by key id; filtered by status", () =>
      Effect.gen(function*() {
        yield* flow
        const info = yield* SandboxInfo
        const status = yield* Effect.promise(async () => {
          const response = await fetch(`${info.baseUrl}/no-such-route`, {
            headers: { "x-api-key": Redacted.value(info.demoApiKey) }
          })
          return response.status
        })
        assert.strictEqual(status, 404)
        const page = yield* open("requests")
        const all = yield* count(page, "#requests tbody tr")
        assert.isAbove(all, 5)
        assert.include(yield* text(page, "#requests tbody"), "trade.swap")
        assert.match(yield* text(page, "#requests tbody"), /key_[0-9a-f]+/)
        yield* Effect.promise(() => page.selectOption("#status-filter", "4xx"))
        const shown = yield* Effect.promise(() =>
          page.locator("#requests tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")))
        )
        assert.isAtLeast(shown.length, 1)
        assert.isTrue(shown.every((s) => s !== null && s.startsWith("4")), JSON.stringify(shown))
        assert.include(yield* text(page, "#requests tbody"), "/api/v1/no-such-route")
        // the page itself asks the API for nothing (no favicon request counted against the IP)
        assert.notInclude(yield* text(page, "#requests tbody"), "favicon")
        yield* Effect.promise(() => page.selectOption("#status-filter", "all"))
        yield* finish(page, "requests")
      }))
  })
})
