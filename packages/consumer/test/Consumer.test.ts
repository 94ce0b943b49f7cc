// The packages as users get them: every published package is packed (its prepack builds
// dist/), and the tarballs are installed into fresh projects outside the workspace, where only
// plain `node`, `npm` and `tsc` run them. Sizes are asserted (not timings), so that later work
// cannot make the facade heavy without a failing test.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { spawn } from "node:child_process"
import { cp, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as BrowserBundle from "../support/BrowserBundle.js"
import {
  diskUsage,
  makeProject,
  packAll,
  publishedPackages,
  remove,
  run,
  runOk,
  temporaryDirectory
} from "../support/Tarballs.js"

const fixtures = fileURLToPath(new URL("../fixtures", import.meta.url))
const readme = fileURLToPath(new URL("../../../README.md", import.meta.url))
/** The sandbox address the README's examples use (`feeshare sandbox --port 8787`). */
const documentedRoot = "http://127.0.0.1:8787"
const MiB = 1024 * 1024

let root: string
let tarballs: ReadonlyMap<string, string>
/** `feeshare` alone (plus TypeScript to type-check a consumer). */
let facade: string
/** `@feeshare/cli` alone, as `npx @feeshare/cli` gets it. */
let cli: string
/** An Effect application: effect, platform-node and the Effect packages. */
let effect: string
let sandbox: {
  readonly stop: () => void
  readonly rootUrl: string
  readonly baseUrl: string
  readonly rpcUrl: string
  readonly demoApiKey: string
  /** The seeded demo wallet and its keygen file (the installed sandbox starts seeded). */
  readonly seeded: { readonly demoWallet: string; readonly demoKeypair: string } | null
}

const tarball = (name: string): string => {
  const path = tarballs.get(name)
  if (path === undefined) throw new Error(`no tarball of ${name}`)
  return path
}

/** `feeshare sandbox --json` from the installed CLI, until its first line (the URLs). */
const startSandbox = (cwd: string): Promise<typeof sandbox> =>
  new Promise((resolve, reject) => {
    const child = spawn(join(cwd, "node_modules", ".bin", "feeshare"), [
      "sandbox",
      "--json",
      "--port",
      "0",
      "--slot-millis",
      "50"
    ], {
      cwd,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const line = output.split("\n")[0]
      if (output.includes("\n") && line !== undefined) {
        const info: Omit<typeof sandbox, "stop"> = JSON.parse(line)
        resolve({ ...info, stop: () => child.kill("SIGINT") })
      }
    })
    child.on("exit", (code) =>
      reject(new Error(`the installed sandbox exited (${code}) before printing its URLs: ${output}`)))
  })

beforeAll(async () => {
  root = await temporaryDirectory("feeshare-consumer-")
  const packed = join(root, "tarballs")
  await runOk("mkdir", ["-p", packed], { cwd: root })
  tarballs = await packAll(packed)
  facade = join(root, "facade")
  cli = join(root, "cli")
  effect = join(root, "effect")
  for (const dir of [facade, cli, effect]) await runOk("mkdir", ["-p", dir], { cwd: root })
  await makeProject(facade, [tarball("feeshare"), "typescript@5.9.3"])
  await makeProject(cli, [tarball("@feeshare/cli")])
  await makeProject(effect, [
    tarball("@feeshare/domain"),
    tarball("@feeshare/client"),
    tarball("@feeshare/solana"),
    tarball("@feeshare/sandbox"),
    "effect@^3.22.4",
    "@effect/platform@^0.97.2",
    "@effect/platform-node@^0.108.2",
    "@types/node@^20.19.0",
    "typescript@5.9.3"
  ])
  for (const [fixture, project] of [["facade", facade], ["typescript", facade], ["effect", effect]] as const) {
    await cp(join(fixtures, fixture), project, { recursive: true })
  }
  sandbox = await startSandbox(cli)
})

afterAll(async () => {
  sandbox?.stop()
  if (root !== undefined) await remove(root)
})

describe("tarballs", () => {
  it("every published package is packed, with dist/ and without sources, tests, benches or tsconfig", async () => {
    const names = (await publishedPackages()).map((p) => p.name).sort()
    expect([...tarballs.keys()].sort()).toEqual(names)
    for (const [name, path] of tarballs) {
      const { stdout } = await runOk("tar", ["-tzf", path], { cwd: root })
      const files = stdout.trim().split("\n")
      expect(files, name).toContain("package/package.json")
      expect(files.some((file) => file.startsWith("package/dist/")), name).toBe(true)
      for (const file of files) {
        expect(file, name).not.toMatch(/^package\/(src|test|bench|scripts|web)\/|tsconfig|\.tsbuildinfo$|vitest/)
      }
      // the sandbox explorer's page, built when packed, in both packages that serve it
      if (name === "@feeshare/sandbox" || name === "@feeshare/cli") {
        expect(files, name).toContain("package/dist/explorer/index.html")
        expect(files, name).toContain("package/dist/explorer/app.js")
      }
    }
  })
})

describe("feeshare (the Promise facade) in a plain Node project", () => {
  it("installs light: no dependencies, at most 10 MiB on disk", async () => {
    const installed = await readFile(join(facade, "node_modules", "feeshare", "package.json"), "utf8")
    expect(JSON.parse(installed).dependencies ?? {}).toEqual({})
    const usage = await diskUsage(join(facade, "node_modules", "feeshare"))
    expect(usage).toBeLessThanOrEqual(10 * MiB)
  })

  it("plain node ESM: logs in, reads pools and executes a claim plan on a sandbox started from the installed CLI", async () => {
    const { stdout } = await runOk("node", ["claim.mjs", sandbox.rootUrl, sandbox.baseUrl, sandbox.rpcUrl], {
      cwd: facade
    })
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "")
    expect(result.signup).toBe(true)
    expect(result.keyPrinted).toBe("<redacted>")
    expect(result.refused).toEqual({ field: "tokenMint", tag: "InvalidRequest" })
    expect(result.pools).toBeGreaterThanOrEqual(1)
    expect(BigInt(result.claimable)).toBeGreaterThan(0n)
    expect(result.firstReadiness).toBe("setup_required")
    expect(result.stages).toContain("claim")
    expect(result.completed).toBe("Completed")
    expect(result.claimed).toBe(result.claimable)
    expect(result.left).toBe(0)
  })

  it("feeshare/redis needs its optional peer: without ioredis installed only that entry fails to load", async () => {
    const script = "import(\"feeshare/redis\").then(() => console.log(\"loaded\"), (e) => console.log(e.code, " +
      "String(e.message).includes(\"ioredis\")))"
    const { stdout } = await runOk("node", ["--input-type=module", "-e", script], { cwd: facade })
    expect(stdout.trim()).toBe("ERR_MODULE_NOT_FOUND true")
  })

  it("CommonJS: require(\"feeshare\") works on this Node", async () => {
    const { stdout } = await runOk("node", ["require.cjs"], { cwd: facade })
    expect(JSON.parse(stdout)).toEqual({ FeeShare: "function", InvalidRequest: "function" })
  })

  it("a strict TypeScript consumer type-checks with moduleResolution node16 and bundler, without @types/node", async () => {
    for (const config of ["tsconfig.node16.json", "tsconfig.bundler.json"]) {
      const outcome = await run(join(facade, "node_modules", ".bin", "tsc"), ["-p", config], { cwd: facade })
      expect(`${config}: ${outcome.stdout}${outcome.stderr}`).toBe(`${config}: `)
      expect(outcome.code).toBe(0)
    }
  })

  it("the browser build (as bundlers select it) uses the given fetch and refuses key files", async () => {
    const { stdout } = await runOk("node", ["--conditions=browser", "browser-build.mjs"], { cwd: facade })
    expect(JSON.parse(stdout)).toEqual({
      pong: { message: "pong" },
      seen: ["https://api.example.invalid/ping"],
      refusal: {
        invalidKey: true,
        message: "/nonexistent/wallet.json: key files can be read only on Node; pass the secret key bytes or a signer"
      }
    })
  })

  it("bundles for browsers (no node: built-ins), within 250 kB minified and gzipped", async () => {
    const bundle = await BrowserBundle.build(facade)
    expect(bundle.inputs.filter((input) => input.startsWith("node:") || input.includes("(disabled)"))).toEqual([])
    expect(bundle.inputs.some((input) => input.includes("node_modules/feeshare/dist/browser/"))).toBe(true)
    expect(bundle.gzipped).toBeLessThanOrEqual(250 * 1000)
  })
})

