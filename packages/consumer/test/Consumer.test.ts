// The packages as users get them: every published package is packed once (`scripts/pack.mjs`,
// what `npm run pack` runs; each prepack builds dist/), and the tarballs are installed into fresh
// projects outside the workspace, where only plain `node`, `npm` and `tsc` run them. Each
// package is installed alone too (its tarball, the tarballs of its @feeshare dependencies and
// the peers its README's install line names): every export imports, type-checks, and passes
// publint and attw. Sizes are asserted (not timings), so that later work cannot make the facade
// heavy without a failing test.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { spawn } from "node:child_process"
import { cp, mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  entries,
  importEach,
  installAlone,
  installedFolder,
  installProject,
  internalDependencies,
  type Packed,
  readPacked,
  writeTypeCheck
} from "../support/Alone.js"
import * as BrowserBundle from "../support/BrowserBundle.js"
import * as DocExamples from "../support/DocExamples.js"
import * as LineServer from "../support/LineServer.js"
import {
  diskUsage,
  limiter,
  type Outcome,
  packAll,
  publishedPackages,
  remove,
  run,
  runOk,
  temporaryDirectory,
  workspace
} from "../support/Tarballs.js"

const fixtures = fileURLToPath(new URL("../fixtures", import.meta.url))
const readme = fileURLToPath(new URL("../../../README.md", import.meta.url))
/** The sandbox address the README's examples use (`feeshare sandbox --port 8787`). */
const documentedRoot = "http://127.0.0.1:8787"
const MiB = 1024 * 1024
// The workspace's TypeScript, publint and attw are tools, like vitest; the projects hold only what users install.
/** `tsc --noEmit -p` for each project's tsconfigs, every project in one process (see the script for what it checks). */
const typecheck = fileURLToPath(new URL("../support/typecheck.mjs", import.meta.url))
const publint = join(workspace, "node_modules", "publint", "src", "cli.js")
/** `attw <tarball> --profile esm-only`, every tarball in one process (see the script). */
const attw = fileURLToPath(new URL("../support/attw.mjs", import.meta.url))

/** The published packages, known when the tests are collected (their package.json files). */
const names = (await publishedPackages()).map((p) => p.name)

/** The `js`/`ts` blocks of README.md and docs/*.md; the unmarked ones run as written. */
const documentation = await DocExamples.readAll(workspace)
const runnable = documentation.examples.filter((example) => example.info === "")

/**
 * The exports that need an optional peer which the package's install line does not name:
 * importing one without the peer must fail with a module-not-found naming that peer.
 */
const needsOptionalPeer: Readonly<Record<string, string>> = {
  "@feeshare/client/RedisBudget": "ioredis",
  "@feeshare/solana/web3": "@solana/web3.js",
  "feeshare/redis": "ioredis"
}

/**
 * The packages whose declarations name Node's own types (the sandbox's `Server` takes a
 * `node:http` server; `@effect/platform-node`, a dependency of all three, references them):
 * their type-check has `@types/node`, as any TypeScript project on Node has. The others
 * type-check without it (`types: []`).
 */
const withNodeTypes = new Set(["@feeshare/sandbox", "@feeshare/keeper", "@feeshare/mcp"])

/** Extra files a package's strict type-check includes beside `check.ts` (copied from fixtures). */
const typeCheckExtras: Readonly<Record<string, ReadonlyArray<string>>> = { feeshare: ["main.ts"] }

/** What one package installed alone does. */
interface Examined {
  readonly project: string
  readonly internal: ReadonlyArray<string>
  readonly installed: ReadonlyArray<string>
  readonly entries: ReadonlyArray<string>
  readonly imports: Awaited<ReturnType<typeof importEach>>
  readonly typeChecks: ReadonlyArray<{ readonly config: string; readonly outcome: Outcome }>
}

