/**
 * The sandbox explorer's page: plain DOM and inline SVG, no framework. The page arrives with
 * the state in a JSON element (rendered at once, before the page's load event); it fetches the
 * state again (`GET /explorer/state`) when the event stream (`/explorer/events`) says the
 * history moved; the clock comes with every event.
 */
import type { MarketView, State, Tick, WalletView } from "../src/Explorer.js"
import * as Format from "../src/ExplorerFormat.js"
import type { PlanEntry, RequestEntry, StageEntry, TransactionEntry } from "../src/History.js"
import { initialStateId, type Page, pages, paths } from "../src/internal/http/explorerPaths.js"

const token = new URLSearchParams(location.search).get("token")
const withToken = (path: string): string => token === null ? path : `${path}?token=${encodeURIComponent(token)}`

const element = <E extends HTMLElement>(id: string): E => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`explorer: #${id} is missing`)
  return found as E
}

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c] ?? c)

const { count, dateTime, price, sol, timeOfDay, token: tokens$ } = Format
const short = (address: string): string => address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-6)}` : address
const addr = (address: string): string => `<code title="${escape(address)}">${escape(short(address))}</code>`
/** A time of the log: time of day with its zone, the full date in the tooltip. */
const time = (millis: number): string => `<span title="${dateTime(millis)}">${timeOfDay(millis)}</span>`
/** A table; with no rows, one row saying what would fill it (`empty`). */
const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<string>, id = "", empty = "nothing yet"): string =>
  `<table${id === "" ? "" : ` id="${id}"`}><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead>` +
  `<tbody>${
    rows.length === 0 ? `<tr><td colspan="${head.length}" class="muted empty">${empty}</td></tr>` : rows.join("")
  }</tbody></table>`

/** A paragraph saying what would fill an empty part of the page. */
const emptyState = (text: string): string => `<p class="muted empty">${text}</p>`

const palette = ["#2563eb", "#16a34a", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d", "#dc2626"]

// ---- state ------------------------------------------------------------------------------

let state: State | undefined
let version = -1
let fetching = false
let stale = false
let page: Page = "overview"
const open = new Set<string>() // transactions shown with their details
let txKind = "all"
let txStatus = "all"
let requestStatus = "all"

const pageOf = (hash: string): Page => pages.find((p) => `#${p}` === hash) ?? "overview"

const refresh = async (): Promise<void> => {
  if (fetching) {
    stale = true
    return
  }
  fetching = true
  try {
    const response = await fetch(withToken(paths.state), { cache: "no-store" })
    if (response.ok) {
      state = await response.json() as State
      version = state.history.version
      render()
    } else {
      element("main").innerHTML = `<p class="error">The sandbox answered ${response.status} for its state.</p>`
    }
  } finally {
    fetching = false
    if (stale) {
      stale = false
      void refresh()
    }
  }
}

// ---- pages ------------------------------------------------------------------------------

/** How long the latest blockhash stays valid. */
const validity = (clock: Pick<State["clock"], "blockHeight" | "lastValidBlockHeight">, blocks: number): string =>
  `valid to block ${count(clock.lastValidBlockHeight)} (${
    count(BigInt(clock.lastValidBlockHeight) - BigInt(clock.blockHeight))
  } blocks; ${count(blocks)} per blockhash)`

