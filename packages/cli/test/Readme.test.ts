/**
 * README.md: the CLI example of the first screen runs as written against a sandbox (with the
 * sandbox's address and demo key in the environment, as `feeshare sandbox` prints them).
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { feeshare, temporaryDirectory } from "./support/spawn.js"

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8")

/** The `npx @feeshare/cli ...` lines of the README's CLI example, as argument lists. */
const commands = (): ReadonlyArray<ReadonlyArray<string>> => {
  const section = readme.slice(readme.indexOf("**CLI**"))
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
  return block.split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("npx @feeshare/cli "))
    .map((line) => line.slice("npx @feeshare/cli ".length).split(/\s+/))
}

describe("README CLI example (spawned)", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 0 }), { excludeTestServices: true, timeout: "60 seconds" })((it) => {
    it.effect("every command exits 0 and prints something", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const listed = commands()
        assert.isAtLeast(listed.length, 3)
        const env = {
          FEESHARE_BASE_URL: info.baseUrl,
          FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
          FEESHARE_CONFIG_DIR: temporaryDirectory("feeshare-readme-")
        }
        for (const args of listed) {
          const outcome = yield* feeshare(args, env)
          assert.strictEqual(outcome.code, 0, `feeshare ${args.join(" ")}: ${outcome.stderr}`)
          assert.notStrictEqual(outcome.stdout.trim(), "", `feeshare ${args.join(" ")} printed nothing`)
        }
      }), { timeout: 60_000 })
  })
})
