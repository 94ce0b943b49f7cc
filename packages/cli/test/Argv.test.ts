import { assert, describe, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Argv from "../src/Argv.js"

describe("Argv", () => {
  it("moves the global options before the command, keeping their values", () => {
    assert.deepStrictEqual(
      Argv.hoist(["claims", "claim", "--mint", "M", "--keypair", "k.json", "--json", "--base-url=http://x/api/v1"]),
      ["--keypair", "k.json", "--json", "--base-url=http://x/api/v1", "claims", "claim", "--mint", "M"]
    )
  })

  it("moves nothing after --", () => {
    assert.deepStrictEqual(Argv.hoist(["sandbox", "--", "--json"]), ["sandbox", "--", "--json"])
    assert.isFalse(Argv.wantsJson(["sandbox", "--", "--json"]))
  })

  it("finds the command after the global options", () => {
    assert.deepStrictEqual(Argv.commandOf(["--api-key", "k", "--json", "sandbox", "--port", "1"]), {
      name: "sandbox",
      index: 3
    })
    assert.deepStrictEqual(Argv.commandOf(["--rpc-url=http://r", "demo"]), { name: "demo", index: 1 })
    assert.deepStrictEqual(Argv.commandOf(["--json"]), { name: undefined, index: 1 })
  })

  it.prop(
    "hoisting keeps every argument and is idempotent",
    {
      args: FastCheck.array(
        FastCheck.constantFrom("a", "b", "--json", "--keypair", "k", "--mint", "--base-url=u", "--")
      )
    },
    ({ args }) => {
      const once = Argv.hoist(args)
      assert.deepStrictEqual([...once].sort(), [...args].sort())
      assert.deepStrictEqual(Argv.hoist(once), once)
    }
  )
})
