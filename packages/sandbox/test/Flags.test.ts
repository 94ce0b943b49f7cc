import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import * as Flags from "../src/Flags.js"
import * as Options from "../src/Options.js"
import * as Tamper from "../src/Tamper.js"

describe("Flags", () => {
  it("no flags: the defaults", () => {
    assert.deepStrictEqual(
      Flags.parse([]),
      Either.right({ _tag: "Run" as const, options: Options.defaults, empty: false })
    )
    assert.deepStrictEqual(
      Flags.parse(["--empty"]),
      Either.right({ _tag: "Run" as const, options: Options.defaults, empty: true })
    )
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
      "--admin-token=0123456789abcdef0123",
      "--tamper=flip-byte",
      "--tamper",
      "wrong-hash=2",
      "--tamper=forged-signature=0.25"
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
      adminToken: "0123456789abcdef0123",
      tamper: [{ kind: "flip-byte" }, { kind: "wrong-hash", plans: 2 }, { kind: "forged-signature", probability: 0.25 }]
    }
    assert.deepStrictEqual(parsed, Either.right({ _tag: "Run" as const, options: expected, empty: false }))
    assert.deepStrictEqual(Object.keys(expected).sort(), Object.keys(Options.defaults).sort())
  })

  it("a bad value names the flag and the rule", () => {
    assert.deepStrictEqual(
      Flags.parse(["--port=70000"]),
      Either.left(`--port must be an integer from 0 to 65535, got "70000"`)
    )
    assert.deepStrictEqual(
      Flags.parse(["--drop-rate=2"]),
      Either.left(`--drop-rate must be a number from 0 to 1, got "2"`)
    )
    assert.isTrue(Either.isLeft(Flags.parse(["--error-rate=200=0.5"])))
    assert.isTrue(Either.isLeft(Flags.parse(["--nope"])))
    assert.deepStrictEqual(
      Flags.parse(["--admin-token=short"]),
      Either.left("--admin-token must be at least 16 printable characters without spaces")
    )
  })

  it("--tamper: KIND, KIND=N (a count), KIND=P (a probability, with a decimal point)", () => {
    const tamper = (...values: ReadonlyArray<string>) =>
      Either.map(
        Flags.parse(values.flatMap((value) => ["--tamper", value])),
        (parsed) => parsed._tag === "Run" ? parsed.options.tamper : []
      )
    assert.deepStrictEqual(tamper("wrong-size"), Either.right([{ kind: "wrong-size" }]))
    assert.deepStrictEqual(tamper("wrong-size=1"), Either.right([{ kind: "wrong-size", plans: 1 }]))
    assert.deepStrictEqual(tamper("wrong-size=1.0"), Either.right([{ kind: "wrong-size", probability: 1 }]))
    assert.deepStrictEqual(
      tamper("wrong-size=0.5", "trailing-bytes=12"),
      Either.right([
        { kind: "wrong-size", probability: 0.5 },
        { kind: "trailing-bytes", plans: 12 }
      ])
    )
    // every kind is accepted, and its flag text reads back as itself
    for (const kind of Tamper.allKinds) {
      for (const value of [{ kind }, { kind, plans: 3 }, { kind, probability: 0.3 }, { kind, probability: 1 }]) {
        assert.deepStrictEqual(Flags.parseTamper(Tamper.format(value)), Either.right(value), Tamper.format(value))
      }
    }
  })

  it("--tamper: a bad value names the flag and the rule", () => {
    const rule =
      `KIND, KIND=N (the next N plans, N >= 1) or KIND=P (a probability written with a decimal point, 0 < P <= 1)`
    assert.deepStrictEqual(
      Flags.parse(["--tamper", "flip-bite"]),
      Either.left(`--tamper KIND must be one of ${Tamper.allKinds.join(", ")}, got "flip-bite"`)
    )
    for (
      const bad of [
        "wrong-hash=0",
        "wrong-hash=0.0",
        "wrong-hash=1.5",
        "wrong-hash=.5",
        "wrong-hash=-1",
        "wrong-hash=",
        "wrong-hash=x2",
        "wrong-hash=2=3",
        "wrong-hash=1e3"
      ]
    ) {
      assert.deepStrictEqual(Flags.parse(["--tamper", bad]), Either.left(`--tamper must be ${rule}, got "${bad}"`), bad)
    }
    assert.isTrue(Either.isLeft(Flags.parse(["--tamper"])))
  })

  it("--help", () => {
    assert.deepStrictEqual(Flags.parse(["--help"]), Either.right({ _tag: "Help" as const }))
    assert.include(Flags.usage, "--error-rate STATUS=P")
    assert.include(Flags.usage, "--tamper KIND[=N|=P]")
    for (const kind of Tamper.allKinds) assert.include(Flags.usage, kind)
  })
})
