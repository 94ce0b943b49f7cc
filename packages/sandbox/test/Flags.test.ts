import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import * as Flags from "../src/Flags.js"
import * as Options from "../src/Options.js"

describe("Flags", () => {
  it("no flags: the defaults", () => {
    assert.deepStrictEqual(Flags.parse([]), Either.right({ _tag: "Run" as const, options: Options.defaults }))
  })

  it("every option has a flag", () => {
    const parsed = Flags.parse([
      "--port=4000",
      "--host=0.0.0.0",
      "--seed=s",
      "--rate-limit=10",
      "--rate-window-millis=1000",
      "--agent-auth-limit=2",
      "--agent-auth-window-millis=500",
      "--slot-millis=50",
      "--latency-millis=5",
      "--error-rate=500=0.25",
      "--error-rate",
      "503=0.1",
      "--burst-429=3",
      "--drop-rate=0.5",
      "--blockhash-validity=20",
      "--trust-proxy",
      "--max-body-bytes=2048",
      "--max-header-bytes=4096",
      "--headers-timeout-millis=300",
      "--request-timeout-millis=900",
      "--admin-token=0123456789abcdef0123"
    ])
    const expected: Options.Options = {
      port: 4000,
      host: "0.0.0.0",
      seed: "s",
      rateLimit: 10,
      rateWindowMillis: 1000,
      agentAuthLimit: 2,
      agentAuthWindowMillis: 500,
      slotMillis: 50,
      latencyMillis: 5,
      errorRates: { 500: 0.25, 503: 0.1 },
      burst429: 3,
      dropRate: 0.5,
      blockhashValidity: 20,
      trustProxy: true,
      maxBodyBytes: 2048,
      maxHeaderBytes: 4096,
      headersTimeoutMillis: 300,
      requestTimeoutMillis: 900,
      adminToken: "0123456789abcdef0123"
    }
    assert.deepStrictEqual(parsed, Either.right({ _tag: "Run" as const, options: expected }))
    assert.deepStrictEqual(Object.keys(expected).sort(), Object.keys(Options.defaults).sort())
  })

  it("a bad value names the flag and the rule", () => {
    assert.deepStrictEqual(Flags.parse(["--port=70000"]), Either.left(`--port must be an integer from 0 to 65535, got "70000"`))
    assert.deepStrictEqual(Flags.parse(["--drop-rate=2"]), Either.left(`--drop-rate must be a number from 0 to 1, got "2"`))
    assert.isTrue(Either.isLeft(Flags.parse(["--error-rate=200=0.5"])))
    assert.isTrue(Either.isLeft(Flags.parse(["--nope"])))
    assert.deepStrictEqual(
      Flags.parse(["--admin-token=short"]),
      Either.left("--admin-token must be at least 16 printable characters without spaces")
    )
  })

  it("--help", () => {
    assert.deepStrictEqual(Flags.parse(["--help"]), Either.right({ _tag: "Help" as const }))
    assert.include(Flags.usage, "--error-rate STATUS=P")
  })
})
