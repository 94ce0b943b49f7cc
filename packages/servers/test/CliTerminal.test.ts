// `feeshare` on a real terminal (tmux, from Debian's package): `claims claim` shows the plan's
// progress as one table rewritten in place (a row per stage with its elapsed time, then the
// total and the current wait), not a line per event as on a pipe; help headings are bold on a
// terminal, and plain with NO_COLOR.
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requirePart } from "../../../scripts/system-parts.mjs"
import { executables } from "../../../scripts/test-executables.mjs"
import { feeshare, workspace } from "../support/processes.js"

const cli = [process.execPath, executables.feeshare]

interface Started {
  readonly baseUrl: string
  readonly demoApiKey: string
  readonly seeded: {
    readonly demoKeypair: string
    readonly tokens: ReadonlyArray<{ readonly symbol: string; readonly mint: string }>
  }
}

let sandbox: { readonly started: Started; readonly stop: () => Promise<void> }

/** `feeshare sandbox --json` (seeded), once it printed its start document. */
const startSandbox = () =>
  new Promise<typeof sandbox>((resolve, reject) => {
    const child = spawn(cli[0]!, [...cli.slice(1), "--json", "sandbox", "--port", "0"], {
      cwd: workspace,
      stdio: ["ignore", "pipe", "inherit"]
    })
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split("\n").find((l) => l.startsWith("{") && stdout.includes(`${l}\n`))
      if (line !== undefined) {
        resolve({
          started: JSON.parse(line) as Started,
          stop: () => {
            child.kill("SIGINT")
            return exited
          }
        })
      }
    })
    child.once("exit", (code) => reject(new Error(`feeshare sandbox exited ${code}`)))
  })

/** A tmux server of this test only (its own socket), so that nothing else is touched. */
const socket = `feeshare-live-${process.pid}`
const tmux = (...args: ReadonlyArray<string>): string =>
  execFileSync(requirePart("tmux"), ["-L", socket, ...args], { encoding: "utf8" })

const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`

beforeAll(async () => {
  requirePart("tmux")
  sandbox = await startSandbox()
})

afterAll(async () => {
  try {
    tmux("kill-server")
  } catch {
    // no server left
  }
  await sandbox?.stop()
})

describe("feeshare on a terminal (tmux)", () => {
  it("shows a live table rewritten in place: one row per stage, elapsed times, the total; a pipe gets lines", async () => {
    const { started } = sandbox
    const alpha = started.seeded.tokens.find((t) => t.symbol === "ALPHA")!
    const env = {
      FEESHARE_BASE_URL: started.baseUrl,
      FEESHARE_API_KEY: started.demoApiKey,
      FEESHARE_CONFIG_DIR: mkdtempSync(join(tmpdir(), "feeshare-live-"))
    }
    const command = [
      "env",
      ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
      ...cli.map(quote),
      "--keypair",
      quote(started.seeded.demoKeypair),
      "claims",
      "claim",
      "--mint",
      quote(alpha.mint)
    ].join(" ")
    // the shell signals the test when the command has ended (tmux wait-for: a real signal, no polling)
    tmux(
      "new-session",
      "-d",
      "-s",
      "live",
      "-x",
      "160",
      "-y",
      "50",
      `${command}; echo "exit=$?"; tmux -L ${socket} wait-for -S claimed; sleep 600`
    )
    tmux("wait-for", "claimed")
    const pane = tmux("capture-pane", "-p", "-t", "live")
    expect(pane).toMatch(/exit=0/)
    // one table: its header once, every stage once, all landed with an elapsed time
    const headers = pane.split("\n").filter((line) => /^\s+stage\s+kind\s+state\s+elapsed\s+signature/.test(line))
    expect(headers).toHaveLength(1)
    const rows = pane.split("\n").filter((line) =>
      /^\s+\S+\s+\S+\s+(landed|confirming|signed|verified|failed)\s+\d+\.\d s/.test(line)
    )
    expect(rows.length).toBeGreaterThanOrEqual(1)
    for (const row of rows) expect(row).toMatch(/ landed +\d+\.\d s +\S+…\S+ slot \d+/)
    const ids = rows.map((row) => row.trim().split(/\s+/)[0])
    expect(new Set(ids).size).toBe(ids.length)
    expect(pane).toMatch(/^\s+\d+\.\d s elapsed; complete: \d+ stage\(s\) landed, \d+ rebuild\(s\)$/m)
    // nothing of the one-line-per-event form
    expect(pane).not.toMatch(/ submitted /)
    expect(pane).toMatch(/Claimed: \d+ stage\(s\) landed; paid \d+/)

    // the same command on a pipe: one line per event (the table is for terminals only)
    const piped = await feeshare([
      "--keypair",
      started.seeded.demoKeypair,
      "claims",
      "claim",
      "--mint",
      started.seeded.tokens.find((t) => t.symbol === "DEMO")!.mint
    ], env)
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toMatch(/^ {2}\S+\s+\S+\s+submitted /m)
    expect(piped.stdout).not.toContain("\u001b[")
    expect(piped.stdout).not.toMatch(/elapsed; /)
  })

  it("help: bold headings on a terminal, none with NO_COLOR", () => {
    const run = (name: string, env: string) => {
      tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        "100",
        "-y",
        "50",
        `env ${env} ${cli.map(quote).join(" ")} --help; tmux -L ${socket} wait-for -S ${name}; sleep 600`
      )
      tmux("wait-for", name)
      // -e: with the escape sequences of the text's attributes
      return tmux("capture-pane", "-p", "-e", "-t", name)
    }
    const colored = run("help-color", "NO_COLOR=")
    const plain = run("help-plain", "NO_COLOR=1")
    expect(colored).toContain("Usage:")
    expect(colored).toContain("\u001b[1m")
    expect(plain).toContain("Usage:")
    expect(plain).not.toContain("\u001b[")
  })
})
