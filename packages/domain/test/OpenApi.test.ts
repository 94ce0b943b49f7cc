import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { outputPath, render } from "../scripts/openapi.js"

const methods = new Set(["get", "post", "put", "patch", "delete"])

describe("docs/openapi.json", () => {
  it("is current with the HttpApi definition", () => {
    assert.isTrue(existsSync(outputPath), `${outputPath} is missing: run \`npm run openapi\``)
    const committed = readFileSync(outputPath, "utf8")
    assert.isTrue(committed === render(), "docs/openapi.json is stale: run `npm run openapi` and commit the result")
  })

  it("lists all 28 operations, with the API key on all but agent auth and ping", () => {
    const spec: { paths: Record<string, Record<string, { operationId: string; security: ReadonlyArray<unknown> }>> } =
      JSON.parse(readFileSync(outputPath, "utf8"))
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item).filter(([method]) => methods.has(method)).map(([method, op]) => ({ path, method, ...op }))
    )
    assert.strictEqual(operations.length, 28)
    assert.strictEqual(new Set(operations.map((op) => op.operationId)).size, 28)
    const open = operations.filter((op) => op.security.length === 0).map((op) => op.operationId).sort()
    assert.deepStrictEqual(open, ["agentAuth.callback", "agentAuth.init", "system.ping"])
    assert.isTrue(operations.every((op) => op.path === "/ping" || op.path.startsWith("/api/v1/")))
  })
})
