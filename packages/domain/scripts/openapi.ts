/**
 * Writes `docs/openapi.json` (at the repository root) from the `HttpApi` definition.
 * Run with `npm run openapi`.
 *
 * @since 0.1.0
 */
import { OpenApi } from "@effect/platform"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Api } from "../src/index.js"

/**
 * Where the spec is written: `docs/openapi.json` at the repository root.
 *
 * @since 0.1.0
 */
export const outputPath = fileURLToPath(new URL("../../../docs/openapi.json", import.meta.url))

/**
 * The spec as written to disk: pretty-printed, with a trailing newline.
 *
 * @since 0.1.0
 */
export const render = (): string => `${JSON.stringify(OpenApi.fromApi(Api.Api), null, 2)}\n`

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(outputPath, render())
  console.log(`wrote ${outputPath}`)
}