const overview = (s: State): string => {
  return `<h2>Overview</h2>
  <div class="stats">
    <div class="stat">slot<b id="slot">${count(s.clock.slot)}</b></div>
    <div class="stat">block height<b id="block-height">${count(s.clock.blockHeight)}</b></div>
    <div class="stat">blockhash<b class="mono" id="blockhash" title="${escape(s.clock.blockhash)}">${
    escape(short(s.clock.blockhash))
  }</b>
      <span class="muted" id="blockhash-valid">${validity(s.clock, s.blockhashValidity)}</span></div>
    <div class="stat">tokens<b id="count-tokens">${count(s.market.tokens.length)}</b></div>
    <div class="stat">transactions<b id="count-transactions">${count(s.history.transactions.length)}</b></div>
    <div class="stat">plans<b id="count-plans">${count(s.history.plans.length)}</b></div>
    <div class="stat">requests<b id="count-requests">${count(s.history.requests.length)}</b></div>
  </div>
  <p><button id="advance" type="button">advance ${count(s.blockhashValidity)} slots</button>
    <span class="muted">(a sandbox set-up action: every blockhash handed out so far expires)</span></p>
  <h3>Rate-limit buckets</h3>
  ${
    table(
      ["bucket", "limit", "remaining", "resets"],
      s.buckets.map((b) =>
        `<tr><td class="mono">${escape(b.key)}</td><td>${count(b.limit)}</td><td>${count(b.remaining)}</td><td>${
          dateTime(b.resetAt * 1000)
        }</td></tr>`
      ),
      "buckets",
      "no request yet: each API key's first request opens its bucket"
    )
  }
  <h3>API keys <span class="muted">(ids and names; the keys themselves are never shown)</span></h3>
  ${
    table(
      ["key id", "name", "user", "state"],
      s.keys.map((k) =>
        `<tr><td class="mono">${escape(k.keyId)}</td><td>${escape(k.name)}</td><td class="mono">${
          escape(k.userId)
        }</td><td>${k.revoked ? "revoked" : "active"}</td></tr>`
      ),
      "keys",
      "no API key yet: `feeshare auth login` (or the demo seed) creates one"
    )
  }
  <h3>Fault knobs</h3>
  ${
    table(
      ["knob", "value"],
      Object.entries(s.knobs).map(([k, v]) => `<tr><td>${escape(k)}</td><td class="mono">${escape(v)}</td></tr>`),
      "knobs"
    )
  }`
}

/** A horizontal 100 % bar of the claimers' basis points. */
const feeShareChart = (claimers: ReadonlyArray<{ readonly wallet: string; readonly bps: number }>): string => {
  const width = 380
  let x = 0
  const bars = claimers.map((c, i) => {
    const w = (c.bps / 10_000) * width
    const bar = `<rect x="${x}" y="0" width="${w}" height="22" fill="${palette[i % palette.length]}"><title>${
      escape(c.wallet)
    }: ${c.bps} bps</title></rect>`
    x += w
    return bar
  }).join("")
  const legend = claimers.map((c, i) =>
    `<span><span style="color:${palette[i % palette.length]}">■</span> ${addr(c.wallet)} ${c.bps} bps</span>`
  ).join(" ")
  return `<svg class="feeshare-chart" width="${width}" height="22" role="img" aria-label="fee share">${bars}</svg><div>${legend}</div>`
}

/** Claimed (dark) and claimable (light) per claimer, on one scale. */
const claimsChart = (shares: MarketView["tokens"][number]["shares"]): string => {
  const width = 260
  const max = shares.reduce((m, s) => {
    const total = BigInt(s.claimed) + BigInt(s.unclaimed)
    return total > m ? total : m
  }, 1n)
  const scale = (v: string) => Number((BigInt(v) * 10_000n) / max) / 10_000 * width
  const rows = shares.map((s, i) => {
    const claimed = scale(s.claimed)
    const unclaimed = scale(s.unclaimed)
    const y = i * 24
    return `<g data-claimer="${escape(s.wallet)}"><text x="0" y="${y + 15}">${escape(short(s.wallet))}</text>` +
      `<rect x="130" y="${y + 4}" width="${claimed}" height="14" fill="#1d4ed8"><title>claimed ${
        sol(s.claimed)
      }</title></rect>` +
      `<rect x="${130 + claimed}" y="${y + 4}" width="${unclaimed}" height="14" fill="#93c5fd"><title>claimable ${
        sol(s.unclaimed)
      }</title></rect>` +
      `<text x="${136 + claimed + unclaimed}" y="${y + 15}" class="muted">${sol(s.claimed)} / ${
        sol(s.unclaimed)
      }</text></g>`
  }).join("")
  return `<svg class="claims-chart" width="${130 + width + 200}" height="${
    Math.max(24, shares.length * 24)
  }" role="img" aria-label="claimed and claimable">${rows}</svg>`
}

