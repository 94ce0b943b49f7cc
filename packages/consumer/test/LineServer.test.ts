// The helper processes of the consumer test (support/LineServer.ts over typecheck.mjs --serve and
// attw.mjs --serve): one process answers for many projects and tarballs exactly what one process
// per project (typecheck.mjs <project>) or per tarball (the attw command) prints, a file parsed
// once is reported under the path of the project being checked, and a helper that stops
// answering is bounded.
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import * as LineServer from "../support/LineServer.js"
import { remove, run, runOk, temporaryDirectory, workspace } from "../support/Tarballs.js"

const typecheck = fileURLToPath(new URL("../support/typecheck.mjs", import.meta.url))
const attw = fileURLToPath(new URL("../support/attw.mjs", import.meta.url))
const attwCommand = join(workspace, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js")

const started: Array<LineServer.LineServer> = []
const folders: Array<string> = []
const serve = (script: string): LineServer.LineServer => {
  const server = LineServer.start(script, workspace)
  started.push(server)
  return server
}
const folder = async (prefix: string): Promise<string> => {
  const path = await temporaryDirectory(prefix)
  folders.push(path)
  return path
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()))
  await Promise.all(folders.splice(0).map(remove))
})

/** Writes `files` (path → text) under `root`. */
const write = async (root: string, files: Readonly<Record<string, string>>): Promise<void> => {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true })
    await writeFile(join(root, path), text)
  }
}

const tsconfig = JSON.stringify({
  compilerOptions: {
    strict: true,
    module: "node16",
    moduleResolution: "node16",
    target: "es2022",
    lib: ["es2022"],
    types: [],
    skipLibCheck: false,
    noEmit: true
  },
  files: ["check.ts"]
})

/**
 * A project importing `@feeshare/dep`, whose declaration (ours: checked) names a type that does
 * not exist; the same file, byte for byte, in every project.
 */
const project = (check: string): Readonly<Record<string, string>> => ({
  "tsconfig.json": tsconfig,
  "package.json": JSON.stringify({ name: "p", private: true, type: "module" }),
  "check.ts": check,
  "node_modules/@feeshare/dep/package.json": JSON.stringify({
    name: "@feeshare/dep",
    version: "1.0.0",
    type: "module",
    exports: { ".": { types: "./index.d.ts", default: "./index.js" } }
  }),
  "node_modules/@feeshare/dep/index.d.ts": "export declare const x: number\nexport declare const y: Missing\n",
  "node_modules/@feeshare/dep/index.js": "export const x = 1\nexport const y = 2\n"
})

describe("typecheck.mjs --serve", () => {
  it(
    "answers each project as typecheck.mjs <project> prints it, a shared file under each project's own path",
    async () => {
      const root = await folder("feeshare-typecheck-")
      const a = join(root, "a")
      const b = join(root, "nested", "b")
      await write(a, project("import { x } from \"@feeshare/dep\"\nexport const n: number = x\n"))
      await write(b, project("import { x } from \"@feeshare/dep\"\nexport const s: string = x\n"))
      const server = serve(typecheck)
      const [first, second, againFirst] = await Promise.all([
        server.ask({ project: a, configs: ["tsconfig.json"] }),
        server.ask({ project: b, configs: ["tsconfig.json"] }),
        server.ask({ project: a, configs: ["tsconfig.json"] })
      ])
      for (const [path, answer] of [[a, first], [b, second], [a, againFirst]] as const) {
        const alone = await run("node", [typecheck, path, "tsconfig.json"], { cwd: workspace })
        expect(answer).toEqual({ code: alone.code, stdout: alone.stdout, stderr: "" })
      }
      // the declaration's error in both, under each project's own relative path; b's own error too
      expect(first?.stdout).toContain(
        "node_modules/@feeshare/dep/index.d.ts(2,25): error TS2304: Cannot find name 'Missing'."
      )
      expect(first?.stdout).not.toContain("check.ts")
      expect(second?.stdout).toContain("node_modules/@feeshare/dep/index.d.ts(2,25): error TS2304")
      expect(second?.stdout).toContain("check.ts(2,14): error TS2322")
      expect(second?.stdout).not.toContain("..")
    },
    60_000
  )

  it("answers a request it cannot serve with code 2 and the reason, and serves the next", async () => {
    const root = await folder("feeshare-typecheck-")
    await write(root, {
      "tsconfig.json": tsconfig,
      "check.ts": "export const n: number = 1\n"
    })
    const server = serve(typecheck)
    const refused = await server.ask({ project: root, configs: [] })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("\"configs\": [string, ...]")
    expect(await server.ask({ project: root, configs: ["tsconfig.json"] })).toEqual({ code: 0, stdout: "", stderr: "" })
  }, 60_000)
})

describe("attw.mjs --serve", () => {
  it("answers each tarball with the attw command's output and exit code", async () => {
    const root = await folder("feeshare-attw-")
    const manifest = {
      version: "1.0.0",
      type: "module",
      exports: { ".": { types: "./index.d.ts", import: "./index.js" }, "./extra": { import: "./extra.js" } }
    }
    const good = join(root, "good")
    await write(good, {
      "package/package.json": JSON.stringify({ name: "good", ...manifest }),
      "package/index.js": "export const x = 1\n",
      "package/index.d.ts": "export declare const x: number\n",
      "package/extra.js": "export const y = 2\n",
      "package/extra.d.ts": "export declare const y: number\n"
    })
    // `./extra` has no types: an untyped resolution, exit code 1
    const bad = join(root, "bad")
    await write(bad, {
      "package/package.json": JSON.stringify({ name: "bad", ...manifest }),
      "package/index.js": "export const x = 1\n",
      "package/index.d.ts": "export declare const x: number\n",
      "package/extra.js": "export const y = 2\n"
    })
    const tarballs: Array<string> = []
    for (const folder of [good, bad]) {
      await runOk("tar", ["-czf", `${folder}.tgz`, "package"], { cwd: folder })
      tarballs.push(`${folder}.tgz`)
    }
    const server = serve(attw)
    const answers = await Promise.all(
      tarballs.map((tarball) => server.ask({ tarball, includeEntrypoints: ["./extra"] }))
    )
    for (const [index, tarball] of tarballs.entries()) {
      const command = await run("node", [
        attwCommand,
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "ascii",
        "--no-color",
        "--no-emoji",
        "--include-entrypoints",
        "./extra"
      ], { cwd: root })
      expect(answers[index]).toEqual({ code: command.code, stdout: command.stdout, stderr: "" })
    }
    expect(answers.map((answer) => answer.code)).toEqual([0, 1])
    expect(answers[1]?.stdout).toContain("\"bad\"")
  }, 60_000)
})

describe("LineServer", () => {
  it("a helper that does not answer within the timeout is killed, and its requests end with code -1", async () => {
    const root = await folder("feeshare-line-server-")
    const silent = join(root, "silent.mjs")
    // reads its requests and never answers
    await writeFile(silent, "process.stdin.resume()\n")
    const server = serve(silent)
    const startedAt = Date.now()
    const [first, second] = await Promise.all([server.ask({ n: 1 }, 300), server.ask({ n: 2 }, 300)])
    expect(Date.now() - startedAt).toBeLessThan(10_000)
    expect(first).toEqual({ code: -1, stdout: "", stderr: expect.stringContaining("no answer in 300 ms") })
    expect(second?.code).toBe(-1)
    expect((await server.ask({ n: 3 })).code).toBe(-1)
  }, 30_000)
})
