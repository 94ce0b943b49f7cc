import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Option } from "effect"
import * as SecretScrubber from "../src/internal/secretScrubber.js"

const key = fc.stringMatching(/^[A-Za-z0-9_\-.~+/]{12,64}$/)
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64")
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url")
const randomCase = (text: string, flips: ReadonlyArray<boolean>) =>
  Array.from(text, (c, i) => (flips[i % flips.length] === true ? c.toUpperCase() : c.toLowerCase())).join("")

describe("SecretScrubber", () => {
  it.prop(
    "the key in any letter case, and its base64 and base64url forms, never survive a scrub",
    [key, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.string(), fc.string()],
    ([secret, flips, before, after]) => {
      const scrubber = SecretScrubber.make(Option.some(secret))
      for (const form of [secret, randomCase(secret, flips), base64(secret), base64url(secret)]) {
        const text = `${before}${form}${after}`
        assert.isTrue(scrubber.appearsIn(text), form)
        const scrubbed = scrubber.scrub(text)
        assert.include(scrubbed, SecretScrubber.placeholder)
        assert.notInclude(scrubbed.toLowerCase(), secret.toLowerCase())
        assert.notInclude(scrubbed, base64(secret).replace(/=+$/, ""))
        assert.notInclude(scrubbed, base64url(secret))
      }
    }
  )

  it.prop("text without the key is left as it is", [key, fc.string()], ([secret, text]) => {
    fc.pre(!text.toLowerCase().includes(secret.toLowerCase()))
    const scrubber = SecretScrubber.make(Option.some(secret))
    if (!scrubber.appearsIn(text)) assert.strictEqual(scrubber.scrub(text), text)
  })

  it("no key, no scrubbing", () => {
    const scrubber = SecretScrubber.make(Option.none())
    assert.isFalse(scrubber.appearsIn("anything"))
    assert.strictEqual(scrubber.scrub("anything"), "anything")
  })
})