const tokens = (s: State): string => {
  const cards = s.market.tokens.map((t) => {
    const status = !t.launched ? "not launched" : t.migrated ? "migrated (DAMM v2)" : "bonding curve (DBC)"
    const solReserve = BigInt(t.solReserve)
    const tokenReserve = BigInt(t.tokenReserve)
    const priced = tokenReserve === 0n
      ? "-"
      : price(
        (Number(BigInt(s.economics.virtualSolLamports) + solReserve) / 1e9) /
          (Number(tokenReserve) / 10 ** t.decimals),
        escape(t.symbol)
      )
    const progress = t.migrated
      ? 100
      : Math.min(100, Number((solReserve * 10_000n) / BigInt(s.economics.migrationLamports)) / 100)
    const image = t.imagePath === undefined || t.imagePath === null
      ? ""
      : `<img class="token-image" src="${escape(t.imagePath)}" alt="${escape(t.symbol)}" width="48" height="48"> `
    return `<div class="card" data-token="${escape(t.mint)}">
      <h3>${image}${escape(t.symbol)} <span class="muted">${
      escape(t.name)
    }</span> <span class="badge status">${status}</span></h3>
      <div>mint ${addr(t.mint)} · creator ${
      t.creator === null ? "<span class=\"muted\">(whoever launches it)</span>" : addr(t.creator)
    } · ${escape(t.flow)}</div>
      <div class="reserves">reserves: ${sol(t.solReserve)} · ${
      tokens$(t.tokenReserve, t.decimals, escape(t.symbol))
    }</div>
      <div class="price">price: ${priced}</div>
      <div class="progress">migration: ${Format.percent(progress)}
        <svg width="200" height="8"><rect width="200" height="8" fill="#e5e7eb"/><rect width="${
      progress * 2
    }" height="8" fill="#16a34a"/></svg></div>
      <div class="lifetime-fees">lifetime fees: <b>${sol(t.lifetimeFees)}</b> · unpaid: ${sol(t.unpaidFees)}</div>
      <h3>Fee share</h3>${
      t.feeShare.claimers.length === 0
        ? emptyState("no fee-share configuration yet: `feeshare fee-share update` sets who gets the fees")
        : feeShareChart(t.feeShare.claimers)
    }
      <div class="muted">admin ${addr(t.feeShare.admin)}${
      t.feeShare.partner === null ? "" : ` · partner ${addr(t.feeShare.partner)}`
    }${
      t.feeShare.configType === null
        ? ""
        : `<br>config ${escape(t.feeShare.configType)} · deployer ${
          addr(t.feeShare.deployer ?? "")
        } (25 % of the claimers pool)`
    }</div>
      <h3>Claimed vs claimable</h3>${
      t.shares.length === 0
        ? emptyState("no fees to claim yet: trades on this token accrue them to its claimers")
        : claimsChart(t.shares)
    }
      <h3>Claim events</h3>${
      t.claimEvents === undefined || t.claimEvents.length === 0
        ? emptyState("no claim yet: `feeshare claims claim` (or `claims all`) lands one")
        : table(
          ["time", "wallet", "amount", "transaction"],
          t.claimEvents.map((e) =>
            `<tr><td>${time(e.blockTime * 1000)}</td><td>${addr(e.wallet)}${
              e.isCreator ? " <span class=\"badge\">creator</span>" : ""
            }</td><td>${sol(e.amount)}</td><td>${addr(e.signature)}</td></tr>`
          ),
          `claim-events-${escape(t.mint)}`
        )
    }
    </div>`
  }).join("")
  return `<h2>Tokens</h2><div class="cards">${
    cards || emptyState("no token yet: `POST /sandbox/tokens` or a launch (`feeshare launch`) creates one")
  }</div>
  <h3>Partner vaults</h3>${
    table(
      ["partner", "vault", "balance", "claimed"],
      s.market.partnerVaults.map((v) =>
        `<tr><td>${addr(v.partner)}</td><td>${addr(v.vault)}</td><td>${sol(v.balance)}</td><td>${
          sol(v.claimed)
        }</td></tr>`
      ),
      "partner-vaults",
      "no partner vault yet: a fee-share configuration with a partner opens one"
    )
  }
  <h3>Deployer vaults</h3>${
    table(
      ["deployer", "vault", "balance", "claimed"],
      s.market.deployerVaults.map((v) =>
        `<tr><td>${addr(v.deployer)}</td><td>${addr(v.vault)}</td><td>${sol(v.balance)}</td><td>${
          sol(v.claimed)
        }</td></tr>`
      ),
      "deployer-vaults",
      "no deployer vault yet: launching a token opens its deployer's vault"
    )
  }`
}

