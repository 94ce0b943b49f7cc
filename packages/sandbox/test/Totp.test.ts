import { assert, describe, it } from "@effect/vitest"
import { FastCheck } from "effect"
import * as Totp from "../src/Totp.js"

// RFC 6238 appendix B (SHA-1), truncated to 6 digits
const secret = new TextEncoder().encode("12345678901234567890")
const vectors: ReadonlyArray<readonly [number, string]> = [
  [59, "287082"],
  [1_111_111_109, "081804"],
  [1_111_111_111, "050471"],
  [1_234_567_890, "005924"],
  [2_000_000_000, "279037"],
  [20_000_000_000, "353130"]
]

describe("Totp", () => {
  it("matches the RFC 6238 SHA-1 test vectors", () => {
    for (const [seconds, code] of vectors) assert.strictEqual(Totp.generate(secret, seconds * 1000), code)
    assert.strictEqual(Totp.generate(secret, 59_000, { digits: 8 }), "94287082")
  })

  it("accepts one step of drift either side, not two", () => {
    const now = 1_234_567_890_000
    const code = Totp.generate(secret, now)
    assert.isTrue(Totp.verify(secret, code, now + 30_000))
    assert.isTrue(Totp.verify(secret, code, now - 30_000))
    assert.isFalse(Totp.verify(secret, code, now + 90_000))
  })

  it.prop("base32 round-trips", { bytes: FastCheck.uint8Array({ maxLength: 64 }) }, ({ bytes }) => {
    const text = Totp.toBase32(bytes)
    assert.match(text, /^[A-Z2-7]*$/)
    assert.deepStrictEqual(Totp.fromBase32(text), bytes)
  })

  it("verifies at the very start of the epoch (no negative step)", () => {
    assert.isTrue(Totp.verify(secret, Totp.generate(secret, 0), 0))
  })

  it("refuses text outside the base32 alphabet", () => {
    assert.isUndefined(Totp.fromBase32("ABC1"))
  })
})
