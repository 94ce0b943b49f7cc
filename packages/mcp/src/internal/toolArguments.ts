/**
 * The tools' arguments checked before any handler runs: a tool called with an argument that
 * breaks its parameters' schema answers `isError` with a `ToolFailure` of error
 * `InvalidRequest`, naming the field and the rule (`Validation.toInvalidRequest`, the client's
 * own rule text), as every other failure of a tool is shaped, instead of @effect/ai's
 * `MalformedOutput` of the `Toolkit` module. Every tool of the toolkit gets it, whatever its
 * name, so a tool added later is covered without a line here.
 *
 * @since 0.1.0
 */
import { McpSchema, McpServer, type Tool, type Toolkit } from "@effect/ai"
import * as Validation from "@feeshare/domain/Validation"
import { Effect, Layer, type ParseResult, Schema } from "effect"
import { toFailure } from "./failures.js"

/** The answer to a call whose arguments failed to decode: the shape of a handler's failure. */
const refused = (tool: string, error: ParseResult.ParseError): McpSchema.CallToolResult => {
  const failure = toFailure(Validation.toInvalidRequest(tool, error))
  return new McpSchema.CallToolResult({
    isError: true,
    structuredContent: failure,
    content: [{ type: "text", text: JSON.stringify(failure) }]
  })
}

/**
 * `McpServer.toolkit(toolkit)`, with each tool's arguments decoded against its parameters
 * first; a failure is answered as above and the handler never runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = <Tools extends Record<string, Tool.Any>>(toolkit: Toolkit.Toolkit<Tools>) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const server = yield* McpServer.McpServer
    const parameters = new Map<string, Tool.Any["parametersSchema"]>(
      Object.values(toolkit.tools).map((tool) => [tool.name, tool.parametersSchema])
    )
    // the server as it is, but for `addTool`, which checks the arguments before the handler
    const checking: McpServer.McpServer["Type"] = Object.assign(Object.create(server), {
      addTool: (options: Parameters<McpServer.McpServer["Type"]["addTool"]>[0]) => {
        const schema = parameters.get(options.tool.name)
        if (schema === undefined) return server.addTool(options)
        const decode = Schema.decodeUnknown(schema)
        return server.addTool({
          tool: options.tool,
          handle: (payload) =>
            decode(payload).pipe(
              Effect.matchEffect({
                onFailure: (error) => Effect.succeed(refused(options.tool.name, error)),
                onSuccess: () => options.handle(payload)
              })
            )
        })
      }
    })
    yield* McpServer.registerToolkit(toolkit).pipe(Effect.provideService(McpServer.McpServer, checking))
  })).pipe(Layer.provide(McpServer.McpServer.layer))