describe("the README's examples, as written, from the installed packages", () => {
  const blocks = async (language: string) =>
    [...(await readFile(readme, "utf8")).matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))]
      .map((match) => (match[1] ?? "").replaceAll(documentedRoot, sandbox.rootUrl))

  it("Effect: effect.mjs with plain node", async () => {
    const [code] = await blocks("js")
    expect(code).toContain("@feeshare/client")
    await writeFile(join(effect, "effect.mjs"), code ?? "")
    const { stdout } = await runOk("node", ["effect.mjs"], { cwd: effect })
    const [first, second] = stdout.trim().split("\n")
    expect(first).toMatch(/^new key key_\w+ signup: true$/)
    expect(second).toMatch(/^user [\w-]+ pools \d+ key <redacted>$/)
  })

  it("Promise: promise.mjs with plain node and the demo key", async () => {
    const [, code] = await blocks("js")
    expect(code).toContain("from \"feeshare\"")
    await writeFile(join(facade, "promise.mjs"), code ?? "")
    const { stdout } = await runOk("node", ["promise.mjs"], {
      cwd: facade,
      env: { FEESHARE_API_KEY: sandbox.demoApiKey }
    })
    const lines = stdout.trim().split("\n")
    expect(lines[0]).toMatch(/pong/)
    expect(lines[1]).toMatch(/^\d+ pools;/)
    expect(lines.at(-1)).toBe("tokenMint must be a base58 public key of 32 bytes")
  })

  it("CLI: every npx @feeshare/cli line, through the installed bin", async () => {
    const block = (await blocks("sh")).find((b) => b.includes("npx @feeshare/cli limits"))
    const lines = (block ?? "").split("\n").map((line) => line.trim()).filter((line) =>
      line.startsWith("npx @feeshare/cli ")
    )
    expect(lines.length).toBeGreaterThanOrEqual(3)
    for (const line of lines) {
      const args = line.slice("npx @feeshare/cli ".length).split(/\s+/)
      const outcome = await run(join(cli, "node_modules", ".bin", "feeshare"), args, {
        cwd: cli,
        env: {
          FEESHARE_BASE_URL: sandbox.baseUrl,
          FEESHARE_API_KEY: sandbox.demoApiKey,
          FEESHARE_CONFIG_DIR: join(cli, "config")
        }
      })
      expect(`${line}: ${outcome.code} ${outcome.stderr}`).toBe(`${line}: 0 `)
      expect(outcome.stdout.trim()).not.toBe("")
    }
  })
})