let root: string
let packed: ReadonlyMap<string, Packed>
/** Installs run three at a time, publint two at a time (2 cores); the type-checks and attw in one process each. */
const installs = limiter(3)
const checks = limiter(2)
/** `typecheck.mjs --serve`: every project's type-checks, one after another. */
let typeChecker: LineServer.LineServer
/** `attw.mjs --serve`: every tarball's attw, one after another. */
let attwChecker: LineServer.LineServer
/** Every background task, awaited before the temporary directory is removed. */
const background: Array<Promise<unknown>> = []
const inBackground = <A>(promise: Promise<A>): Promise<A> => {
  background.push(promise.catch(() => undefined))
  return promise
}
/** Package name → its project installed alone, and what it does there. */
const alone = new Map<string, Promise<string>>()
const examined = new Map<string, Promise<Examined>>()
const linted = new Map<string, Promise<{ readonly publint: Outcome; readonly attw: Outcome }>>()
/** `npm exec --package=<the CLI's tarball> -- feeshare --version` in an empty directory (started in beforeAll). */
let npmExec: Promise<Outcome>
/** `feeshare` alone, with the facade's fixtures. */
let facade: string
/** `@feeshare/cli` alone, as `npx @feeshare/cli` gets it. */
let cli: string
/**
 * One project with what the runnable examples' pages say to install, which is also an Effect
 * application (effect, platform-node and the Effect packages beside @feeshare/client and
 * @feeshare/solana, and @types/node for its type-check): its tests await it.
 */
let docs: string
let docsReady: Promise<void>
let sandbox: {
  readonly stop: () => void
  readonly rootUrl: string
  readonly baseUrl: string
  readonly rpcUrl: string
  readonly demoApiKey: string
  /** The seeded demo wallet and its keygen file (the installed sandbox starts seeded). */
  readonly seeded: { readonly demoWallet: string; readonly demoKeypair: string } | null
}

const packedOf = (name: string): Packed => {
  const found = packed.get(name)
  if (found === undefined) throw new Error(`no tarball of ${name}`)
  return found
}
const tarball = (name: string): string => packedOf(name).tarball
const awaited = <A>(map: ReadonlyMap<string, Promise<A>>, name: string): Promise<A> => {
  const found = map.get(name)
  if (found === undefined) throw new Error(`nothing started for ${name}`)
  return found
}
const folderName = (name: string): string => name.replace("@", "").replace("/", "-")

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

/** The package installed alone in its own project, with the fixtures its tests use. */
const installAloneProject = async (name: string): Promise<string> => {
  const project = join(root, "alone", folderName(name))
  // @types/node, where the type-check needs it, is type-only: it cannot stand in for a missing
  // module at run time
  await installs(async () => {
    await mkdir(project, { recursive: true })
    await installAlone(project, name, packed, withNodeTypes.has(name) ? ["@types/node@^20.19.0"] : [])
  })
  if (name === "feeshare") {
    for (const fixture of ["facade", "typescript"]) await cp(join(fixtures, fixture), project, { recursive: true })
  }
  return project
}

const examine = async (name: string, project: string): Promise<Examined> => {
  const manifest = packedOf(name).manifest
  const list = await entries(installedFolder(project, name), manifest)
  const imports = await importEach(project, list)
  const typed = list.filter((entry) => needsOptionalPeer[entry] === undefined)
  const typeChecks: Array<{ config: string; outcome: Outcome }> = []
  if (typed.length > 0) {
    const configs = await writeTypeCheck(project, typed, {
      extraFiles: typeCheckExtras[name] ?? [],
      types: withNodeTypes.has(name) ? ["node"] : []
    })
    const outcome = await typeChecker.ask({ project, configs })
    for (const config of configs) typeChecks.push({ config, outcome })
  }
  const lock: { readonly packages: Readonly<Record<string, { readonly resolved?: string }>> } = JSON.parse(
    await readFile(join(project, "package-lock.json"), "utf8")
  )
  const installed = Object.entries(lock.packages)
    .filter(([path]) => names.some((packageName) => path.endsWith(`node_modules/${packageName}`)))
    .map(([path, entry]) =>
      `${path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)} ${
        entry.resolved?.startsWith("file:") === true ? "tarball" : entry.resolved ?? "?"
      }`
    )
    .sort()
  return { project, internal: internalDependencies(name, packed), installed, entries: list, imports, typeChecks }
}