const wallets = (s: State): string =>
  `<h2>Wallets</h2>${
    table(
      ["wallet", "roles", "balance", "claimable", "holdings"],
      s.wallets.map((w: WalletView) =>
        `<tr data-wallet="${escape(w.address)}"><td>${addr(w.address)}</td><td>${
          w.roles.map(escape).join("<br>")
        }</td>` +
        `<td class="balance">${sol(w.lamports)}</td>` +
        `<td class="claimable">${
          w.claimable.map((c) => `${sol(c.amount)} (${escape(c.symbol)})`).join("<br>") || "-"
        }</td>` +
        `<td>${
          w.holdings.map((h) => `${escape(h.held)} of ${addr(h.quoteMint)} for ${addr(h.mint)}`).join("<br>") || "-"
        }</td></tr>`
      ),
      "wallets",
      "no wallet yet: an airdrop (`POST /sandbox/airdrop`) or a token's creator adds one"
    )
  }`

const transactionDetails = (t: TransactionEntry): string =>
  `<tr class="details" data-details="${escape(t.signature)}"><td colspan="8">
    <div>signature <code>${escape(t.signature)}</code></div>
    ${t.error === null ? "" : `<div class="error">error: <code>${escape(t.error)}</code></div>`}
    <h3>Instructions</h3>${
    table(
      ["program", "instruction", "accounts"],
      t.instructions.map((i) =>
        `<tr><td>${escape(i.programName)}</td><td class="mono">${escape(i.name)}</td><td>${
          i.accounts.map(addr).join(" ")
        }</td></tr>`
      )
    )
  }
    <h3>Logs</h3><pre class="logs">${escape(t.logs.join("\n"))}</pre></td></tr>`

const transactions = (s: State): string => {
  const kinds = [...new Set(s.history.transactions.map((t) => t.kind))].sort()
  const shown = s.history.transactions.filter((t) =>
    (txKind === "all" || t.kind === txKind) && (txStatus === "all" || t.status === txStatus)
  )
  const rows = shown.map((t) =>
    `<tr class="tx" data-signature="${escape(t.signature)}" data-kind="${escape(t.kind)}" data-status="${t.status}">` +
    `<td>${addr(t.signature)}</td><td>${count(t.slot)}</td><td>${escape(t.kind)} <span class="muted">${
      escape(t.label)
    }</span></td>` +
    `<td><span class="badge ${t.status}">${t.status}</span></td><td>${sol(t.fee)}</td><td>${
      count(t.computeUnits)
    }</td>` +
    `<td>${t.instructions.length}</td><td class="error">${t.error === null ? "" : escape(t.error)}</td></tr>` +
    (open.has(t.signature) ? transactionDetails(t) : "")
  )
  const option = (value: string, selected: string) =>
    `<option value="${escape(value)}"${value === selected ? " selected" : ""}>${escape(value)}</option>`
  return `<h2>Transactions <span class="muted">(recent first; click one for its logs and instructions)</span></h2>
  <div class="filters">kind <select id="tx-kind">${["all", ...kinds].map((k) => option(k, txKind)).join("")}</select>
  status <select id="tx-status">${["all", "success", "failed"].map((k) => option(k, txStatus)).join("")}</select>
  <span class="muted" id="tx-count">${shown.length} of ${s.history.transactions.length}</span></div>
  ${
    table(
      ["signature", "slot", "kind", "status", "fee", "compute units", "instructions", "error"],
      rows,
      "transactions",
      "no transaction yet: launches, swaps and claims sent to /rpc show here"
    )
  }`
}

const stateColors: Readonly<Record<StageEntry["state"], string>> = {
  built: "#9ca3af",
  landed: "#16a34a",
  failed: "#dc2626",
  expired: "#d97706",
  superseded: "#7c3aed"
}