describe("@feeshare/cli as npx gets it", () => {
  it("feeshare mcp from the installed bin: the official MCP client lists the tools and reads through it", async () => {
    const client = new Client({ name: "feeshare-consumer", version: "0.0.0" })
    await client.connect(
      new StdioClientTransport({
        command: join(cli, "node_modules", ".bin", "feeshare"),
        args: ["mcp", "--read-only"],
        cwd: cli,
        env: {
          FEESHARE_BASE_URL: sandbox.baseUrl,
          FEESHARE_API_KEY: sandbox.demoApiKey,
          FEESHARE_RPC_URL: sandbox.rpcUrl
        },
        stderr: "pipe"
      })
    )
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["positions", "quote", "me", "prepare_claim", "execute"])
      )
      const me = await client.callTool({ name: "me", arguments: {} })
      expect(me.isError).toBe(false)
      const write = await client.callTool({ name: "prepare_partner_claim", arguments: {} })
      expect(write.isError).toBe(true)
    } finally {
      await client.close()
    }
  })

  it("feeshare --help from the installed bin", async () => {
    const { stdout } = await runOk(join(cli, "node_modules", ".bin", "feeshare"), ["--help"], { cwd: cli })
    expect(stdout).toContain("feeshare")
    expect(stdout).toContain("sandbox")
  })

  it("npm exec --package=<tarball> -- feeshare --version, in a directory with nothing installed", async () => {
    const empty = await temporaryDirectory("feeshare-npx-")
    const { stdout } = await runOk("npm", [
      "exec",
      "--yes",
      "--prefer-offline",
      `--package=${tarball("@feeshare/cli")}`,
      "--",
      "feeshare",
      "--version"
    ], {
      cwd: empty
    })
    await remove(empty)
    expect(stdout.trim()).toBe(
      JSON.parse(await readFile(join(cli, "node_modules", "@feeshare", "cli", "package.json"), "utf8")).version
    )
  })

  it("--redis-url loads ioredis (a dependency) from the installed package: Redis unreachable is exit 7", async () => {
    const outcome = await run(
      join(cli, "node_modules", ".bin", "feeshare"),
      ["pools", "--redis-url", "redis://:pw-consumer@127.0.0.1:1/0", "--budget-key", "consumer"],
      { cwd: cli, env: { FEESHARE_BASE_URL: sandbox.baseUrl, FEESHARE_API_KEY: sandbox.demoApiKey } }
    )
    expect(outcome.stderr).toContain("BudgetUnavailable")
    expect(outcome.stderr).not.toContain("pw-consumer")
    expect(outcome.code).toBe(7)
  })

  it("feeshare keeper once, from the installed package (libsql loaded on demand): claims the seeded demo wallet's fees", async () => {
    const seeded = sandbox.seeded
    expect(seeded).not.toBeNull()
    if (seeded === null) return
    const dir = await temporaryDirectory("feeshare-keeper-consumer-")
    const config = join(dir, "keeper.json")
    await writeFile(
      config,
      JSON.stringify({ wallets: [{ keypair: seeded.demoKeypair }], database: join(dir, "keeper.db") })
    )
    const env = {
      FEESHARE_BASE_URL: sandbox.baseUrl,
      FEESHARE_API_KEY: sandbox.demoApiKey,
      FEESHARE_RPC_URL: sandbox.rpcUrl
    }
    const bin = join(cli, "node_modules", ".bin", "feeshare")
    const once = await run(bin, ["keeper", "once", "--config", config, "--json"], { cwd: cli, env })
    expect(once.code, once.stderr).toBe(0)
    const positions = await run(bin, ["claims", "positions", "--wallet", seeded.demoWallet, "--json"], {
      cwd: cli,
      env
    })
    expect(JSON.parse(positions.stdout)).toEqual([])
    const status = await run(bin, ["keeper", "status", "--config", config, "--json"], { cwd: cli, env })
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toContain(seeded.demoWallet)
    expect(once.stdout + once.stderr + status.stdout).not.toContain(sandbox.demoApiKey)
    await remove(dir)
  })

  it("the installed package holds only dist/ and package.json, and nothing is written into it at run time", async () => {
    const installed = join(cli, "node_modules", "@feeshare", "cli")
    const before = (await runOk("find", [installed, "-type", "f"], { cwd: cli })).stdout
    await runOk(join(cli, "node_modules", ".bin", "feeshare"), ["--version"], { cwd: cli })
    expect((await runOk("find", [installed, "-type", "f"], { cwd: cli })).stdout).toBe(before)
  })
})