// publint and attw read the packed tarballs themselves; attw is told the modules behind the
// `./*` pattern (it does not expand patterns), which are the entries of the installed package.
const lint = async (name: string): Promise<{ readonly publint: Outcome; readonly attw: Outcome }> => {
  const path = tarball(name)
  const publintOutcome = await checks(() => run("node", [publint, path], { cwd: root }))
  const project = await awaited(alone, name)
  const subpaths = (await entries(installedFolder(project, name), packedOf(name).manifest))
    .map((entry) => `.${entry.slice(name.length)}`)
    .filter((subpath) => subpath !== ".")
  // --profile esm-only: every package is ESM only ("type": "module", no "require" condition).
  // The profile leaves out the node10 resolution (which cannot read `exports`, so every subpath
  // "fails") and CommonJS importers (`cjs-resolves-to-esm`: attw's TypeScript does not model
  // Node >= 20.19 loading ES modules from require(), which the packages rely on and the CJS
  // test proves). Everything an ESM importer resolves (node16 from ESM, bundler) is checked.
  const attwOutcome = await attwChecker.ask({ tarball: path, includeEntrypoints: subpaths })
  return { publint: publintOutcome, attw: attwOutcome }
}

/**
 * What the Effect application installs: the README's Effect client (`@feeshare/client` with its
 * peers) and `@feeshare/solana`, and `@types/node` for its type-check. The docs' project holds
 * them too (one install instead of two); a package the docs' pages name is installed as written
 * there.
 */
const effectApplication = [
  "@feeshare/client",
  "@feeshare/solana",
  "effect@^3.22.4",
  "@effect/platform@^0.97.2",
  "@effect/platform-node@^0.108.2",
  "@types/node@^20.19.0"
]

/**
 * The project of the documentation's examples: every install command of their pages (the
 * `@feeshare/*` packages and `feeshare` from their tarballs, the rest from the registry as
 * written), the runner, and the Effect application's packages and files.
 */
const installDocs = async (directory: string): Promise<void> => {
  await mkdir(directory)
  const written = DocExamples.projectSpecs(runnable, documentation.texts)
  const named = new Set(written.map(DocExamples.nameOfSpec))
  const specs = [
    ...written,
    ...effectApplication.filter((spec) => !named.has(DocExamples.nameOfSpec(spec)))
  ]
  const local = specs.map(DocExamples.nameOfSpec).filter((name) => packed.has(name))
  await installProject(
    directory,
    specs.map((spec) => packed.has(DocExamples.nameOfSpec(spec)) ? tarball(DocExamples.nameOfSpec(spec)) : spec),
    packed,
    [...new Set(local.flatMap((name) => [name, ...internalDependencies(name, packed)]))],
    // the largest of the projects (web3.js and the Effect packages): on a loaded machine npm
    // has taken more than run's default 5 minutes
    { timeout: 900_000 }
  )
  await cp(join(fixtures, "docs"), directory, { recursive: true })
  await cp(join(fixtures, "effect"), directory, { recursive: true })
}

/** What `run-examples.mjs` reports of one example. */
interface ExampleRun {
  readonly file: string
  readonly output: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
  readonly millis: number
}

const exampleFile = (example: DocExamples.Example): string => `${example.page.replace(/\W+/g, "-")}-${example.line}.mjs`

let examplesRun: Promise<ReadonlyMap<string, ExampleRun>> | undefined
/**
 * Every runnable example, in one `node` process (`run-examples.mjs`), against the sandbox of
 * the installed CLI; once, whichever example's test asks first.
 */
const runExamples = (): Promise<ReadonlyMap<string, ExampleRun>> =>
  examplesRun ??= (async () => {
    await docsReady
    const files: Array<string> = []
    for (const example of runnable) {
      const file = exampleFile(example)
      const code = (await DocExamples.toModule(example)).replaceAll(documentedRoot, sandbox.rootUrl)
      await writeFile(join(docs, file), code)
      files.push(file)
    }
    const { stdout } = await runOk("node", ["run-examples.mjs", ...files], {
      cwd: docs,
      timeout: 600_000,
      env: {
        FEESHARE_BASE_URL: sandbox.baseUrl,
        FEESHARE_RPC_URL: sandbox.rpcUrl,
        FEESHARE_API_KEY: sandbox.demoApiKey
      }
    })
    const runs: ReadonlyArray<ExampleRun> = JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]")
    return new Map(runs.map((run) => [run.file, run]))
  })()

const started = Date.now()
const mark = <A>(label: string, promise: Promise<A>): Promise<A> =>
  promise.then((value) => {
    if (process.env.FEESHARE_CONSUMER_TIMINGS !== undefined) {
      console.log(`${((Date.now() - started) / 1000).toFixed(1)}s ${label}`)
    }
    return value
  })

