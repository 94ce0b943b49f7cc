import { assert, describe, it } from "@effect/vitest"
import { Api } from "../src/index.js"

const groups = Object.values(Api.Api.groups)
const endpoints = groups.flatMap((group) => Object.values(group.endpoints).map((endpoint) => ({ group, endpoint })))

describe("Api", () => {
  it("has exactly 28 operations in the nine groups", () => {
    assert.strictEqual(endpoints.length, 28)
    assert.deepStrictEqual(
      groups.map((g) => g.identifier).sort(),
      ["agentAuth", "analytics", "claims", "evm", "feeShare", "identity", "launch", "system", "trade"]
    )
    assert.deepStrictEqual(
      Object.fromEntries(groups.map((g) => [g.identifier, Object.keys(g.endpoints).length])),
      { claims: 7, feeShare: 4, launch: 4, trade: 2, analytics: 4, evm: 3, identity: 1, agentAuth: 2, system: 1 }
    )
  })

  it("every group except agentAuth and system carries the ApiKey middleware", () => {
    for (const group of groups) {
      const secured = group.identifier !== "agentAuth" && group.identifier !== "system"
      assert.deepStrictEqual(
        [...group.middlewares].map((m) => m.key),
        secured ? [Api.ApiKey.key] : [],
        group.identifier
      )
    }
    assert.strictEqual(Api.Api.middlewares.size, 0, "no API-wide middleware")
  })

  it("paths sit under the base path except ping, and method + path are unique", () => {
    for (const { endpoint, group } of endpoints) {
      assert.strictEqual(
        endpoint.path.startsWith(`${Api.basePath}/`),
        Api.isUnderBaseUrl(group.identifier),
        endpoint.path
      )
    }
    const routes = endpoints.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`)
    assert.strictEqual(new Set(routes).size, 28)
    assert.include(routes, "GET /ping")
  })

  it("operation names are group.endpoint, ping bare", () => {
    assert.strictEqual(Api.operationName("claims", "createPlan"), "claims.createPlan")
    assert.strictEqual(Api.operationName("system", "ping"), "ping")
  })
})
