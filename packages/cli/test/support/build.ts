/**
 * Global set-up of the CLI tests: builds the executable from the sources once, as `npm pack`
 * would, into `.build/test/` (not `dist/`, which the consumer test rebuilds while these run),
 * so that every test spawns what users run.
 */
import { fileURLToPath } from "node:url"
import { build } from "../../scripts/build.js"

export const outdir = fileURLToPath(new URL("../../.build/test", import.meta.url))

export default () => build(outdir)
