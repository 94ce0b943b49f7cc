/**
 * Every tool `feeshare mcp` lists, called with one argument of the wrong type: the answer is
 * `isError` with the documented `ToolFailure` (`error: "InvalidRequest"`, the `field` at fault
 * and the `rule` it breaks), never @effect/ai's internal `MalformedOutput`. The tools and
 * their parameters are read from the server's own tool list, so a tool added later is covered.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { connect, sandboxLayer } from "./support/fixture.js"

interface JsonSchema {
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly $ref?: string
}

/** A value of a JSON type the property does not accept: a number for a string, and so on. */
const wrongValue = (property: JsonSchema): unknown => {
  const types = new Set<string>()
  const collect = (schema: JsonSchema) => {
    if (typeof schema.type === "string") types.add(schema.type)
    else for (const type of schema.type ?? []) types.add(type)
    for (const member of schema.anyOf ?? []) collect(member)
  }
  collect(property)
  if (!types.has("boolean")) return true
  if (!types.has("array")) return ["not", "this"]
  return { not: "this" }
}

describe("feeshare mcp: tool arguments", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-arguments" }), { excludeTestServices: true, timeout: "120 seconds" })(
    (it) => {
      it.scoped("every tool answers one bad argument with InvalidRequest naming the field and the rule", () =>
        Effect.gen(function*() {
          const session = yield* connect([])
          const { tools } = yield* Effect.promise(() => session.client.listTools())
          const checked: Array<string> = []
          const withoutParameters: Array<string> = []
          for (const tool of tools) {
            const properties: Readonly<Record<string, JsonSchema>> = tool.inputSchema.properties ?? {}
            // the first declared parameter: nothing is checked before it, so it is the one at fault
            const first = Object.entries(properties)[0]
            if (first === undefined) {
              withoutParameters.push(tool.name)
              continue
            }
            const [field, schema] = first
            const result = yield* session.call(tool.name, { [field]: wrongValue(schema) })
            const at = `${tool.name}(${field}): ${result.text}`
            assert.isTrue(result.isError, at)
            assert.strictEqual(result.structured["_tag"], "ToolFailure", at)
            assert.strictEqual(result.structured["error"], "InvalidRequest", at)
            assert.strictEqual(result.structured["field"], field, at)
            const rule = result.structured["rule"]
            assert.isTrue(typeof rule === "string" && rule.length > 0, at)
            assert.include(String(result.structured["message"]), field, at)
            assert.notInclude(result.text, "MalformedOutput", at)
            checked.push(tool.name)
          }
          // every tool with parameters was checked; the others take none
          assert.isAtLeast(checked.length, 15, checked.join(", "))
          assert.strictEqual(checked.length + withoutParameters.length, tools.length)
          for (const name of withoutParameters) {
            const tool = tools.find((candidate) => candidate.name === name)
            assert.deepStrictEqual(Object.keys(tool?.inputSchema.properties ?? {}), [], name)
          }
          assert.includeMembers(checked, ["positions", "quote", "prepare_claim", "execute"])
        }))
    }
  )
})
