// `feeshare launch token` on a real terminal (tmux, from Debian's package): the launch's
// progress is one table rewritten in place (a row per step: state, elapsed time, what it made;
// then the split with the handle), not a line per event as on a pipe.
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requirePart } from "../../../scripts/system-parts.mjs"
import { executables } from "../../../scripts/test-executables.mjs"
import { workspace } from "../support/processes.js"

const cli = [process.execPath, executables.feeshare]

interface Started {
  readonly baseUrl: string
  readonly demoApiKey: string
  readonly seeded: {
    readonly demoKeypair: string
    readonly demoWallet: string
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
const socket = `feeshare-launch-${process.pid}`
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

const image = join(workspace, "packages", "cli", "assets", "demo-token.png")

describe("feeshare launch token on a terminal (tmux)", () => {
  it("shows a live table: a row per step with its state and elapsed time, the split; no event lines", async () => {
    const { started } = sandbox
    const env = {
      FEESHARE_BASE_URL: started.baseUrl,
      FEESHARE_API_KEY: started.demoApiKey,
      FEESHARE_CONFIG_DIR: mkdtempSync(join(tmpdir(), "feeshare-launch-live-"))
    }
    const command = [
      "env",
      ...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
      ...cli.map(quote),
      "--keypair",
      quote(started.seeded.demoKeypair),
      "launch",
      "token",
      "--image",
      quote(image),
      "--name",
      quote("Live Launch"),
      "--symbol",
      "LIVE",
      "--share",
      "social:sandbox_alice:3000",
      "--share",
      quote(`${started.seeded.demoWallet}:7000`),
      "--initial-buy",
      "0.01SOL"
    ].join(" ")
    // the shell signals the test when the command has ended (tmux wait-for: a real signal, no polling)
    tmux(
      "new-session",
      "-d",
      "-s",
      "launch",
      "-x",
      "160",
      "-y",
      "50",
      `${command}; echo "exit=$?"; tmux -L ${socket} wait-for -S launched; sleep 600`
    )
    tmux("wait-for", "launched")
    const pane = tmux("capture-pane", "-p", "-t", "launch")
    expect(pane).toMatch(/exit=0/)
    const lines = pane.split("\n")
    // one table: its header once, each step once with its final state and elapsed time
    expect(lines.filter((line) => /^\s+step\s+state\s+elapsed\s+detail/.test(line))).toHaveLength(1)
    for (const [step, state] of [["handles", "done"], ["token-info", "done"], ["config", "done"], ["launch", "done"]]) {
      const rows = lines.filter((line) =>
        new RegExp(`^\\s+${step}\\s+(waiting|working|done|reused|skipped)\\s`).test(line)
      )
      expect(rows, step).toHaveLength(1)
      expect(rows[0]).toMatch(new RegExp(`^\\s+${step}\\s+${state}\\s+\\d+\\.\\d s\\s+\\S`))
    }
    expect(lines.filter((line) => /^\s+lookup-table\s+skipped/.test(line))).toHaveLength(1)
    expect(pane).toMatch(/social:sandbox_alice -> \S+\s+3000 bps \(30%\)/)
    expect(pane).toMatch(/^\s+\d+\.\d s elapsed$/m)
    expect(pane).toMatch(/^Launched \S+: \S+$/m)
    // nothing of the one-line-per-event form
    expect(pane).not.toMatch(/ started$/m)
  })
})
