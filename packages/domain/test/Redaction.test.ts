import { assert, describe, it } from "@effect/vitest"
import * as Redaction from "../src/Redaction.js"

describe("Redaction", () => {
  it("a URL prints without its userinfo, and without secret query values", () => {
    assert.strictEqual(Redaction.url("http://u:KEY@127.0.0.1:8787/api/v1"), "http://127.0.0.1:8787/api/v1")
    assert.strictEqual(Redaction.url("redis://:p%40ss@redis.internal:6379/0"), "redis://redis.internal:6379/0")
    assert.strictEqual(
      Redaction.text("could not reach https://user@host.example/x?token=abc&page=2 and wss://a:b@h/y"),
      "could not reach https://host.example/x?token=[redacted]&page=2 and wss://h/y"
    )
    assert.strictEqual(
      Redaction.url("http://127.0.0.1:1/?api-key=s3cr3t#x"),
      "http://127.0.0.1:1/?api-key=[redacted]#x"
    )
    // an e-mail address is not a URL's userinfo
    assert.strictEqual(Redaction.text("mail ops@example.com"), "mail ops@example.com")
  })

  it("known secrets are replaced in any letter case", () => {
    assert.strictEqual(
      Redaction.text("key fs_sbx_AbC123 and FS_SBX_ABC123", ["fs_sbx_AbC123"]),
      "key [redacted] and [redacted]"
    )
  })

  it("control characters are stripped: ESC, BEL, CR, DEL and C1; tab and line feed stay", () => {
    assert.strictEqual(Redaction.stripControl("\u001b[2Jboom\u0007\r\u007f\u009b31m\tok\n"), "[2Jboom31m\tok\n")
    assert.strictEqual(Redaction.line("a\u001b]0;title\u0007\nb http://x:y@h/"), "a]0;title b http://h/")
  })
})
