import { assert, describe, it } from "@effect/vitest"
import { FeeShareError, Plan } from "@feeshare/domain"
import * as Chain from "@feeshare/solana/Chain"
import * as Failures from "@feeshare/solana/Failures"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as WalletSource from "@feeshare/solana/WalletSource"
import * as WireTransaction from "@feeshare/solana/WireTransaction"
import { Redacted, SchemaAST } from "effect"
import * as ExitCode from "../src/ExitCode.js"

const tagsOf = (schema: { readonly ast: SchemaAST.AST }): ReadonlyArray<string> =>
  SchemaAST.isUnion(schema.ast)
    ? schema.ast.types.flatMap((member) => tagsOf({ ast: member }))
    : SchemaAST.isTransformation(schema.ast)
    ? tagsOf({ ast: schema.ast.to })
    : SchemaAST.isDeclaration(schema.ast) || SchemaAST.isTypeLiteral(schema.ast)
    ? SchemaAST.getPropertySignatures(SchemaAST.typeAST(schema.ast)).filter((p) => p.name === "_tag").flatMap((p) =>
      SchemaAST.isLiteral(p.type) ? [String(p.type.literal)] : []
    )
    : []

describe("ExitCode", () => {
  it("every verification refusal means refused-to-sign (8)", () => {
    const tags = tagsOf(WireTransaction.Refusal)
    assert.isAtLeast(tags.length, 13)
    for (const tag of [...tags, new Plan.InvalidPlan({ violations: [], message: "" })._tag]) {
      assert.strictEqual(ExitCode.classOf(tag).code, 8, tag)
    }
  })

  it("every core failure of the one table (client's Failures) has an exit class, one per kind", () => {
    assert.isAtLeast(Failures.all.length, 34)
    for (const kind of Object.keys(Failures.byKind) as ReadonlyArray<Failures.Kind>) {
      const codes = new Set(Failures.tagsOf(kind).map((tag) => ExitCode.classOf(tag).code))
      assert.strictEqual(codes.size, 1, kind)
      assert.notInclude([ExitCode.ok, ExitCode.internal, ExitCode.interrupted], [...codes][0], kind)
    }
  })

  it("a wallet of the keeper's config or the MCP policy that cannot be loaded is a local failure (10), like a bad --keypair", () => {
    const unavailable = new WalletSource.WalletUnavailable({
      source: "keys/a.json",
      message: "keys/a.json: no such key file"
    })
    assert.strictEqual(ExitCode.classOf(unavailable._tag).code, 10)
    assert.strictEqual(ExitCode.classOf(unavailable._tag).code, ExitCode.classOf("InvalidKey").code)
  })

  it("every API failure has its class", () => {
    const expected: Record<string, number> = {
      BadRequest: 4,
      Unauthorized: 3,
      Forbidden: 3,
      NotFound: 4,
      RateLimited: 5,
      ServerError: 6,
      UnexpectedResponse: 6,
      TransportError: 7,
      Timeout: 7
    }
    const tags = tagsOf(FeeShareError.ApiFailure)
    assert.deepStrictEqual([...tags].sort(), Object.keys(expected).sort())
    for (const tag of tags) assert.strictEqual(ExitCode.classOf(tag).code, expected[tag], tag)
  })

  it("the shared rate budget's store being unavailable is a network failure (7) that names the Redis option", () => {
    const report = ExitCode.describe(
      new FeeShareError.BudgetUnavailable({
        status: 0,
        message: "analytics.pools: the rate budget's store (redis://127.0.0.1:6379/0) is unavailable: timed out",
        operation: "analytics.pools",
        store: "redis://127.0.0.1:6379/0"
      })
    )
    assert.strictEqual(report.code, 7)
    assert.include(report.line, "--redis-url")
  })

  it("on-chain failures are 9, unknown tags are internal (1), codes are distinct", () => {
    for (
      const error of [
        new Chain.TransactionFailed({ signature: "s", slot: 1n, error: "e", logs: [], message: "m" }),
        new Chain.PreflightFailed({ signature: "s", error: "e", logs: [], message: "m" }),
        new PlanExecutor.SetupTimedOut({ waitedMillis: 1, message: "m" })
      ]
    ) assert.strictEqual(ExitCode.describe(error).code, 9)
    assert.strictEqual(ExitCode.describe(new Error("boom")).code, 1)
    const codes = ExitCode.classes.map((c) => c.code)
    assert.strictEqual(new Set(codes).size, codes.length)
    const tags = ExitCode.classes.flatMap((c) => c.tags)
    assert.strictEqual(new Set(tags).size, tags.length)
  })

  it("describes a failure on one line: what, why, what to do; the rate limit's reset time", () => {
    const report = ExitCode.describe(
      new FeeShareError.RateLimited({
        status: 429,
        message: "Rate limit exceeded",
        operation: "trade.quote",
        limit: 5000,
        remaining: 0,
        resetAt: 1_800_000_000
      })
    )
    assert.strictEqual(report.code, 5)
    assert.strictEqual(
      report.line,
      "trade.quote: Rate limit exceeded (RateLimited). wait until 2027-01-15T08:00:00.000Z and try again"
    )
    const invalid = ExitCode.describe(
      new FeeShareError.InvalidRequest({
        operation: "claims.createPlan",
        field: "tokenMint",
        rule: "r",
        message: "claims.createPlan: tokenMint r\n(more)"
      })
    )
    assert.strictEqual(
      invalid.line,
      "claims.createPlan: tokenMint r (more) (InvalidRequest). fix the value; nothing was sent"
    )
    assert.notInclude(ExitCode.describe({ _tag: "X", message: String(Redacted.make("secret")) }).line, "secret")
  })

  it("an answer this version does not understand says so and says to upgrade, never 'try again later'", () => {
    const report = ExitCode.describe(
      new FeeShareError.UnexpectedResponse({
        status: 200,
        message: "the response is not an envelope",
        operation: "analytics.pools",
        body: ""
      })
    )
    assert.strictEqual(report.code, 6)
    assert.include(report.line, "does not understand")
    assert.include(report.line, "upgrade @feeshare/cli")
    assert.notInclude(report.line, "try again later")
    // a proxy's 502 page is an outage
    const outage = ExitCode.describe(
      new FeeShareError.UnexpectedResponse({
        status: 502,
        message: "expected a JSON response",
        operation: "analytics.pools",
        body: "<html>"
      })
    )
    assert.include(outage.line, "failed with status 502; try again later")
  })

  it("a hostile 5 MB message is printed capped, on one line", () => {
    const report = ExitCode.describe(
      new FeeShareError.BadRequest({ status: 400, message: "x\n".repeat(2_500_000), operation: "trade.quote" })
    )
    assert.isBelow(report.line.length, ExitCode.maxMessageLength + 200)
    assert.notInclude(report.line, "\n")
    assert.include(report.line, "(5000000 characters)")
  })
})