beforeAll(async () => {
  root = await temporaryDirectory("feeshare-consumer-")
  const tarballs = await mark("packed", packAll(join(root, "tarballs")))
  packed = new Map(
    await Promise.all([...tarballs].map(async ([name, path]) => [name, await readPacked(name, path)] as const))
  )
  typeChecker = LineServer.start(typecheck, workspace)
  attwChecker = LineServer.start(attw, workspace)
  // the longest chains first (npm installs three at a time): the docs' project (the largest
  // install; the examples and the Effect application's tests wait on it), the CLI (the sandbox
  // runs from it), the facade; then the packages with the most to type-check, whose checks (one
  // after another in one process) begin as soon as each is installed
  docs = join(root, "docs")
  docsReady = inBackground(mark("docs installed", installs(() => installDocs(docs))))
  const first = ["@feeshare/cli", "feeshare", "@feeshare/keeper", "@feeshare/mcp", "@feeshare/sandbox"]
  const order = [...first.filter((name) => names.includes(name)), ...names.filter((name) => !first.includes(name))]
  for (const name of order) alone.set(name, inBackground(mark(`installed ${name}`, installAloneProject(name))))
  // npx installs the CLI from its tarball too: in the installs' queue, its test awaits it
  npmExec = inBackground(mark(
    "npm exec",
    installs(async () => {
      const empty = await temporaryDirectory("feeshare-npx-")
      const outcome = await run("npm", [
        "exec",
        "--yes",
        "--prefer-offline",
        `--package=${tarball("@feeshare/cli")}`,
        "--",
        "feeshare",
        "--version"
      ], { cwd: empty })
      await remove(empty)
      return outcome
    })
  ))
  for (const name of order) {
    examined.set(
      name,
      inBackground(mark(`examined ${name}`, awaited(alone, name).then((project) => examine(name, project))))
    )
    linted.set(name, inBackground(mark(`linted ${name}`, lint(name))))
  }
  ;[cli, facade] = await Promise.all([awaited(alone, "@feeshare/cli"), awaited(alone, "feeshare")])
  sandbox = await mark("sandbox", startSandbox(cli))
})

afterAll(async () => {
  sandbox?.stop()
  await Promise.all(background)
  await Promise.all([typeChecker?.stop(), attwChecker?.stop()])
  if (root !== undefined) await remove(root)
})