describe("an Effect application with its own effect", () => {
  it("one copy of effect, @effect/platform and @solana/kit", async () => {
    for (const name of ["effect", "@effect/platform", "@solana/kit"]) {
      const { stdout } = await run("npm", ["ls", name, "--all", "--parseable"], { cwd: effect })
      const copies = new Set(stdout.trim().split("\n").filter((line) => line.length > 0))
      expect([...copies], name).toHaveLength(1)
    }
  })

  it("the layers compose and answer, and the program type-checks against the installed declarations", async () => {
    const checked = await run(join(effect, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], { cwd: effect })
    expect(checked.stdout + checked.stderr).toBe("")
    const { stdout } = await runOk("node", ["program.mjs", sandbox.baseUrl, sandbox.rpcUrl], { cwd: effect })
    expect(JSON.parse(stdout)).toEqual({
      signup: true,
      user: true,
      pools: expect.any(Number),
      height: true,
      keyPrinted: "<redacted>",
      keyIsRedacted: true
    })
  })

  it("the sandbox has its own bin: feeshare-sandbox --help", async () => {
    const { stdout } = await runOk(join(effect, "node_modules", ".bin", "feeshare-sandbox"), ["--help"], {
      cwd: effect
    })
    expect(stdout).toContain("--port")
  })
})
