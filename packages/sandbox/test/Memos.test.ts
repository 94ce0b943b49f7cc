/** The sandbox's memos: the kind written is the kind the explorer reads back. */
import { assert, describe, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { memoKind, memoText } from "../src/internal/model/programs.js"

describe("memos", () => {
  it.prop(
    "airdrop and set-up memos read back as their kind",
    [FastCheck.nat()],
    ([n]) => memoKind(memoText.airdrop(n)) === "airdrop" && memoKind(memoText.setup(n)) === "setup"
  )

  it.prop(
    "a service memo reads back as its kind, whatever it is about",
    [FastCheck.constantFrom("launch", "update-config", "partner-claim"), FastCheck.option(FastCheck.string())],
    ([kind, detail]) => memoKind(memoText.service(kind, detail ?? undefined)) === kind
  )

  it("other text names no kind", () => {
    for (const text of ["", "hello", "sandbox", "feeshare:", "sandbox airdrop"]) {
      assert.isUndefined(memoKind(text), text)
    }
  })
})