describe("tarballs", () => {
  it("every published package is packed, with dist/ and without sources, tests, benches or tsconfig", async () => {
    const names = (await publishedPackages()).map((p) => p.name).sort()
    expect(names).toHaveLength(8)
    expect([...packed.keys()].sort()).toEqual(names)
    for (const [name, { tarball: path }] of packed) {
      const { stdout } = await runOk("tar", ["-tzf", path], { cwd: root })
      const files = stdout.trim().split("\n")
      expect(files, name).toContain("package/package.json")
      expect(files, name).toContain("package/README.md")
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

  it("plain node ESM: logs in, launches a token from nothing, reads pools and executes a claim plan on a sandbox started from the installed CLI", async () => {
    const { stdout } = await runOk("node", ["claim.mjs", sandbox.rootUrl, sandbox.baseUrl, sandbox.rpcUrl], {
      cwd: facade
    })
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "")
    expect(result.signup).toBe(true)
    expect(result.keyPrinted).toBe("<redacted>")
    // launch.token from the tarball: every step, the handle in the split, a launch signature
    expect(result.launch.steps).toEqual(["handles", "token-info", "config", "launch"])
    expect(result.launch.split[1]).toEqual(["social:sandbox_alice", 3_000])
    expect(result.launch.signature).toBe("string")
    expect(result.refused).toEqual({ field: "tokenMint", tag: "InvalidRequest" })
    expect(result.pools).toBeGreaterThanOrEqual(1)
    expect(BigInt(result.claimable)).toBeGreaterThan(0n)
    expect(result.firstReadiness).toBe("setup_required")
    expect(result.stages).toContain("claim")
    expect(result.completed).toBe("Completed")
    expect(result.claimed).toBe(result.claimable)
    expect(result.left).toBe(0)
  })

  it("errors keep their class names, and under --enable-source-maps a stack names the package's src/ files; wallets round-trip", async () => {
    const { stdout } = await runOk("node", ["--enable-source-maps", "names.mjs"], { cwd: facade })
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "")
    expect(result.names).toEqual({
      BadRequest: "BadRequest",
      RateLimited: "RateLimited",
      InvalidRequest: "InvalidRequest",
      InvalidKey: "InvalidKey",
      FeeShare: "FeeShare"
    })
    expect(result.constructorName).toBe("BadRequest")
    expect(result.refused).toMatchObject({ constructorName: "InvalidRequest", tag: "InvalidRequest" })
    // e.g. "at fromCause (/…/node_modules/feeshare/src/Rejection.ts:66:34)"
    expect(result.refused.stack).toMatch(/node_modules\/feeshare\/src\/FeeShare\.ts:\d+:\d+\)/)
    expect(result.wallet).toEqual({
      mode: "600",
      overwrite: { tag: "InvalidKey", reason: "file_exists" },
      sameAddress: true,
      printed: "<redacted>"
    })
  })

  it("CommonJS: require(\"feeshare\") works on this Node", async () => {
    const { stdout } = await runOk("node", ["require.cjs"], { cwd: facade })
    expect(JSON.parse(stdout)).toEqual({ FeeShare: "function", InvalidRequest: "function" })
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

  // 253.4 kB before the facade's build imported Effect's modules instead of its barrels
  // (about 170 kB after: docs/benchmarks.md)
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
    await docsReady
    const [code] = await blocks("js")
    expect(code).toContain("@feeshare/client")
    await writeFile(join(docs, "effect.mjs"), code ?? "")
    const { stdout } = await runOk("node", ["effect.mjs"], { cwd: docs })
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
    const { code, stdout, stderr } = await npmExec
    expect(code, stderr).toBe(0)
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

describe("the documentation's examples, as written, from the installed packages under plain node", () => {
  it("every js/ts block of README.md and docs/*.md runs below or is marked not runnable with its reason", async () => {
    const marked = documentation.examples.filter((example) => example.info !== "")
    const kinds = DocExamples.markKinds.map((kind) =>
      `${kind} ${marked.filter((example) => example.mark?.kind === kind).length}`
    )
    const node = (await runOk("node", ["--version"], { cwd: workspace })).stdout.trim()
    console.log(
      `documentation examples: ${documentation.examples.length}; ${runnable.length} run under node ${node}, ` +
        `${marked.length} marked not runnable (${kinds.join(", ")})`
    )
    expect(documentation.misspelled).toEqual([])
    expect(runnable.length).toBeGreaterThanOrEqual(10)
    // a mark names its kind and says why: "```ts fragment: <reason>"
    for (const example of marked) {
      expect(example.mark, `${example.page}:${example.line} \`\`\`${example.language} ${example.info}`).not.toBeNull()
      expect(example.mark?.reason.length ?? 0).toBeGreaterThanOrEqual(10)
    }
  })

  it("every package an example imports is one its page says to install", () => {
    for (const example of runnable) {
      const declared = DocExamples.declaredPackages(documentation.texts.get(example.page) ?? "")
      const undeclared = DocExamples.importedPackages(example.code).filter((name) => !declared.has(name))
      expect(undeclared, `${example.page}:${example.line} (${example.section})`).toEqual([])
    }
  })

  it.each(runnable.map((example) => ({ ...example, where: `${example.page}:${example.line}` })))(
    "$where ($section) runs to its end, printing, without an error",
    async (example) => {
      const outcome = (await runExamples()).get(exampleFile(example))
      expect(outcome?.errors).toEqual([])
      expect(outcome?.output.length ?? 0).toBeGreaterThan(0)
      expect(outcome?.output.join("\n")).not.toContain(sandbox.demoApiKey)
    },
    600_000
  )
})

describe("an Effect application with its own effect", () => {
  // the last tests on the sandbox: it stops here rather than tick while the checks of the
  // packages installed alone finish
  afterAll(() => sandbox?.stop())

  it("one copy of effect, @effect/platform and @solana/kit", async () => {
    await docsReady
    const shared = ["effect", "@effect/platform", "@solana/kit"]
    // one `npm ls` for the three: it prints the folder of every copy of each
    const { stdout } = await run("npm", ["ls", ...shared, "--all", "--parseable"], { cwd: docs })
    const folders = new Set(stdout.trim().split("\n").filter((line) => line.length > 0))
    for (const name of shared) {
      expect([...folders].filter((folder) => folder.endsWith(`/node_modules/${name}`)), name).toHaveLength(1)
    }
  })

  it("the layers compose and answer, and the program type-checks against the installed declarations", async () => {
    await docsReady
    // `tsc --noEmit -p tsconfig.json` (skipLibCheck: what the script leaves out, tsc leaves out too)
    const checked = await typeChecker.ask({ project: docs, configs: ["tsconfig.json"] })
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.code).toBe(0)
    const { stdout } = await runOk("node", ["program.mjs", sandbox.baseUrl, sandbox.rpcUrl], { cwd: docs })
    expect(JSON.parse(stdout)).toEqual({
      signup: true,
      user: true,
      pools: expect.any(Number),
      height: true,
      keyPrinted: "<redacted>",
      keyIsRedacted: true
    })
  })
})

describe.each(names)("%s installed alone, as its README says", (name) => {
  const timeout = 600_000

  it(
    "installs from its tarball, the tarballs of its @feeshare dependencies and the peers of its install line",
    async () => {
      const { installLine, peers } = packedOf(name)
      expect(installLine).toMatch(new RegExp(`^npm install (-[gD] )?${name.replace("/", "\\/")}( |$)`))
      for (const peer of peers) expect(peer, installLine).toMatch(/^(@[\w-]+\/)?[\w.-]+@\^\d/)
      const { internal, installed } = await awaited(examined, name)
      // every packed package in the tree comes from its tarball, and only the ones it depends on
      expect(installed).toEqual([name, ...internal].sort().map((packageName) => `${packageName} tarball`))
    },
    timeout
  )

  it(
    "every export imports under plain node; an export that needs a missing optional peer fails naming it",
    async () => {
      const { entries: list, imports } = await awaited(examined, name)
      if (name === "@feeshare/cli") expect(list).toEqual([]) // a command: no module is exported
      else expect(list).toContain(name)
      const expected = Object.fromEntries(list.map((entry) => {
        const peer = needsOptionalPeer[entry]
        return [
          entry,
          peer === undefined ? "ok" : { code: "ERR_MODULE_NOT_FOUND", message: expect.stringContaining(`'${peer}'`) }
        ]
      }))
      expect(imports).toEqual(expected)
    },
    timeout
  )

  it(
    "a strict TypeScript project (skipLibCheck false) type-checks every export, with moduleResolution node16 and bundler",
    async () => {
      const { entries: list, typeChecks } = await awaited(examined, name)
      expect(typeChecks.map(({ config }) => config)).toEqual(
        list.length === 0 ? [] : ["tsconfig.check-node16.json", "tsconfig.check-bundler.json"]
      )
      for (const { outcome } of typeChecks) {
        expect(outcome.stdout + outcome.stderr).toBe("")
        expect(outcome.code).toBe(0)
      }
    },
    timeout
  )

  it("publint and attw (profile esm-only) report no error on the tarball", async () => {
    const { publint: publintOutcome, attw: attwOutcome } = await awaited(linted, name)
    expect(publintOutcome.code, publintOutcome.stdout + publintOutcome.stderr).toBe(0)
    expect(publintOutcome.stdout).not.toMatch(/Errors:/)
    // the one warning left: the workspace-only `@feeshare/source` condition (tests and tsx read
    // the sources through it) points at src/, which is not packed; no resolver a user runs
    // selects that condition
    const warnings = publintOutcome.stdout.split("\n").filter((line) => /^\d+\. /.test(line))
    for (const warning of warnings) expect(warning).toMatch(/\["@feeshare\/source"\] is \.\/src\//)
    expect(attwOutcome.code, attwOutcome.stdout + attwOutcome.stderr).toBe(0)
  }, timeout)

  if (name === "@feeshare/sandbox") {
    it("the sandbox's own bin: feeshare-sandbox --help", async () => {
      const project = await awaited(alone, name)
      const { stdout } = await runOk(join(project, "node_modules", ".bin", "feeshare-sandbox"), ["--help"], {
        cwd: project
      })
      expect(stdout).toContain("--port")
    }, timeout)
  }
})
