/**
 * `npm run build` (and `prepack`): bundles the explorer's page into `dist/explorer/`, which the
 * published package serves (see `ExplorerAssets`).
 */
import { fileURLToPath } from "node:url"
import * as ExplorerAssets from "../src/ExplorerAssets.js"

await ExplorerAssets.write(fileURLToPath(new URL(`../dist/${ExplorerAssets.folder}`, import.meta.url)))