/** The plan's stages as a dependency graph: columns by depth, arrows from each dependency. */
const planGraph = (plan: PlanEntry): string => {
  const depth = new Map<string, number>()
  for (const stage of plan.stages) {
    depth.set(stage.id, stage.dependsOn.reduce((d, dep) => Math.max(d, (depth.get(dep) ?? 0) + 1), 0))
  }
  const rowsPerColumn = new Map<number, number>()
  const position = new Map<string, { readonly x: number; readonly y: number }>()
  for (const stage of plan.stages) {
    const column = depth.get(stage.id) ?? 0
    const row = rowsPerColumn.get(column) ?? 0
    rowsPerColumn.set(column, row + 1)
    position.set(stage.id, { x: 10 + column * 240, y: 10 + row * 60 })
  }
  const width = 10 + (Math.max(0, ...depth.values()) + 1) * 240
  const height = 10 + Math.max(1, ...rowsPerColumn.values()) * 60
  const edges = plan.stages.flatMap((stage) =>
    stage.dependsOn.map((dep) => {
      const from = position.get(dep)
      const to = position.get(stage.id)
      return from === undefined || to === undefined
        ? ""
        : `<line x1="${from.x + 200}" y1="${from.y + 20}" x2="${to.x - 4}" y2="${
          to.y + 20
        }" stroke="#64748b" marker-end="url(#arrow)"/>`
    })
  ).join("")
  const nodes = plan.stages.map((stage) => {
    const p = position.get(stage.id) ?? { x: 0, y: 0 }
    return `<g class="stage" data-stage="${escape(stage.id)}" data-state="${stage.state}">` +
      `<rect x="${p.x}" y="${p.y}" width="200" height="40" rx="6" fill="${stateColors[stage.state]}"/>` +
      `<text x="${p.x + 8}" y="${p.y + 17}" fill="#fff">${escape(stage.id)}</text>` +
      `<text x="${p.x + 8}" y="${p.y + 33}" fill="#fff">${stage.state} · ${escape(stage.kind)}</text></g>`
  }).join("")
  return `<svg class="plan-graph" width="${width}" height="${height}" role="img" aria-label="plan ${plan.id}">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker></defs>
    ${edges}${nodes}</svg>`
}

const plans = (s: State): string => {
  const legend = Object.entries(stateColors).map(([name, color]) =>
    `<span><span style="color:${color}">■</span> ${name}</span>`
  ).join(" ")
  const cards = s.history.plans.map((plan) =>
    `<div class="card" data-plan="${plan.id}">
      <h3>plan #${plan.id} <span class="muted">${escape(plan.operation)} · ${escape(plan.readiness)}</span>
        ${
      plan.tampered === null ? "" : `<span class="badge failed tampered">tampered: ${escape(plan.tampered)}</span>`
    }</h3>
      <div>token ${addr(plan.baseMint)} · wallet ${addr(plan.wallet)} · built ${time(plan.at)}</div>
      ${plan.stages.length === 0 ? "<p class=\"muted\">no stages (setup required first)</p>" : planGraph(plan)}
      ${
      table(
        ["stage", "state", "message SHA-256", "signers", "valid to block", "compute units", "bytes", "signature"],
        plan.stages.map((st) =>
          `<tr data-stage-row="${escape(st.id)}"><td>${escape(st.id)} <span class="muted">${escape(st.kind)} · ${
            escape(st.format)
          }</span></td>` +
          `<td><span class="badge ${st.state}">${st.state}</span></td><td class="mono">${
            escape(st.messageSha256.slice(0, 16))
          }…</td>` +
          `<td>${
            st.requiredSigners.map(addr).join(" ")
          }</td><td>${st.lastValidBlockHeight}</td><td>${st.computeUnitLimit}</td>` +
          `<td>${st.bytes}</td><td>${st.signature === null ? "-" : addr(st.signature)}</td></tr>`
        )
      )
    }
    </div>`
  ).join("")
  return `<h2>Plans</h2><div class="filters">${legend}</div><div class="cards wide">${
    cards || emptyState("no claim plan yet: `feeshare claims plan` (or `claims.createPlan`) builds one")
  }</div>`
}

const statusClass = (status: number): string => status === 429 ? "429" : `${Math.floor(status / 100)}xx`

const requests = (s: State): string => {
  const shown = s.history.requests.filter((r: RequestEntry) =>
    requestStatus === "all" || statusClass(r.status) === requestStatus
  )
  const options = ["all", "2xx", "4xx", "429", "5xx"].map((v) =>
    `<option value="${v}"${v === requestStatus ? " selected" : ""}>${v}</option>`
  ).join("")
  return `<h2>Requests <span class="muted">(the last ${count(s.history.requests.length)}; keys shown by id)</span></h2>
  <div class="filters">status <select id="status-filter">${options}</select><span class="muted" id="request-count">${shown.length} shown</span></div>
  ${
    table(
      ["time", "operation", "path", "status", "latency", "key id", "limit", "remaining", "reset"],
      shown.map((r) =>
        `<tr data-status="${r.status}"><td>${time(r.at)}</td><td>${escape(r.operation)}</td><td class="mono">${
          escape(r.method)
        } ${escape(r.path)}</td>` +
        `<td><span class="badge ${r.status < 400 ? "success" : "failed"}">${r.status}</span></td><td>${
          Format.duration(r.latencyMillis)
        }</td>` +
        `<td class="mono">${escape(r.keyId ?? "-")}</td><td>${escape(r.rateLimit?.limit ?? "-")}</td>` +
        `<td>${escape(r.rateLimit?.remaining ?? "-")}</td><td>${escape(r.rateLimit?.reset ?? "-")}</td></tr>`
      ),
      "requests",
      "no request yet: every call to the API shows here, with its status and rate-limit headers"
    )
  }`
}

const renderers: { readonly [P in Page]: (s: State) => string } = {
  overview,
  tokens,
  wallets,
  transactions,
  plans,
  requests
}

const render = (): void => {
  element("nav").innerHTML = pages.map((p) =>
    `<a href="#${p}" data-page="${p}"${p === page ? " class=\"active\"" : ""}>${p}</a>`
  ).join("")
  if (state === undefined) return
  element("main").innerHTML = renderers[page](state)
  document.body.dataset["page"] = page
  document.body.dataset["version"] = String(version)
}

// ---- events -----------------------------------------------------------------------------

window.addEventListener("hashchange", () => {
  page = pageOf(location.hash)
  render()
})

document.addEventListener("change", (event) => {
  const target = event.target
  if (!(target instanceof HTMLSelectElement)) return
  if (target.id === "tx-kind") txKind = target.value
  else if (target.id === "tx-status") txStatus = target.value
  else if (target.id === "status-filter") requestStatus = target.value
  else return
  render()
})

/** The sandbox's own set-up action: the block clock moves by a blockhash's life. */
const advance = async (): Promise<void> => {
  if (state === undefined) return
  await fetch(state.actions.advanceSlots, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ slots: state.blockhashValidity })
  })
}

document.addEventListener("click", (event) => {
  const target = event.target
  if (!(target instanceof Element)) return
  if (target.id === "advance") {
    void advance()
    return
  }
  const row = target.closest("tr.tx")
  const signature = row?.getAttribute("data-signature")
  if (signature === null || signature === undefined) return
  if (open.has(signature)) open.delete(signature)
  else open.add(signature)
  render()
})

const live = (on: boolean): void => {
  const badge = element("live")
  badge.className = on ? "on" : "off"
  badge.textContent = on ? "live" : "reconnecting"
}

const events = new EventSource(withToken(paths.events))
events.addEventListener("open", () => live(true))
events.addEventListener("error", () => live(false))
events.addEventListener("tick", (event) => {
  const tick = JSON.parse((event as MessageEvent<string>).data) as Tick
  if (tick.version !== version) void refresh()
  const show = (id: string, text: string, title?: string) => {
    const found = document.getElementById(id)
    if (found === null) return
    found.textContent = text
    if (title !== undefined) found.title = title
  }
  show("slot", tick.slot)
  show("block-height", tick.blockHeight)
  show("blockhash", short(tick.blockhash), tick.blockhash)
  if (state !== undefined) show("blockhash-valid", validity(tick, state.blockhashValidity))
})

/** The state the page arrived with, when the server embedded it. */
const embedded = (): State | undefined => {
  const text = document.getElementById(initialStateId)?.textContent
  return text === undefined || text === null || text === "" ? undefined : JSON.parse(text) as State
}

page = pageOf(location.hash)
state = embedded()
if (state !== undefined) version = state.history.version
render()
if (state === undefined) void refresh()
